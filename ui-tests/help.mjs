// Help on a phone's screen, in German, played by Debian's Chromium at 360 px: a call for help typed in fright is
// asked about in a large dialog, its "Ja" alerts the contacts, and a reminder due meanwhile never covers the
// question or its result; a person whose contacts no channel reaches reads the true cause under the help button,
// and the dialog gives the 112 advice first instead of promising an alert.
// Environment: BASE (http://127.0.0.1:port), LINK (Oma's personal link path: contacts reachable by mail),
// STRANDED (Opa's link: contacts entered, no channel for them), SHOTS.
import { chromium } from 'playwright-core';
import { accessible } from './axe.mjs';
import { mkdirSync } from 'node:fs';

const { BASE, LINK, STRANDED, SHOTS = 'target/ui-shots' } = process.env;
mkdirSync(SHOTS, { recursive: true });
const step = (name) => console.log(`ok ${name}`);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
// A phone as Chromium's device emulation has it: 360 px wide, three device pixels to one, touch, German.
const phone = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true,
  locale: 'de-DE', bypassCSP: true };
let page;

// Whether `selector` is shown and not covered at its centre by another element.
async function uncovered(selector) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el || el.hidden) return false;
    const box = el.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return el.contains(top);
  }, selector);
}

async function open(link) {
  const context = await browser.newContext(phone);
  page = await context.newPage();
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  await page.goto(`${BASE}${link}`);
  await page.waitForFunction(() => window.__vg && window.__vg.ready, null, { timeout: 15000 });
}

try {
  await open(LINK);
  await page.fill('#question', 'Hilfe, ich bin gestürzt!');
  await page.click('#send');
  await page.waitForFunction(() => document.querySelector('#help-dialog').open, null, { timeout: 15000 });
  const asked = await page.textContent('#help-dialog-text');
  if (!asked.includes('Soll ich Ihre Kontaktpersonen alarmieren?')) throw new Error(`the dialog asks: ${asked}`);
  const buttons = await page.evaluate(() => ['#help-yes', '#help-no'].map((s) => {
    const b = document.querySelector(s).getBoundingClientRect();
    return { text: document.querySelector(s).textContent, width: b.width, height: b.height };
  }));
  if (buttons.some((b) => b.height < 48 || b.width < 120) || buttons[1].text !== 'Abbrechen') {
    throw new Error(`the dialog's buttons: ${JSON.stringify(buttons)}`);
  }
  await accessible(page, 'the help question after a typed call for help');
  step(`typed call for help asked in a dialog: "${asked}", buttons ${buttons.map((b) => `${b.text} ${b.width}x${b.height}`).join(', ')}`);

  // A reminder falls due while the question is open: it waits.
  const reminder = { type: 'reminder', id: 'r1', text: 'Tabletten nehmen', due_at: new Date().toISOString(), confirm: true };
  await page.evaluate((r) => onEvent(null, JSON.stringify(r)), reminder);
  if (!(await page.isHidden('#reminder-card'))) throw new Error('the reminder card was shown over the help question');
  await page.screenshot({ path: `${SHOTS}/help-typed-360.png` });
  await page.click('#help-yes');
  await page.waitForFunction(() => document.querySelector('#help-result').dataset.status, null, { timeout: 20000 });
  const result = await page.textContent('#help-result');
  const outcome = await page.getAttribute('#help-result', 'data-status');
  if (outcome !== 'alerted' || !result.startsWith('Hilfe ist unterwegs')) throw new Error(`help: ${outcome} ${result}`);
  if (!(await uncovered('#help-result'))) throw new Error('the help result is covered');
  if (!(await page.isHidden('#reminder-card'))) throw new Error('the reminder card covers the help result');
  await page.screenshot({ path: `${SHOTS}/help-result-360.png` });
  step(`"Ja" alerts: ${result}; the reminder waits`);
  await page.click('#help-result');
  await page.waitForSelector('#reminder-card:not([hidden])', { timeout: 5000 });
  step(`the reminder is shown once the help result is put away: ${await page.textContent('#reminder-text')}`);
  await page.context().close();

  // Contacts entered, no channel reaches them: the line under the help button names the true cause.
  await open(STRANDED);
  await page.waitForSelector('#help-note:not([hidden])', { timeout: 15000 });
  const noteText = await page.textContent('#help-note');
  if (!noteText.includes('Kontaktpersonen sind eingetragen') || !noteText.includes('SMS-Versand')
    || noteText.includes('keine Kontaktperson')) {
    throw new Error(`the line under the help button: ${noteText}`);
  }
  if (!(await uncovered('#help'))) throw new Error('the help button is covered');
  step(`the cause under the help button: ${noteText}`);
  await page.click('#help');
  const offered = await page.textContent('#help-dialog-text');
  if (!offered.startsWith('Rufen Sie im Notfall bitte selbst den Notruf 112 an') || offered.includes('werden alarmiert')
    || !(await uncovered('#help-no'))) {
    throw new Error(`the dialog promises: ${offered}`);
  }
  await accessible(page, 'the help dialog while help reaches nobody');
  await page.screenshot({ path: `${SHOTS}/help-unreachable-360.png` });
  step(`the dialog gives the 112 advice first: ${offered}`);
  await page.click('#help-no');
} catch (e) {
  console.log(`FAILED ${e.message}`);
  if (page) await page.screenshot({ path: `${SHOTS}/help-failure.png` }).catch(() => {});
  await browser.close();
  process.exit(1);
}
await browser.close();
