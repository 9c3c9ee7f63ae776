// The care views in the reader's language: a German admin on a device in New York edits Erika (in Tokyo, then
// Berlin). The allowed languages show ticked as the users' table lists them, the help of the fields is German,
// the care log's rows, channels, states and details are German, and every time is on Erika's clock with her
// zone named, on her own page too. Environment: BASE, LINK (the admin's link to /admin), PERSON (Erika's
// link), SHOTS.
import { chromium } from 'playwright-core';
import { accessible } from './axe.mjs';
import { mkdirSync } from 'node:fs';

const { BASE, LINK, PERSON, SHOTS = 'target/ui-shots' } = process.env;
mkdirSync(SHOTS, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run'],
});
let page;
const text = (sel) => page.evaluate((s) => document.querySelector(s).textContent, sel);
const until = (what, fn, arg) => page.waitForFunction(fn, arg, { timeout: 10000 }).catch(async () => {
  throw new Error(`${what}: ${await page.evaluate(() => document.querySelector('#user-editor').innerText)}`);
});
try {
  page = await (await browser.newContext({ bypassCSP: true, timezoneId: 'America/New_York', locale: 'de-DE' })).newPage();
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  await page.goto(`${BASE}${LINK}`);
  await page.waitForFunction(() => window.__admin && window.__admin.ready, null, { timeout: 15000 });
  const listed = await page.textContent('#users tr:has(td:text-is("erika")) td:nth-child(4)');
  await page.click('button[aria-label="erika bearbeiten"]');
  await page.waitForSelector('#user-editor:not([hidden])');
  // Unset allowed languages are all of them: every box ticked, as the table lists them.
  const boxes = await page.$$eval('#pref-languages input', (all) => all.map((b) => [b.value, b.checked]));
  if (boxes.length !== 8 || boxes.some(([, on]) => !on) || listed.split(', ').length !== 8) {
    throw new Error(`allowed languages: table "${listed}", boxes ${JSON.stringify(boxes)}`);
  }
  console.log(`ok every allowed language ticked as the table lists them: ${listed}`);
  const help = await page.evaluate(() => ({
    landline: document.querySelector('#pref-phone_landline').placeholder,
    zone: document.querySelector('#pref-timezone').closest('label').textContent.trim(),
  }));
  if (help.landline !== '+49… oder 611' || !help.zone.startsWith('Zeitzone')) throw new Error(`field help: ${JSON.stringify(help)}`);
  console.log(`ok the fields' help in German: ${JSON.stringify(help)}`);
  // The care log: the undelivered tea in German, at its time on Erika's clock in Tokyo, the zone named.
  await until('the care log in German', () => document.querySelector('#care-log tbody').textContent
    .includes('keine Seite und keine Sprachverbindung offen'));
  const row = await page.$$eval('#care-log tbody tr:first-child td', (cells) => cells.map((c) => c.textContent));
  if (!row[0].endsWith('(Asia/Tokyo)') || row[1] !== 'Erinnerung: den Tee' || row[2] !== 'Seite' || row[3] !== 'nicht erreicht') {
    throw new Error(`the care log's row: ${JSON.stringify(row)}`);
  }
  const reminders = await text('#user-reminders');
  if (!/\d\d\.\d\d\.\d{4}, 08:00 \(Asia\/Tokyo\) die Tabletten: geplant/.test(reminders)) throw new Error(`reminders: ${reminders}`);
  console.log(`ok the care log in German on Erika's clock: ${row.join(' | ')}; ${reminders}`);
  await accessible(page, 'the care views in German');
  // Erika moves to Berlin: her zone set in the panel, the log's times follow it.
  await page.fill('#pref-timezone', 'Europe/Berlin');
  await page.click('#save-prefs');
  await until('saved', () => document.querySelector('#status').textContent.startsWith('Einstellungen speichern: erledigt'));
  await until('the log in Berlin', () => document.querySelector('#care-log tbody td').textContent.endsWith('(Europe/Berlin)'));
  console.log(`ok the zone set in the panel: ${await text('#care-log tbody td')}`);
  // A reminder set at 09:30 is at 09:30 on Erika's clock, not the device's in New York.
  await page.fill('#reminder-text', 'Blumen gießen');
  await page.fill('#reminder-at', `${new Date(Date.now() + 2 * 86400000).toISOString().slice(0, 10)}T09:30`);
  await page.click('#reminder-form button');
  await until('the new reminder', () => document.querySelector('#user-reminders').textContent.includes('Blumen gießen'));
  const set = await page.$$eval('#user-reminders li', (all) => all.map((li) => li.textContent).find((t) => t.includes('Blumen')));
  if (!set.includes('09:30 (Europe/Berlin) Blumen gießen: geplant')) throw new Error(`the reminder set: ${set}`);
  console.log(`ok a reminder set on Erika's clock: ${set}`);
  await page.screenshot({ path: `${SHOTS}/care-words.png`, fullPage: true });
  // Erika's own page, opened on the same device in New York: her reminders at the times the assistant says
  // them, on her clock (the reminder kept in Tokyo's), the zone named.
  const own = await (await browser.newContext({ bypassCSP: true, timezoneId: 'America/New_York', locale: 'de-DE' })).newPage();
  own.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  await own.goto(`${BASE}${PERSON}`);
  await own.waitForFunction(() => window.__vg && window.__vg.ready, null, { timeout: 15000 });
  await own.waitForFunction(() => document.querySelector('#reminders').textContent.includes('die Tabletten'), null, { timeout: 10000 });
  const theirs = await own.$$eval('#reminders li', (all) => all.map((li) => li.textContent).find((t) => t.includes('Tabletten')));
  if (!/08:00( AM)? \(Asia\/Tokyo\): die Tabletten/.test(theirs)) throw new Error(`the person's page: ${theirs}`);
  console.log(`ok the person's page on their clock: ${theirs}`);
  // Who cares for her, in her settings, and her say in what they are told: she turns it off.
  const carers = await own.textContent('#carers-line');
  if (carers !== 'Betreut von chefin') throw new Error(`the carers on her page: ${carers}`);
  if (!(await own.isChecked('#notify-carers'))) throw new Error('carers are told unless she says no');
  const saved = own.waitForResponse((r) => r.url().endsWith('/api/me/prefs') && r.request().method() === 'PUT');
  await own.uncheck('#notify-carers');
  if (!(await saved).ok()) throw new Error('notify_carers was not saved');
  console.log(`ok her carers on her page: ${carers}; she turned telling them off`);
} catch (e) {
  console.log(`FAILED ${e.message}`);
  if (page) await page.screenshot({ path: `${SHOTS}/care-words-failure.png`, fullPage: true }).catch(() => {});
  await browser.close();
  process.exit(1);
}
await browser.close();
