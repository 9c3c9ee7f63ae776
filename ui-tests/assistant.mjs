// Drives Debian's Chromium (headless, fake microphone) through the assistant page of a running gateway.
// Environment: BASE (http://127.0.0.1:port), LINK (personal link path), MIC_WAV (file for the fake microphone),
// SHOTS (folder for screenshots), EXPECT_TRANSCRIPT (a word the spoken question must yield).
// Prints one line per passed step; exits 1 with the reason on the first failure.
import { chromium } from 'playwright-core';
import { accessible } from './axe.mjs';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { BASE, LINK, MIC_WAV, SHOTS = 'target/ui-shots', EXPECT_TRANSCRIPT = '' } = process.env;
mkdirSync(SHOTS, { recursive: true });

// A profile of its own on disk, as a person's browser has (an incognito context cannot install an app).
const browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'assistant-')), {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  permissions: ['microphone', 'geolocation'],
  bypassCSP: true,
  geolocation: { latitude: 53.55, longitude: 9.99, accuracy: 25 },
  args: [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', '--autoplay-policy=no-user-gesture-required',
    '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream',
    `--use-file-for-fake-audio-capture=${MIC_WAV}`,
  ],
});
const step = (name) => console.log(`ok ${name}`);
let page;
try {
  const context = browser;
  page = await context.newPage();
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));

  // Without the link the gate explains how to get in; it too passes the accessibility checks.
  const gate = await page.goto(`${BASE}/`);
  if (gate.status() !== 401 || !(await page.textContent('main')).includes('personal access')) throw new Error('no gate page');
  step(`gate page passes ${await accessible(page, 'gate page')} WCAG 2.2 AA checks`);
  await page.goto(`${BASE}${LINK}`);
  if (new URL(page.url()).searchParams.has('k')) throw new Error('the token stayed in the address bar');
  await page.waitForFunction(() => window.__vg && window.__vg.ready, null, { timeout: 15000 });
  const version = await page.textContent('#version');
  step(`personal link: logged in, version ${version}`);
  // An installable app: Chromium finds nothing missing in the manifest, icons and service worker.
  await page.evaluate(() => navigator.serviceWorker.ready);
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  if (installabilityErrors.length) throw new Error(`not installable: ${JSON.stringify(installabilityErrors)}`);
  step('installable: manifest, icons and service worker accepted by Chromium');
  step(`accessible: the assistant page passes ${await accessible(page, 'assistant page')} WCAG 2.2 AA checks`);

  // With the keyboard alone: the first tab stop is the help button, large enough for a shaky hand, and the
  // focus is visible.
  await page.keyboard.press('Tab');
  const first = await page.evaluate(() => {
    const el = document.activeElement;
    const box = el.getBoundingClientRect();
    return { id: el.id, width: box.width, height: box.height, outline: getComputedStyle(el).outlineStyle };
  });
  if (first.id !== 'help') throw new Error(`the first tab stop is ${first.id}, not the help button`);
  if (first.width < 44 || first.height < 44) throw new Error(`the help button is ${first.width}x${first.height}`);
  if (first.outline === 'none') throw new Error('no visible focus on the help button');
  await page.keyboard.press('Shift+Tab');
  step(`keyboard: the help button is the first tab stop, ${first.width}x${first.height} px, focus outlined`);

  // Dark surroundings and the large-text preference keep every contrast; the preference is stored.
  await page.emulateMedia({ colorScheme: 'dark' });
  await accessible(page, 'assistant page, dark');
  await page.check('#large-text');
  await page.waitForFunction(async () => (await (await fetch('/api/me')).json()).prefs.large_text === true, null, { timeout: 10000 });
  await accessible(page, 'assistant page, large text, dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await accessible(page, 'assistant page, large text');
  await page.screenshot({ path: `${SHOTS}/large-text.png`, fullPage: true });
  // Text at 200 %: nothing is cut off or pushed sideways out of the window.
  const zoomed = await page.evaluate(() => {
    document.documentElement.style.fontSize = '40px';
    const fits = (sel) => { const r = document.querySelector(sel).getBoundingClientRect(); return r.right <= window.innerWidth + 1 && r.width > 0; };
    const result = { scroll: document.documentElement.scrollWidth - window.innerWidth, mic: fits('#mic'), help: fits('#help'), send: fits('#send') };
    document.documentElement.style.fontSize = '';
    return result;
  });
  if (zoomed.scroll > 1 || !zoomed.mic || !zoomed.help || !zoomed.send) throw new Error(`text at 200 %: ${JSON.stringify(zoomed)}`);
  await page.uncheck('#large-text');
  step('dark, large text and text at 200 % pass; the large-text choice is kept in the prefs');
  // The person chooses how long the assistant waits through their pauses; it is kept in their prefs.
  await page.selectOption('#patience', 'patient');
  await page.waitForFunction(async () => (await (await fetch('/api/me')).json()).prefs.turn_patience === 'patient', null, { timeout: 10000 });
  await page.selectOption('#patience', 'auto');
  await page.waitForFunction(async () => (await (await fetch('/api/me')).json()).prefs.turn_patience === 'auto', null, { timeout: 10000 });
  step('"When I pause": the person\'s patience is kept in the prefs');
  // The page's words come from the phrasebook's files, read by Fluent in the browser: every label is a word, not
  // an id, and the German file the gateway serves has every message of the English one.
  const words = await page.evaluate(async () => {
    const ids = async (lang) => {
      const text = await (await fetch(`/ui/locales/${lang}/page.ftl`)).text();
      return new FluentBundle.FluentResource(text).body.map((m) => m.id);
    };
    const [en, de] = await Promise.all([ids('en'), ids('de')]);
    const raw = [...document.querySelectorAll('[data-t]')].filter((el) => el.textContent.startsWith('page-')).map((el) => el.dataset.t);
    return { en: en.length, missing: en.filter((id) => !de.includes(id)), raw };
  });
  if (words.en < 60 || words.missing.length || words.raw.length) throw new Error(`the page's words: ${JSON.stringify(words)}`);
  step("the page's words from the phrasebook, German with every message of English");
  // A failed turn's status line speaks the person's language for what a person meets; only the rest shows the
  // gateway's (English) detail, after the page's own line. Each error event goes through the page's own handler.
  const failed = await page.evaluate(() => {
    const shown = [
      { status: 422, code: 'utterance_too_long', message: 'utterance longer than 60 s was dropped' },
      { status: 422, code: 'empty_audio', message: 'no audio was received before end' },
      { status: 503, code: 'overloaded', message: 'too many voice connections are open' },
      { status: 422, code: 'invalid_request', message: 'sample_rate: expected 8000 to 48000' },
    ].map((error) => {
      onEvent(null, JSON.stringify({ type: 'error', ...error }));
      return document.querySelector('#status').textContent;
    });
    onEvent(null, JSON.stringify({ type: 'done' }));
    return shown;
  });
  const expected = [
    'That was too long to take in at once. Please say it again in shorter sentences.',
    'Nothing was heard. Please say it again.',
    'The assistant is busy. Please try again in a moment.',
    'Something went wrong: sample_rate: expected 8000 to 48000',
  ];
  if (JSON.stringify(failed) !== JSON.stringify(expected)) throw new Error(`a failed turn's words: ${JSON.stringify(failed)}`);
  step("a failed turn's words from the phrasebook");
  if (await page.isVisible('#language-label')) throw new Error('language menu shown although one language is allowed');
  step('language menu hidden for one allowed language');

  // On a phone's screen, where the question bar covers a good part of it.
  const desk = page.viewportSize();
  await page.setViewportSize({ width: 412, height: 915 });
  await page.fill('#question', 'What is the weather in Berlin today?');
  await page.click('#send');
  await page.waitForFunction(() => window.__vg.tokens > 0, null, { timeout: 15000 });
  step('tokens streamed');
  await page.waitForSelector('.citations a', { timeout: 15000 });
  step(`citation shown: ${await page.getAttribute('.citations a', 'href')}`);
  await page.waitForFunction(() => window.__vg.played > 0, null, { timeout: 20000 });
  const formats = await page.evaluate(() => [...new Set(window.__vg.formats)]);
  if (formats.join() !== 'opus') throw new Error(`answer audio came as ${formats}, not Opus`);
  step('audio playback started: Ogg Opus answers decoded and playing');
  await page.screenshot({ path: `${SHOTS}/assistant.png`, fullPage: true });

  // The person types over the answer once its first sentence was heard: the page tells the gateway what was
  // heard (the test checks the next turn's history), and the typed question is answered.
  await page.waitForFunction(() => window.__vg.playedSeq() === 0 && window.__vg.busy(), null, { timeout: 20000 });
  // As each piece ends the page says it was played (speaking now interrupts the answer, never goes on with the
  // question), and the gateway takes it without an error.
  await page.waitForFunction(() => window.__vg.playedSent > 0, null, { timeout: 5000 });
  const count = (kind) => page.evaluate((k) => window.__vg.events.filter((e) => e === k).length, kind);
  const [dones, errors] = [await count('done'), await count('error')];
  // With the keyboard alone: Tab from the top of the page to the question, type, Enter.
  await page.evaluate(() => document.activeElement?.blur());
  let tabs = 0;
  while (tabs < 15 && (await page.evaluate(() => document.activeElement?.id)) !== 'question') {
    await page.keyboard.press('Tab');
    tabs += 1;
  }
  if (tabs >= 15) throw new Error('the question field cannot be reached with Tab');
  await page.keyboard.type('What else?');
  await page.keyboard.press('Enter');
  if (await page.evaluate(() => window.__vg.heard) < 1) throw new Error('no heard frame sent when typing over the answer');
  await page.waitForFunction((n) => window.__vg.events.filter((e) => e === 'done').length > n, dones, { timeout: 20000 });
  if ((await count('error')) !== errors) throw new Error(`an error event after the played frame: ${await page.evaluate(() => window.__vg.events)}`);
  step(`typed over the answer by keyboard alone (${tabs} tab stops, Enter): played and heard frames sent, the new question answered`);
  // The end of the conversation (the new answer and what is told under it) is above the question bar, not under it.
  const [end, bar] = await page.evaluate(() => [
    document.querySelector('#conversation').lastElementChild.getBoundingClientRect().bottom,
    document.querySelector('#ask').getBoundingClientRect().top,
  ]);
  if (end > bar + 1) throw new Error(`the last answer ends at ${end} px, under the question bar at ${bar} px`);
  step(`on a phone's screen the last answer ends above the question bar (${Math.round(end)} ≤ ${Math.round(bar)} px)`);
  await page.setViewportSize(desk);
  await accessible(page, 'assistant page with a conversation');

  const before = await page.locator('.turn.user').count();
  const donesBefore = await page.evaluate(() => window.__vg.events.filter((e) => e === 'done').length);
  await page.click('#mic');
  await page.waitForFunction((n) => document.querySelectorAll('.turn.user').length > n, before, { timeout: 30000 });
  const heard = await page.locator('.turn.user').nth(before).textContent();
  if (!heard.toLowerCase().includes(EXPECT_TRANSCRIPT.toLowerCase())) throw new Error(`transcript ${heard}`);
  const micFormat = await page.evaluate(() => window.__vg.micFormat);
  if (micFormat !== 'opus') throw new Error(`the microphone was sent as ${micFormat}, not Opus`);
  step(`spoken question sent as Opus and transcribed: ${heard}`);
  await page.waitForFunction((n) => window.__vg.events.filter((e) => e === 'done').length > n, donesBefore, { timeout: 30000 });
  step('spoken question answered');
  await page.click('#mic');

  await page.click('#help');
  await accessible(page, 'help dialog');
  await page.click('#help-yes');
  await page.waitForFunction(() => document.querySelector('#help-result').dataset.status, null, { timeout: 20000 });
  const outcome = await page.getAttribute('#help-result', 'data-status');
  if (outcome !== 'alerted') throw new Error(`help outcome ${outcome}: ${await page.textContent('#help-result')}`);
  step(`help: ${await page.textContent('#help-result')}`);
  await page.waitForFunction(() => document.querySelector('#help-result').dataset.acknowledged === 'true', null, { timeout: 20000 });
  const seen = await page.textContent('#help-result');
  if (!seen.includes('Seen and confirmed by enkel@family.example')) throw new Error(`acknowledgement shown as ${seen}`);
  step(`help confirmed: ${seen}`);
  await page.screenshot({ path: `${SHOTS}/help.png`, fullPage: true });

  // After all that traffic, the service worker's caches hold the shell and nothing of the API or a token.
  const cached = await page.evaluate(async () => {
    const urls = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    }
    return urls;
  });
  if (!cached.some((u) => u.includes('/ui/offline.html'))) throw new Error(`no shell cached: ${cached}`);
  const leaked = cached.filter((u) => u.includes('/api/') || u.includes('k=') || new URL(u).pathname === '/');
  if (leaked.length) throw new Error(`cached beyond the shell: ${leaked}`);
  step(`service worker caches the shell only (${cached.length} files)`);
  // The gateway out of reach: the installed app shows its offline page, not the browser's error.
  await context.setOffline(true);
  await page.goto(`${BASE}/`).catch(() => {});
  const offline = await page.textContent('h1').catch(() => '');
  await context.setOffline(false);
  if (!offline.includes('The assistant cannot be reached')) throw new Error(`offline page shows: ${offline}`);
  await accessible(page, 'offline page');
  step(`offline: "${offline}"`);
} catch (e) {
  console.log(`FAILED ${e.message}`);
  if (page) await page.screenshot({ path: `${SHOTS}/failure.png`, fullPage: true }).catch(() => {});
  await browser.close();
  process.exit(1);
}
await browser.close();
