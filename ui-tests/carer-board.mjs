// The carers' board in headless Chromium on a tablet (768 px), in German: everything that needs the carer is on
// the rows (two open alarms of a day, a missed check-in beside an alarm looked after), the last day lists the
// calls for help, and when the gateway stops (or the network stops carrying anything) every row says so within
// 10 s, cleared when it is back.
// Environment: BASE (the gateway, through the test's door), LINK (the carer's link to /carer), ORDER (the expected
// `name:state` list), SHOTS (where the screenshots go). The test stops and starts the gateway, freezes and thaws
// the network when asked on stdout ("stop the gateway"), and answers on stdin ("stopped", "started", …).
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { createInterface } from 'node:readline';

const { BASE, LINK, ORDER, SHOTS = 'target/ui-shots' } = process.env;
mkdirSync(SHOTS, { recursive: true });
const lines = createInterface({ input: process.stdin });
const answers = lines[Symbol.asyncIterator]();
const ask = async (what, expected) => {
  console.log(what);
  const { value } = await answers.next();
  if (value !== expected) throw new Error(`asked to ${what}, the test said ${value}`);
};
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run'],
});
// The row of the resident shown as `name`, and its lines.
const row = (name) => `#residents li:has(> h2:text-is("${name}"))`;
const texts = (page, sel) => page.$$eval(sel, (els) => els.map((e) => e.textContent));
try {
  const context = await browser.newContext({ bypassCSP: true, viewport: { width: 768, height: 1024 }, deviceScaleFactor: 1,
    locale: 'de-DE', timezoneId: 'Europe/Berlin', hasTouch: true });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  await page.goto(`${BASE}${LINK}`);
  await page.waitForFunction(() => window.__carer && window.__carer.ready && window.__carer.live, null, { timeout: 15000 });
  const order = await page.evaluate(() => window.__carer.order.join(','));
  if (order !== ORDER) throw new Error(`order ${order}, expected ${ORDER}`);

  // Erika called twice: both calls are on her row, each with its step.
  const alarms = await texts(page, `${row('Erika Muster')} .need-alarm p`);
  if (alarms.length !== 2 || !alarms.every((a) => a.startsWith('Hat um ') && a.includes('um Hilfe gerufen'))) {
    throw new Error(`Erika's alarms: ${alarms.join(' | ')}`);
  }
  if ((await page.$$(`${row('Erika Muster')} .need-alarm button`)).length !== 2) throw new Error('a step for each alarm');
  console.log(`ok two alarms of a day: ${alarms.join(' | ')}`);

  // Hans's alarm was looked after, then he left his check-in unanswered: that is still on his row.
  const missed = await texts(page, `${row('Hans Braun')} .need-checkin p`);
  if (missed.length !== 1 || !missed[0].startsWith('Hat sich bis ')) throw new Error(`Hans's check-in: ${missed}`);
  const hans = await page.textContent(row('Hans Braun'));
  if (!hans.includes('Schwester Anna kümmert sich')) throw new Error(`Hans's looked-after alarm: ${hans}`);
  console.log(`ok a missed check-in after an acknowledged alarm: ${missed[0]}`);

  // Erika's last day lists her calls for help and what came of them.
  await page.tap(`${row('Erika Muster')} summary`);
  await page.locator(`${row('Erika Muster')} ul.day li.alarm`).nth(1).waitFor({ timeout: 10000 });
  const day = await texts(page, `${row('Erika Muster')} ul.day li.alarm`);
  if (!day.every((d) => d.includes('Hilferuf: niemand zu benachrichtigen · noch kümmert sich niemand'))) throw new Error(`the day: ${day}`);
  console.log(`ok the last day lists the calls for help: ${day.join(' | ')}`);
  await page.screenshot({ path: `${SHOTS}/carer-board-768.png`, fullPage: true });

  // The gateway stops: every row says so within 10 s.
  const rows = (await page.$$('#residents > li')).length;
  const stopped = Date.now();
  await ask('stop the gateway', 'stopped');
  await page.waitForFunction((n) => document.querySelectorAll('#residents > li > .stale').length === n, rows, { timeout: 10000 });
  const shown = Date.now() - stopped;
  const stale = await page.textContent('#residents > li > .stale');
  if (!/^Keine Verbindung seit \d\d:\d\d – Angaben können veraltet sein$/.test(stale)) throw new Error(`the warning: ${stale}`);
  console.log(`ok a stopped gateway on all ${rows} rows ${shown} ms after it stopped: ${stale}`);
  await page.screenshot({ path: `${SHOTS}/carer-board-lost-768.png`, fullPage: true });

  // Back: the warning goes, the board is read again.
  const started = Date.now();
  await ask('start the gateway', 'started');
  await page.waitForFunction(() => !document.querySelector('#residents .stale') && window.__carer.live && !window.__carer.offline, null, { timeout: 15000 });
  console.log(`ok the gateway back: the rows cleared ${Date.now() - started} ms after it started`);

  // The network stops carrying anything, with no error the browser would see: the board's own check notices.
  const frozen = Date.now();
  await ask('freeze the network', 'frozen');
  await page.waitForFunction((n) => document.querySelectorAll('#residents > li > .stale').length === n, rows, { timeout: 10000 });
  console.log(`ok a network that stopped on all ${rows} rows ${Date.now() - frozen} ms after it stopped`);
  const thawed = Date.now();
  await ask('thaw the network', 'thawed');
  await page.waitForFunction(() => !document.querySelector('#residents .stale') && !window.__carer.offline, null, { timeout: 15000 });
  console.log(`ok the network back: the rows cleared ${Date.now() - thawed} ms after`);
} finally {
  await browser.close();
  // The test's answers stop here: stdin no longer holds the script open.
  lines.close();
  process.stdin.destroy();
}
