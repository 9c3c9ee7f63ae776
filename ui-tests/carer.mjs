// The carers' board in headless Chromium, on a tablet (768 px), two phones (360, 412 px) and a desktop, in German: the residents in
// the order of what needs the carer first, an alarm acknowledged with one tap, the page within the screen and
// axe's WCAG 2.2 AA rules passed; another resident's call for help appears on top without a reload. Environment:
// BASE, LINK (the carer's personal link to /carer), ORDER and AFTER (the expected `name:state` lists before and
// after the tap), RAISE (a resident's token: they call for help while the board is open), LIVE (the list then), SHOTS.
import { chromium } from 'playwright-core';
import { accessible } from './axe.mjs';
import { mkdirSync } from 'node:fs';

const { BASE, LINK, ORDER, AFTER, RAISE, LIVE, SHOTS = 'target/ui-shots' } = process.env;
mkdirSync(SHOTS, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run'],
});
const order = (page) => page.evaluate(() => window.__carer.order.join(','));
const fits = async (page, what) => {
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  const width = page.viewportSize().width;
  if (wide > width) throw new Error(`${what}: the board is ${wide} px wide on a ${width} px screen`);
  const small = await page.evaluate(() => [...document.querySelectorAll('button, a.call')]
    .filter((b) => b.checkVisibility() && b.getBoundingClientRect().height < 44).map((b) => b.textContent));
  if (small.length) throw new Error(`${what}: buttons smaller than a finger: ${small.join(', ')}`);
};
try {
  const context = await browser.newContext({ bypassCSP: true, viewport: { width: 768, height: 1024 }, deviceScaleFactor: 2,
    locale: 'de-DE', timezoneId: 'Europe/Berlin', hasTouch: true });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  await page.goto(`${BASE}${LINK}`);
  await page.waitForFunction(() => window.__carer && window.__carer.ready, null, { timeout: 15000 });
  if ((await order(page)) !== ORDER) throw new Error(`order ${await order(page)}, expected ${ORDER}`);
  const title = await page.textContent('h1');
  if (title !== 'Betreuung') throw new Error(`the board in German: ${title}`);
  const first = await page.textContent('#residents li:first-child p');
  if (!first.startsWith('Hat um ') || !first.includes('um Hilfe gerufen')) throw new Error(`the alarm row: ${first}`);
  console.log(`ok the tablet's board: ${await order(page)}; ${first}`);
  // A resident's last day, opened with one tap: Otto's was quiet.
  await page.tap('#residents li[data-id] >> nth=2 >> summary');
  await page.waitForFunction(() => document.querySelector('#residents li:nth-child(3) ul.day li')?.textContent === 'Nichts am letzten Tag.', null, { timeout: 10000 });
  console.log('ok the last day of a resident opened with one tap');
  // Otto moves to Lisbon: set in his day's check-in part; his row's times are then on Lisbon's clock.
  const plan = '#residents li:nth-child(3) form.plan';
  await page.fill(`${plan} [data-field="time_zone"]`, 'Europe/Lisbon');
  await page.tap(`${plan} button`);
  await page.waitForFunction(() => document.querySelector('#board-status').textContent.startsWith('Die Nachfrage für '), null, { timeout: 10000 });
  console.log(`ok a resident's time zone set on the board: ${await page.textContent('#board-status')}`);
  const call = await page.getAttribute('#residents li:first-child a.call', 'href');
  if (call !== 'tel:**611') throw new Error(`the call's link: ${call}`);
  await fits(page, 'tablet');
  console.log(`ok accessible: the board passes ${await accessible(page, 'the board on a tablet')} WCAG 2.2 AA checks`);
  await page.screenshot({ path: `${SHOTS}/carer-768.png`, fullPage: true });
  await page.tap('#residents li:first-child button');
  await page.waitForFunction((after) => window.__carer.order.join(',') === after, AFTER, { timeout: 10000 });
  const told = await page.textContent('#board-status');
  if (!told.startsWith('Sie kümmern sich um den Hilferuf von ')) throw new Error(`after the tap: ${told}`);
  const looked = await page.textContent('#residents li:first-child p');
  if (!looked.endsWith('schwester-anna kümmert sich')) throw new Error(`the looked-after alarm: ${looked}`);
  console.log(`ok acknowledged with one tap: ${told}; now ${await order(page)}; ${looked}`);
  // Live: Otto calls for help while the board is open; his row comes to the top with no reload.
  await page.waitForFunction(() => window.__carer.live, null, { timeout: 10000 });
  await page.evaluate(() => { window.__notReloaded = true; });
  const raised = Date.now();
  const help = await fetch(`${BASE}/api/emergency`, { method: 'POST', headers: { Authorization: `Bearer ${RAISE}` } });
  if (!help.ok) throw new Error(`the call for help: ${help.status}`);
  await page.waitForFunction((live) => window.__carer.order.join(',') === live, LIVE, { timeout: 10000 });
  if (!(await page.evaluate(() => window.__notReloaded))) throw new Error('the board was reloaded');
  console.log(`ok live: ${await order(page)} ${Date.now() - raised} ms after the call for help`);
  // The same board on two phones and a desktop.
  for (const [width, height] of [[360, 740], [412, 915], [1280, 800]]) {
    await page.setViewportSize({ width, height });
    await fits(page, `${width} px`);
    console.log(`ok accessible at ${width}x${height}: ${await accessible(page, `the board at ${width} px`)} checks`);
    await page.screenshot({ path: `${SHOTS}/carer-${width}.png`, fullPage: true });
  }
} finally {
  await browser.close();
}
