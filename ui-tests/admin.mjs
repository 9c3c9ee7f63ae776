// The admin panel in headless Chromium: log in with an admin's personal link, create a user, see the token once.
// Environment: BASE, LINK, SHOTS. Prints the new user's token as "token <value>" for the test to check.
import { chromium } from 'playwright-core';
import { accessible } from './axe.mjs';
import { mkdirSync } from 'node:fs';

const { BASE, LINK, SHOTS = 'target/ui-shots' } = process.env;
mkdirSync(SHOTS, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run'],
});
let page;
try {
  page = await (await browser.newContext({ bypassCSP: true })).newPage();
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  await page.goto(`${BASE}${LINK}`);
  await page.waitForFunction(() => window.__vg && window.__vg.ready, null, { timeout: 15000 });
  if (!(await page.isVisible('#admin-link'))) throw new Error('no link to the admin panel for an admin');
  // The mail relay is down and e-mail is this person's only channel: the help page says so.
  await page.waitForSelector('#help-warning:not([hidden])', { timeout: 10000 });
  const warning = await page.textContent('#help-warning');
  if (!warning.includes('112')) throw new Error(`help page warning: ${warning}`);
  console.log(`ok the help page warns: ${warning}`);
  await accessible(page, 'help page with its warning');
  await page.click('#admin-link');
  await page.waitForFunction(() => window.__admin && window.__admin.ready, null, { timeout: 15000 });
  const backend = await page.inputValue('#backend');
  if (backend !== 'llamacpp') throw new Error(`the panel shows the backend ${backend}, not the one that runs`);
  console.log('ok admin panel open');
  const banner = await page.textContent('#help-path-banner');
  if (!(await page.isVisible('#help-path-banner')) || !banner.includes('Alarms cannot be sent by mail')) throw new Error(`banner: ${banner}`);
  console.log(`ok the admin panel's banner: ${banner}`);
  // Under it, whose help does not reach everybody and why, in the operator's words.
  const people = await page.textContent('#help-people');
  if (!(await page.isVisible('#help-people')) || !people.includes('fails its check (email)')) throw new Error(`whose help and why: ${people}`);
  console.log(`ok whose help and why: ${people}`);
  console.log(`ok accessible: the admin panel passes ${await accessible(page, 'admin panel')} WCAG 2.2 AA checks`);
  // The voice turn asked before: its stages in the latency section, as bars of this hour and as numbers.
  await page.click('#latency-section summary');
  await page.waitForFunction(() => document.querySelector('#latency-summary').textContent.startsWith('1 voice turn'), null, { timeout: 10000 });
  const bars = await page.locator('#latency-chart svg.latency-chart rect').count();
  if (bars < 1) throw new Error('the chart shows no stage of the turn');
  const stages = await page.locator('#latency tbody tr').allTextContents();
  if (stages.length !== 6 || !stages[5].startsWith('Whole wait')) throw new Error(`stages shown: ${stages.join(' / ')}`);
  console.log(`ok latency of the voice turn shown: ${bars} bars, ${stages.length} stages`);
  await accessible(page, 'admin panel with its latency chart');
  // The cloud model failed during that turn and is skipped now: the health section says so in words and colour.
  await page.click('#health-section summary');
  await page.waitForSelector('#health span.state-open', { timeout: 10000 });
  const summary = await page.textContent('#health-summary');
  if (!summary.includes('llm cloud')) throw new Error(`health summary: ${summary}`);
  const state = await page.textContent('#health span.state-open');
  if (!state.startsWith('failing: skipped')) throw new Error(`state shown: ${state}`);
  console.log(`ok the failing provider shown: ${summary} ${state}`);
  await accessible(page, 'admin panel with a failing provider');
  await page.fill('#new-name', 'neu');
  await page.fill('#new-display', 'Neue Person');
  await page.click('#new-user button');
  await page.waitForSelector('#new-token', { timeout: 10000 });
  const token = await page.textContent('#new-token');
  const link = await page.getAttribute('#new-link', 'href');
  if (!link.endsWith(`/?k=${token}`)) throw new Error(`link ${link} does not carry the token`);
  console.log(`token ${token}`);
  const qr = await page.evaluate(() => { const img = document.querySelector('#new-qr'); return img && img.complete && img.naturalWidth > 0 ? img.getAttribute('src') : null; });
  if (!qr) throw new Error('no QR code of the link shown');
  console.log(`qr ${decodeURIComponent(qr.slice(qr.indexOf(',') + 1))}`);
  await accessible(page, 'admin panel with a new link and its QR code');
  await page.waitForSelector('#users td:text-is("neu")');
  await page.click('button[aria-label="Edit neu"]');
  await page.waitForSelector('#user-editor:not([hidden])');
  // A new person may use every language: every box is ticked, as the users' table lists them; German only is
  // the others unticked.
  const ticked = await page.$$eval('#pref-languages input', (all) => all.filter((b) => b.checked).length);
  if (ticked !== 8) throw new Error(`${ticked} of 8 allowed languages ticked for a new person`);
  for (const box of await page.$$('#pref-languages input:not([value="de"])')) await box.uncheck();
  await page.fill('#pref-full_name', 'Neue Person');
  await page.fill('#pref-emergency_contacts', 'hilfe@family.example');
  await page.fill('#pref-checkin_window', '8:00-10:00');
  // A carer named by user name (the field offers every user), saved with the preferences.
  await page.fill('#carers-names', 'nobody-special');
  await page.click('#save-prefs');
  await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Carers: done'), null, { timeout: 10000 });
  console.log('ok preferences and carers saved through the form');
  // The daily check-in the carer set is planned: the editor says when its window ends.
  await page.waitForFunction(() => document.querySelector('#user-checkin').textContent.startsWith('Check-in 08:00-10:00'), null, { timeout: 10000 });
  const plan = await page.textContent('#user-checkin');
  if (!/next window ends \d\d\/\d\d\/\d{4}, 10:00 AM, waiting for the window's end/.test(plan)) throw new Error(`check-in plan: ${plan}`);
  console.log(`ok the carer sets a daily check-in: "${plan}"`);
  // A carer sets a reminder for the person: it is listed with its state, and can be cancelled.
  await page.fill('#reminder-text', 'Tabletten');
  const tomorrow = new Date(Date.now() + 86400000);
  const day = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
  await page.fill('#reminder-at', `${day}T08:00`);
  await page.selectOption('#reminder-repeat', 'FREQ=DAILY');
  await page.click('#reminder-form button');
  await page.waitForSelector('#user-reminders li:has-text("Tabletten")', { timeout: 10000 });
  const listed = await page.textContent('#user-reminders');
  const [y, m, d] = day.split('-');
  if (!listed.includes(`${m}/${d}/${y}, 08:00 AM Tabletten (daily 08:00 AM): scheduled`)) throw new Error(`reminders: ${listed}`);
  await accessible(page, 'admin panel with a person\'s reminders');
  // The panel asks before a reminder is cancelled: "no" keeps it, "yes" cancels it.
  page.once('dialog', (d) => d.dismiss());
  await page.click('button[aria-label="Cancel the reminder Tabletten"]');
  await page.waitForSelector('#user-reminders li:has-text("Tabletten")', { timeout: 10000 });
  page.once('dialog', (d) => { if (!d.message().startsWith('Cancel the reminder “Tabletten”?')) throw new Error(d.message()); d.accept(); });
  await page.click('button[aria-label="Cancel the reminder Tabletten"]');
  await page.waitForFunction(() => document.querySelector('#user-reminders').textContent.includes('No reminders.'), null, { timeout: 10000 });
  console.log('ok a carer sets a reminder for the person and cancels it');
  await page.screenshot({ path: `${SHOTS}/admin.png`, fullPage: true });
  await page.reload();
  await page.waitForFunction(() => window.__admin && window.__admin.ready, null, { timeout: 15000 });
  if ((await page.locator('#new-token').count()) > 0) throw new Error('the token is shown again after a reload');
  console.log('ok token shown once');
  // On a phone (360 px, touch), every section open: the page is as wide as the screen; a wide table scrolls
  // inside its section.
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 3, isMobile: true,
    hasTouch: true, bypassCSP: true, storageState: await page.context().storageState() });
  const small = await phone.newPage();
  await small.goto(`${BASE}/admin`);
  await small.waitForFunction(() => window.__admin && window.__admin.ready, null, { timeout: 15000 });
  const fit = await small.evaluate(() => {
    document.querySelectorAll('details').forEach((d) => { d.open = true; });
    return { page: document.documentElement.scrollWidth, screen: Math.min(window.innerWidth, window.screen.width) };
  });
  await small.waitForSelector('#health td[data-label="State"]', { timeout: 15000 });
  await small.screenshot({ path: `${SHOTS}/admin-phone.png`, fullPage: true });
  if (fit.page > fit.screen) throw new Error(`on a phone the panel is ${fit.page} px wide on a ${fit.screen} px screen`);
  console.log(`ok on a phone the panel fits its ${fit.screen} px screen`);
  // Provider health stacks its rows there: each provider's state is on the screen, not in a column beyond it.
  const states = await small.$$eval('#health td[data-label="State"]', (cells) => cells.map((c) => ({
    text: c.textContent, right: c.getBoundingClientRect().right, label: getComputedStyle(c, '::before').content })));
  const off = states.filter((s) => s.right > fit.screen || !s.label.includes('State'));
  if (off.length) throw new Error(`on a phone a provider's state is off the screen or unlabelled: ${JSON.stringify(off)}`);
  console.log(`ok on a phone each provider's state is on the screen (${states.map((s) => s.text).join(', ')})`);
  // An operator who speaks German: the panel speaks it from the phrasebook, on the phone as well.
  await small.evaluate(() => fetch('/api/me/prefs', { method: 'PUT', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ language: 'de' }) }));
  await small.reload();
  await small.waitForFunction(() => window.__admin && window.__admin.ready, null, { timeout: 15000 });
  const german = await small.evaluate(() => {
    document.querySelectorAll('details').forEach((d) => { d.open = true; });
    return { lang: document.documentElement.lang, users: document.querySelector('#users-section h2').textContent,
      save: document.querySelector('#save-prefs').textContent, status: document.querySelector('#status').textContent,
      width: document.documentElement.scrollWidth };
  });
  await small.waitForSelector('#health td[data-label="Zustand"]', { timeout: 15000 });
  await small.screenshot({ path: `${SHOTS}/admin-phone-de.png`, fullPage: true });
  if (german.lang !== 'de' || german.users !== 'Personen' || german.save !== 'Einstellungen speichern' || german.status !== 'Bereit.'
    || german.width > fit.screen) throw new Error(`the panel in German: ${JSON.stringify(german)}`);
  await accessible(small, 'admin panel in German on a phone');
  console.log(`ok the panel speaks German on a phone: ${JSON.stringify(german)}`);
  await phone.close();
} catch (e) {
  console.log(`FAILED ${e.message}`);
  if (page) await page.screenshot({ path: `${SHOTS}/admin-failure.png`, fullPage: true }).catch(() => {});
  await browser.close();
  process.exit(1);
}
await browser.close();
