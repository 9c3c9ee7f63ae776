// A web page's attack, played by Debian's Chromium: a page on another port of the gateway's machine (the same
// *site*, so the SameSite=Lax cookie goes along) and a page of another site (evil.example, mapped to
// 127.0.0.1) each fetch POST /api/me/checkin, PUT /api/me/prefs and POST /api/admin/gateway/restart with the
// visitor's credentials, then auto-submit a form to POST /api/emergency: visited once by Anna signed in, once
// by an admin signed in. Every request that reaches the gateway is refused (403 cross_origin) before any
// handler runs. Then Anna's own page and the admin's own panel, on the gateway's origin, do the same writes.
// Environment: BASE (http://127.0.0.1:port), LINK (Anna's personal link path), ADMIN_LINK (the admin's).
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';

const { BASE, LINK, ADMIN_LINK } = process.env;
const step = (name) => console.log(`ok ${name}`);

// The attacker's page: three writes with the visitor's cookie, then the form, which navigates to the answer.
const attack = `<!doctype html><html><body>
<form id="f" method="post" action="${BASE}/api/emergency"></form>
<script>
(async () => {
  const writes = [['POST', '/api/me/checkin', ''], ['PUT', '/api/me/prefs', '{"emergency_contacts":[]}'],
    ['POST', '/api/admin/gateway/restart', '']];
  for (const [method, path, body] of writes) {
    try { await fetch('${BASE}' + path, { method, body, credentials: 'include', mode: 'no-cors' }); } catch (e) {}
  }
  document.getElementById('f').submit();
})();
</script></body></html>`;
const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(attack);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address();
const attackers = [`http://127.0.0.1:${port}`, `http://evil.example:${port}`];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--host-resolver-rules=MAP evil.example 127.0.0.1'],
});

/** A browser signed in by `link`, its page loaded (`ready` says when). */
async function signedIn(link, ready) {
  const context = await browser.newContext({ locale: 'de-DE' });
  const page = await context.newPage();
  await page.goto(`${BASE}${link}`);
  await page.waitForFunction(ready, null, { timeout: 15000 });
  if (!(await context.cookies(BASE)).some((c) => c.name === 'va_token')) throw new Error('no sign-in cookie');
  return { context, page };
}

/** `who` visits the page at `from`: every request of it that reaches the gateway is refused, its answer read
 * where the browser lets the page have it (the form's), else kept from the page by the gateway's
 * Cross-Origin-Resource-Policy (the fetches'). */
async function visited(who, name, from) {
  const page = await who.context.newPage();
  const reached = [];
  const kept = [];
  const api = (r) => r.url().startsWith(`${BASE}/api/`) && r.method() !== 'OPTIONS';
  page.on('response', (r) => { if (api(r.request())) reached.push(r); });
  page.on('requestfailed', (r) => {
    if (api(r) && r.failure()?.errorText.startsWith('net::ERR_BLOCKED_BY_RESPONSE')) kept.push(`${r.method()} ${new URL(r.url()).pathname}`);
  });
  const form = page.waitForResponse((r) => r.url() === `${BASE}/api/emergency`, { timeout: 15000 });
  await page.goto(from);
  await form;
  const seen = [];
  for (const r of reached) {
    const body = await r.json().catch(() => ({}));
    if (r.status() !== 403 || body.error?.code !== 'cross_origin') {
      throw new Error(`${r.request().method()} ${r.url()} from ${from} got ${r.status()}: ${JSON.stringify(body)}`);
    }
    seen.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
  }
  // The form, the check-in and the restart reach the gateway; the cross-origin PUT dies at the browser.
  if (seen.length + kept.length < 3) throw new Error(`only ${[...seen, ...kept].join(', ')} reached the gateway from ${from}`);
  step(`${name} visiting ${from}: ${seen.join(', ')} answered 403 cross_origin; ${kept.join(', ')} answered, kept from the page`);
  await page.close();
}

/** What Anna's own page reads of her check-in and contacts. */
const herState = (anna) => anna.page.evaluate(async () => ({
  signed: (await (await fetch('/api/me/checkin')).json()).signed_at,
  contacts: (await (await fetch('/api/me/prefs')).json()).emergency_contacts,
}));

try {
  const anna = await signedIn(LINK, () => window.__vg && window.__vg.ready);
  const admin = await signedIn(ADMIN_LINK, () => window.__admin && window.__admin.ready);
  step(`Anna and the admin signed in on ${BASE}`);
  for (const from of attackers) {
    await visited(anna, 'Anna', from);
    await visited(admin, 'the admin', from);
  }
  const after = await herState(anna);
  if (after.signed !== null || after.contacts.length !== 1) throw new Error(`the attacks changed: ${JSON.stringify(after)}`);
  step(`her check-in is still open and her contact kept: ${JSON.stringify(after)}`);

  // Her own page and the admin's own panel, on the gateway's origin, still write with the same cookies.
  const own = await anna.page.evaluate(async () => {
    const checkin = (await fetch('/api/me/checkin', { method: 'POST' })).status;
    const prefs = (await fetch('/api/me/prefs', {
      method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ full_name: 'Anna Muster' }),
    })).status;
    return { checkin, prefs };
  });
  if (own.checkin !== 200 || own.prefs !== 200) throw new Error(`her own page: ${JSON.stringify(own)}`);
  step(`her own page's check-in and prefs answered ${own.checkin}, ${own.prefs}`);
  const restart = await admin.page.evaluate(async () => (await fetch('/api/admin/gateway/restart', { method: 'POST' })).status);
  if (restart !== 200) throw new Error(`the panel's restart answered ${restart}`);
  step(`the panel's restart answered ${restart}`);
} finally {
  await browser.close();
  server.close();
}
