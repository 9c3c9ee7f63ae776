// A phone on the home network, played by Debian's Chromium: the gateway's names are mapped to 127.0.0.1 in the
// browser (a browser decides a secure context by the name in the address, not by where it resolves), so
// http://<host>.local is an insecure context and https://<host>.local a secure one, exactly as on a phone,
// while every packet stays on loopback.
// Environment: HOST (<host>.local), HTTP and HTTPS (the TLS=auto gateway's ports), PLAIN (a TLS=off gateway's
// port), LINK (a personal link's path), TRUSTED_HOME (a HOME whose NSS store trusts the gateway's authority),
// MIC_WAV (the fake microphone's file), EXPECT_TRANSCRIPT, SHOTS.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { accessible } from './axe.mjs';
import { fitsTheScreen } from './screen.mjs';

const { HOST, HTTP, HTTPS, PLAIN, LINK, TRUSTED_HOME, MIC_WAV, EXPECT_TRANSCRIPT = '', SHOTS = 'target/ui-shots' } = process.env;
const step = (name) => console.log(`ok ${name}`);

function launch(home) {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', `--host-resolver-rules=MAP ${HOST} 127.0.0.1`,
      '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${MIC_WAV}`],
    // Chromium on Linux trusts the authorities of the NSS store under $HOME, as a phone trusts an installed one.
    env: { ...process.env, HOME: home },
  });
}

// A phone as Chromium's device emulation has it: a narrow screen, three device pixels to one, touch.
const phone = (width, height) => ({ viewport: { width, height }, deviceScaleFactor: 3, isMobile: true, hasTouch: true,
  permissions: ['microphone'], bypassCSP: true });

const trusted = await launch(TRUSTED_HOME);
const stranger = await launch(mkdtempSync(join(tmpdir(), 'stranger-')));
let page;
try {
  const context = await trusted.newContext(phone(412, 915));
  page = await context.newPage();
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));

  // The personal link as the admin sends it, opened over plain http: the gateway sends the phone to https.
  await page.goto(`http://${HOST}:${HTTP}${LINK}`);
  const url = new URL(page.url());
  if (url.protocol !== 'https:' || url.port !== HTTPS) throw new Error(`stayed at ${page.url()}`);
  await page.waitForFunction(() => window.__vg && window.__vg.ready, null, { timeout: 15000 });
  if (!(await page.evaluate(() => window.isSecureContext && !!navigator.mediaDevices))) throw new Error('no secure context over https');
  step(`http redirected to ${url.origin}: a secure context with the microphone, signed in by the link`);
  await accessible(page, 'assistant page over https');
  const fit = await fitsTheScreen(page, 'at 412x915');
  step(`at ${fit.width}x${fit.height}: Speak (${fit.speak} px), Send and Help on the screen, nothing wider than it`);

  await page.tap('#mic');
  await page.waitForSelector('.turn.user', { timeout: 30000 });
  const heard = await page.locator('.turn.user').first().textContent();
  if (!heard.toLowerCase().includes(EXPECT_TRANSCRIPT.toLowerCase())) throw new Error(`transcript ${heard}`);
  await page.waitForFunction(() => window.__vg.events.includes('done'), null, { timeout: 30000 });
  const answer = await page.locator('.turn.assistant').first().textContent();
  step(`spoken over https: "${heard}" answered "${answer}"`);
  await page.tap('#mic');
  await fitsTheScreen(page, 'at 412x915 with a conversation');
  await accessible(page, 'assistant page with a conversation at 412x915');
  await page.screenshot({ path: `${SHOTS}/phone-https.png` });

  // The smallest common phone, set to German, with large text: still all on the screen, still accessible.
  const small = await (await trusted.newContext({ ...phone(360, 740), locale: 'de-DE' })).newPage();
  await small.goto(`https://${HOST}:${HTTPS}${LINK}`);
  await small.waitForFunction(() => window.__vg && window.__vg.ready, null, { timeout: 15000 });
  // Nobody is set up to be alerted yet: the German page says so under the help button, in German, with 112,
  // and the button stands above the line, not over it.
  await small.waitForSelector('#help-note:not([hidden])', { timeout: 10000 });
  const note = await small.textContent('#help-note');
  if (!note.startsWith('Hilfe erreicht noch niemanden') || !note.includes('112')) throw new Error(`help note: ${note}`);
  const clear = await small.evaluate(() => {
    const [help, line] = ['#help', '#help-note'].map((s) => document.querySelector(s).getBoundingClientRect());
    return help.bottom <= line.top + 1 && line.bottom <= window.innerHeight;
  });
  if (!clear) throw new Error('the help button covers the line under it, or the line is off the screen');
  if ((await small.textContent('#help')).trim() !== 'Hilfe') throw new Error('the page is not German');
  await fitsTheScreen(small, 'at 360x740');
  step(`a German phone at 360x740 reads under the help button: "${note}"`);

  // The daily check-in: a window that ends within two minutes, in a zone where it is 11 o'clock (whole hours
  // from UTC), opening after the person's last sign of life. At its end the page asks, large and in German;
  // "Mir geht es gut" answers it.
  const planned = await small.evaluate(async () => {
    const now = new Date();
    const ahead = 11 - now.getUTCHours();
    const zone = ahead === 0 ? 'Etc/GMT' : ahead > 0 ? `Etc/GMT-${ahead}` : `Etc/GMT+${-ahead}`;
    const before = await (await fetch('/api/me/checkin')).json();
    const minute = now.getUTCMinutes() + (before.signed_at && Date.now() - Date.parse(before.signed_at) < 61000 ? 1 : 0);
    const at = (m) => `${String(11 + Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    const r = await fetch('/api/me/prefs', { method: 'PUT', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ timezone: zone, checkin_window: `${at(minute)}-${at(minute + 1)}` }) });
    return { status: r.status, checkin: await (await fetch('/api/me/checkin')).json() };
  });
  if (planned.status !== 200 || planned.checkin.state !== 'waiting') throw new Error(`check-in: ${JSON.stringify(planned)}`);
  await small.waitForSelector('#checkin-card:not([hidden])', { timeout: 130000 });
  const asked = await small.evaluate(() => {
    const r = document.querySelector('#checkin-card').getBoundingClientRect();
    return { text: document.querySelector('#checkin-text').textContent, fine: document.querySelector('#checkin-fine').textContent,
      help: document.querySelector('#checkin-help').textContent,
      inside: r.left >= 0 && r.top >= 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight };
  });
  if (asked.text !== 'Ist bei Ihnen alles in Ordnung?' || asked.fine !== 'Mir geht es gut'
    || asked.help !== 'Ich brauche Hilfe' || !asked.inside) throw new Error(`check-in card: ${JSON.stringify(asked)}`);
  await accessible(small, 'the check-in asking at 360x740');
  await small.screenshot({ path: `${SHOTS}/phone-checkin.png` });
  await small.tap('#checkin-fine');
  await small.waitForSelector('#checkin-card', { state: 'hidden' });
  const answered = await small.evaluate(async () => {
    const c = await (await fetch('/api/me/checkin')).json();
    await fetch('/api/me/prefs', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '{"checkin_window": ""}' });
    return c;
  });
  if (!answered.signed_at || Date.parse(answered.signed_at) < Date.parse(answered.opens_at)) {
    throw new Error(`"Mir geht es gut" was no sign of life: ${JSON.stringify(answered)}`);
  }
  step(`the German phone's check-in asks "${asked.text}" on the screen, and "Mir geht es gut" answers it`);

  // A reminder due in two seconds reaches the open page: large, on the screen, in German; "Erledigt" confirms it.
  const set = await small.evaluate(async () => {
    const due = new Date(Date.now() + 2000).toISOString().replace(/\.\d+Z$/, 'Z');
    const r = await fetch('/api/me/reminders', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'Tabletten nehmen', due_at: due }) });
    return { status: r.status, body: await r.json() };
  });
  if (set.status !== 201) throw new Error(`reminder not set: ${JSON.stringify(set)}`);
  await small.waitForSelector('#reminder-card:not([hidden])', { timeout: 15000 });
  const card = await small.evaluate(() => {
    const r = document.querySelector('#reminder-card').getBoundingClientRect();
    const h = document.querySelector('#help').getBoundingClientRect();
    return { text: document.querySelector('#reminder-text').textContent, button: document.querySelector('#reminder-done').textContent,
      inside: r.left >= 0 && r.top >= 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight,
      helpFree: h.top >= r.bottom || h.bottom <= r.top };
  });
  if (card.text !== 'Tabletten nehmen' || card.button !== 'Erledigt' || !card.inside || !card.helpFree) {
    throw new Error(`reminder card: ${JSON.stringify(card)}`);
  }
  await accessible(small, 'a due reminder at 360x740');
  await small.screenshot({ path: `${SHOTS}/phone-reminder.png` });
  await small.tap('#reminder-done');
  await small.waitForSelector('#reminder-card', { state: 'hidden' });
  // The card goes at the tap; the confirmation is on its way then: the state read until it is confirmed.
  const stateOf = (id) => small.evaluate(async (i) => (await (await fetch('/api/me/reminders')).json()).reminders.find((r) => r.id === i)?.state, id);
  let state = await stateOf(set.body.id);
  for (const started = Date.now(); state !== 'confirmed' && Date.now() - started < 10000;) state = await stateOf(set.body.id);
  if (state !== 'confirmed') throw new Error(`the reminder is ${state} after Erledigt`);
  step('a reminder due on the German phone shows large on the screen, the help button free, and "Erledigt" confirms it');
  // The settings are folded on a phone: the conversation has the screen.
  if (await small.isVisible('#large-text')) throw new Error('the settings take the screen at 360x740');
  await small.tap('#settings summary');
  await small.tap('#large-text');
  await small.waitForFunction(() => document.documentElement.classList.contains('large'));
  await fitsTheScreen(small, 'at 360x740 with large text, the settings open');
  await small.tap('#settings summary');
  // The conversation of the larger phone, picked from the menu.
  await small.selectOption('#sessions', { index: 1 });
  await small.waitForSelector('.turn.user');
  await fitsTheScreen(small, 'at 360x740 with large text');
  await accessible(small, 'assistant page at 360x740 with large text');
  await small.screenshot({ path: `${SHOTS}/phone-large-text.png` });
  await small.tap('#settings summary');
  await small.tap('#large-text');
  await small.waitForFunction(async () => (await (await fetch('/api/me')).json()).prefs.large_text === false, null, { timeout: 10000 });
  step('at 360x740, also with large text: Speak, Send and Help on the screen, nothing cut off, accessible');

  // The page that explains how to trust the authority.
  await page.goto(`https://${HOST}:${HTTPS}/ca`);
  if (!(await page.textContent('#fingerprint')).includes(':')) throw new Error('no fingerprint on /ca');
  step(`the /ca page passes ${await accessible(page, '/ca page')} WCAG 2.2 AA checks`);

  // A device that does not trust the authority is refused.
  const strange = await (await stranger.newContext()).newPage();
  const refused = await strange.goto(`https://${HOST}:${HTTPS}/`).then(() => null, (e) => e.message);
  if (!refused || !refused.includes('ERR_CERT_AUTHORITY_INVALID')) throw new Error(`untrusted certificate: ${refused}`);
  step('a device without the authority is refused (ERR_CERT_AUTHORITY_INVALID)');

  // A gateway without HTTPS: the page says at once why the microphone cannot work and which setting helps.
  await page.goto(`http://${HOST}:${PLAIN}/`);
  await page.waitForFunction(() => window.__vg && window.__vg.ready, null, { timeout: 15000 });
  if (await page.evaluate(() => window.isSecureContext)) throw new Error('http under a name is a secure context?');
  const said = await page.textContent('#status');
  if (!said.includes('TLS=auto')) throw new Error(`insecure context explained as: ${said}`);
  await accessible(page, 'assistant page in an insecure context');
  step(`over http without TLS the page says: ${said}`);
  await page.screenshot({ path: `${SHOTS}/phone-http.png`, fullPage: true });
} catch (e) {
  console.log(`FAILED ${e.message}`);
  if (page) await page.screenshot({ path: `${SHOTS}/phone-failure.png`, fullPage: true }).catch(() => {});
  await trusted.close();
  await stranger.close();
  process.exit(1);
}
await trusted.close();
await stranger.close();
