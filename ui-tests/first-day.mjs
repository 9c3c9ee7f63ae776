// The first day in German, as a family sets the gateway up for their mother: in the panel (1280 px, then on a
// phone) a person named as people write her ("Frau Weiß") gets a login name derived and shown; a login name
// typed wrong is refused in German; her contact, entered in the editor, takes the warning off the banner at once
// (here and in a second open panel, without a reload); a daily reminder shows "täglich 08:00" and is cancelled
// only after a question. On her own page (a phone), the ✕ of that reminder offers "Rückgängig" first.
// Environment: BASE, LINK (the admin's personal link), SHOTS. Prints "person <name> <token>" for the test.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';

const { BASE, LINK, SHOTS = 'target/ui-shots' } = process.env;
mkdirSync(SHOTS, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run'],
});
const PHONE = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true, bypassCSP: true };
const ready = (page) => page.waitForFunction(() => window.__admin && window.__admin.ready, null, { timeout: 15000 });
const statusSays = (page, text) => page.waitForFunction((t) => document.querySelector('#status').textContent.includes(t), text, { timeout: 10000 });
let page;

// Creates "Frau Weiß" by the name people see: the login name is derived as she is typed, and shown.
async function createsHer() {
  await page.fill('#new-display', 'Frau Weiß');
  await page.waitForFunction(() => document.querySelector('#new-name').value === 'frau.weiss', null, { timeout: 10000 });
  await page.click('#new-user button');
  await page.waitForSelector('#new-token', { timeout: 10000 });
  const token = await page.textContent('#new-token');
  await page.waitForSelector('#users td:text-is("frau.weiss")');
  console.log(`person frau.weiss ${token}`);
  console.log('ok "Frau Weiß" created, her login name frau.weiss derived and shown');
  return token;
}

// A login name typed with a space: refused, in German.
async function refusesInGerman() {
  await page.fill('#new-display', 'Herr Groß');
  await page.fill('#new-name', 'Herr Groß');
  await page.click('#new-user button');
  await statusSays(page, 'Anmeldename: 1 bis 64 Buchstaben');
  const said = await page.textContent('#status');
  if (/expected|letters/.test(said)) throw new Error(`the refusal is English: ${said}`);
  console.log(`ok a wrong login name is refused in German: "${said}"`);
  await page.fill('#new-name', '');
  await page.fill('#new-display', '');
}

// Her contact entered and saved: the warning naming her leaves the banner of this panel and of another open one.
async function contactTakesTheWarningOff(other) {
  for (const p of [page, other]) {
    await p.waitForFunction(() => document.querySelector('#help-path-banner').textContent.includes('frau.weiss'), null, { timeout: 15000 });
  }
  const banner = await page.textContent('#help-path-banner');
  if (!banner.includes('PUBLIC_URL ist nicht gesetzt') || banner.includes('help: PUBLIC_URL')) throw new Error(`banner: ${banner}`);
  console.log(`ok the banner in German: "${banner}"`);
  await page.click('button[aria-label="frau.weiss bearbeiten"]');
  await page.waitForSelector('#user-editor:not([hidden])');
  await page.selectOption('#pref-language', 'de');
  await page.fill('#pref-emergency_contacts', 'tochter@family.example');
  await page.click('#save-prefs');
  // Sooner than the panel's own look every ten seconds: the edit's answer, and the gateway's event.
  for (const p of [page, other]) {
    await p.waitForFunction(() => !document.querySelector('#help-path-banner').textContent.includes('frau.weiss'), null, { timeout: 5000 });
  }
  console.log('ok her contact saved: the warning is gone from both open panels without a reload');
}

// A daily reminder in the editor: "täglich 08:00", and its cancel asks first.
async function dailyReminderAsked() {
  await page.fill('#reminder-text', 'Tabletten');
  const tomorrow = new Date(Date.now() + 86400000);
  const day = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
  await page.fill('#reminder-at', `${day}T08:00`);
  await page.selectOption('#reminder-repeat', 'FREQ=DAILY');
  await page.click('#reminder-form button');
  await page.waitForSelector('#user-reminders li:has-text("(täglich 08:00)")', { timeout: 10000 });
  let asked = '';
  page.once('dialog', (d) => { asked = d.message(); d.dismiss(); });
  await page.click('button[aria-label="Erinnerung Tabletten absagen"]');
  if (!asked.startsWith('Erinnerung „Tabletten“ absagen?')) throw new Error(`the cancel asked: "${asked}"`);
  if (!(await page.textContent('#user-reminders')).includes('Tabletten')) throw new Error('"no" cancelled the reminder');
  console.log(`ok a daily reminder shows "(täglich 08:00)", and its cancel asks: "${asked}"`);
}

// Her reminders on another screen: as wide as the screen, "täglich 08:00" and its ✕ on it.
async function herPageAt(token, screen, name) {
  const context = await browser.newContext(screen);
  const hers = await context.newPage();
  await hers.goto(`${BASE}/?k=${token}`);
  await hers.waitForFunction(() => window.__vg && window.__vg.ready, null, { timeout: 15000 });
  await hers.click('#reminders-panel summary');
  await hers.waitForSelector('#reminders li:has-text("täglich 08:00: Tabletten")', { timeout: 10000 });
  await hers.screenshot({ path: `${SHOTS}/first-day-page-${name}.png` });
  const wide = await hers.evaluate(() => document.documentElement.scrollWidth);
  if (wide > screen.viewport.width) throw new Error(`her page is ${wide} px wide on ${screen.viewport.width} px`);
  console.log(`ok her reminders at ${screen.viewport.width} px`);
  await context.close();
}

// Her page on a phone: the reminder says how it repeats; its ✕ offers "Rückgängig", which keeps it.
async function herPage(token) {
  const phone = await browser.newContext(PHONE);
  const hers = await phone.newPage();
  hers.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  await hers.goto(`${BASE}/?k=${token}`);
  await hers.waitForFunction(() => window.__vg && window.__vg.ready, null, { timeout: 15000 });
  await hers.click('#reminders-panel summary');
  await hers.waitForSelector('#reminders li:has-text("täglich 08:00: Tabletten")', { timeout: 10000 });
  await hers.screenshot({ path: `${SHOTS}/first-day-page-phone.png`, fullPage: true });
  await hers.click('button[aria-label="Löschen: Tabletten"]');
  await hers.waitForSelector('#reminders li:has-text("Erinnerung „Tabletten“ gelöscht.")', { timeout: 5000 });
  await hers.screenshot({ path: `${SHOTS}/first-day-page-undo.png`, fullPage: true });
  await hers.click('button[aria-label="Rückgängig: Tabletten"]');
  await hers.waitForSelector('#reminders li:has-text("täglich 08:00: Tabletten")', { timeout: 5000 });
  console.log('ok on her phone the daily reminder shows "täglich 08:00", and its ✕ offers "Rückgängig", which keeps it');
  await herPageAt(token, { ...PHONE, viewport: { width: 412, height: 915 } }, 'phone-412');
  await herPageAt(token, { viewport: { width: 1280, height: 800 }, bypassCSP: true }, 'desktop');
  await hers.click('button[aria-label="Löschen: Tabletten"]');
  await hers.waitForSelector('#reminders li:has-text("Keine Erinnerungen.")', { timeout: 20000 });
  console.log('ok left alone, the deletion goes through after the undo time');
  await phone.close();
}

try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  page = await context.newPage();
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  await page.goto(`${BASE}${LINK}`);
  await page.waitForFunction(() => window.__vg && window.__vg.ready, null, { timeout: 15000 });
  await page.goto(`${BASE}/admin`);
  await ready(page);
  const other = await (await browser.newContext({ ...PHONE, storageState: await context.storageState() })).newPage();
  await other.goto(`${BASE}/admin`);
  await ready(other);
  const token = await createsHer();
  await refusesInGerman();
  await contactTakesTheWarningOff(other);
  await dailyReminderAsked();
  await page.screenshot({ path: `${SHOTS}/first-day-panel.png`, fullPage: true });
  // On the phone: the banner and "Person anlegen" on its first screen, the page as wide as the screen.
  await other.screenshot({ path: `${SHOTS}/first-day-panel-phone.png` });
  const wide = await other.evaluate(() => document.documentElement.scrollWidth);
  if (wide > 360) throw new Error(`on a phone the panel is ${wide} px wide`);
  await herPage(token);
} catch (e) {
  console.log(`FAILED ${e.message}`);
  if (page) await page.screenshot({ path: `${SHOTS}/first-day-failure.png`, fullPage: true }).catch(() => {});
  await browser.close();
  process.exit(1);
}
await browser.close();
