// A web page's attack, played by Debian's Chromium: a page on another port of the gateway's machine (the same
// *site*, so the SameSite=Lax cookie goes along) auto-submits a form to POST /api/emergency and fetches
// POST /api/me/checkin and PUT /api/me/prefs with the person's credentials, while she is signed in. The gateway
// refuses each before any handler runs; her own page, on the gateway's origin, still writes.
// Environment: BASE (http://127.0.0.1:port), LINK (her personal link path).
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';

const { BASE, LINK } = process.env;
const step = (name) => console.log(`ok ${name}`);

// The attacker's page: three writes with her cookie, then the form, which navigates to the gateway's answer.
const attack = `<!doctype html><html><body>
<form id="f" method="post" action="${BASE}/api/emergency"></form>
<script>
(async () => {
  const tried = [];
  for (const [method, path, body] of [['POST', '/api/me/checkin', ''], ['PUT', '/api/me/prefs', '{"emergency_contacts":[]}']]) {
    try {
      await fetch('${BASE}' + path, { method, body, credentials: 'include', mode: 'no-cors' });
      tried.push(method + ' ' + path + ': sent');
    } catch (e) { tried.push(method + ' ' + path + ': ' + e.message); }
  }
  document.title = tried.join('; ');
  document.getElementById('f').submit();
})();
</script></body></html>`;
const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(attack);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const evil = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const context = await browser.newContext({ locale: 'de-DE' });
  const page = await context.newPage();
  // Signed in by her link: the cookie is set on the gateway's origin.
  await page.goto(`${BASE}${LINK}`);
  await page.waitForFunction(() => window.__vg && window.__vg.ready, null, { timeout: 15000 });
  const cookies = await context.cookies(BASE);
  if (!cookies.some((c) => c.name === 'va_token')) throw new Error('no sign-in cookie');
  step(`signed in on ${BASE}`);

  // She visits the other page on the same machine: its form lands on the gateway's refusal.
  const attacker = await context.newPage();
  const answered = attacker.waitForResponse((r) => r.url() === `${BASE}/api/emergency`, { timeout: 15000 });
  await attacker.goto(evil);
  const response = await answered;
  const body = await response.json();
  if (response.status() !== 403 || body.error?.code !== 'cross_origin') {
    throw new Error(`the attacker's form got ${response.status()}: ${JSON.stringify(body)}`);
  }
  step(`the form from ${evil} got ${response.status()} ${body.error.code}`);

  // Her own page, on the gateway's origin, still writes with the same cookie.
  const own = await page.evaluate(async () => (await fetch('/api/me/checkin', { method: 'POST' })).status);
  if (own !== 200 && own !== 204) throw new Error(`her own page's check-in answered ${own}`);
  step(`her own page's check-in answered ${own}`);
} finally {
  await browser.close();
  server.close();
}
