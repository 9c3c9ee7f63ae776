// The carers' board at scale (issue 65): 1,000 residents and 40 carers on PostgreSQL, two gateway instances
// (A and B). Seeds them through the admin API, then measures: the residents list's time and JSON size for a
// carer of 25 and for the desk that cares for all 1,000, the statements run and rows returned per list
// request, the board's first paint in Chromium (768 px) with 1,000 rows, and a live update's delay across
// instances (an alarm raised on A, the event on B's stream, then the row read again). A report, not a test.
// Environment: A, B (base URLs), KEY (admin key), DB (the database URL, read with psql), RESIDENTS, CARERS.
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';

const { A, B, KEY, DB } = process.env;
const RESIDENTS = Number(process.env.RESIDENTS || 1000);
const CARERS = Number(process.env.CARERS || 40);
const admin = { 'X-Admin-Key': KEY, 'Content-Type': 'application/json' };
const bearer = (token) => ({ Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' });

async function call(base, method, path, headers, body) {
  const r = await fetch(`${base}${path}`, { method, headers, body: body && JSON.stringify(body) });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return { text, json: text ? JSON.parse(text) : null };
}

// Runs `work` over `items`, `n` at a time.
async function pool(items, n, work) {
  let next = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

const user = async (name) => (await call(A, 'POST', '/api/admin/users', admin, { name, display_name: name })).json;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

// Seed: the carers, then the residents (each with a check-in, a reminder; every tenth called for help), each in
// the care of one of the 40 and of the desk (carer 0).
const started = Date.now();
const carers = [];
for (let i = 0; i < CARERS; i++) carers.push(await user(`carer-${String(i).padStart(2, '0')}`));
const residents = Array.from({ length: RESIDENTS }, (_, i) => i);
const made = [];
await pool(residents, 8, async (i) => {
  const r = await user(`resident-${String(i).padStart(4, '0')}`);
  made[i] = r;
  await call(A, 'PUT', `/api/admin/users/${r.id}/prefs`, admin, { timezone: 'Europe/Berlin', checkin_window: '08:00-10:00' });
  const due = new Date(Date.now() + (30 + i) * 60_000).toISOString();
  await call(A, 'POST', '/api/me/reminders', bearer(r.token), { text: 'die Tabletten', due_at: due });
  const mine = [carers[0].id, carers[1 + (i % (CARERS - 1))].id];
  await call(A, 'PUT', `/api/admin/users/${r.id}/carers`, admin, { carers: mine });
  if (i % 10 === 0) await call(A, 'POST', '/api/emergency', bearer(r.token));
});
console.log(`seeded ${CARERS} carers and ${RESIDENTS} residents in ${((Date.now() - started) / 1000).toFixed(1)} s`);

// PostgreSQL's own count of the statements run and the rows they returned (pg_stat_statements), from its reset.
const sql = (query) => execFileSync('psql', [DB, '-Atc', query]).toString().trim();
sql('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
const counted = () => sql('SELECT sum(calls), sum(rows) FROM pg_stat_statements').split('|').map(Number);

async function list(who, label) {
  const times = [];
  let bytes = 0;
  let rows = 0;
  for (let n = 0; n < 20; n++) {
    const t = performance.now();
    const { text, json } = await call(B, 'GET', '/api/carer/residents', bearer(who.token));
    times.push(performance.now() - t);
    bytes = text.length;
    rows = json.residents.length;
  }
  // Statements and rows per request: five requests (the instances' own background statements in that time
  // counted too: a few).
  sql('SELECT pg_stat_statements_reset()');
  for (let n = 0; n < 5; n++) await call(B, 'GET', '/api/carer/residents', bearer(who.token));
  const [run, returned] = counted();
  const statements = run / 5;
  const read = returned / 5;
  console.log(`${label} (${rows} residents): median ${median(times).toFixed(1)} ms, p95 ${p95(times).toFixed(1)} ms, `
    + `${(bytes / 1024).toFixed(1)} KiB, ~${statements.toFixed(0)} statements and ~${read.toFixed(0)} rows returned a request`);
}
await list(carers[1], 'a carer');
await list(carers[0], 'the desk of all');

// The board's first paint on a tablet, for the desk (1,000 rows).
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
try {
  const context = await browser.newContext({ viewport: { width: 768, height: 1024 }, locale: 'de-DE' });
  const page = await context.newPage();
  await page.goto(`${B}/carer?k=${carers[0].token}`);
  await page.waitForFunction(() => window.__carer && window.__carer.ready, null, { timeout: 60000 });
  const painted = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return { fcp: fcp ? fcp.startTime : null, ready: performance.now(), rows: document.querySelectorAll('#residents > li').length, dom: nav.domContentLoadedEventEnd };
  });
  // The board comes back from the link's sign-in; times are from that page's start.
  console.log(`first paint (1000 rows, 768 px): first contentful paint ${painted.fcp?.toFixed(0)} ms, `
    + `all ${painted.rows} rows drawn ${painted.ready.toFixed(0)} ms`);

  // Live across instances: an alarm raised on A, the board open on B; the event on B's stream, and the row on
  // top of the board in Chromium.
  await page.waitForFunction(() => window.__carer.live, null, { timeout: 10000 });
  const stream = await fetch(`${B}/api/carer/events`, { headers: bearer(carers[1].token) });
  const reader = stream.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  const nextChange = async () => {
    for (;;) {
      const end = buffered.indexOf('\n\n');
      if (end >= 0) {
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const data = event.split('\n').find((l) => l.startsWith('data: '));
        if (data) return JSON.parse(data.slice(6)).resident_id;
        continue;
      }
      const { value } = await reader.read();
      buffered += decoder.decode(value);
    }
  };
  const events = [];
  const shown = [];
  // Carer 1's residents who have not called for help yet (a second call within the cooldown raises nothing).
  const calling = residents.filter((i) => i % (CARERS - 1) === 0 && i % 10 !== 0).slice(0, 20);
  for (const i of calling) {
    const r = made[i];
    const t = performance.now();
    await call(A, 'POST', '/api/emergency', bearer(r.token));
    while ((await nextChange()) !== r.id) { /* another resident's change */ }
    events.push(performance.now() - t);
    await page.waitForFunction((name) => window.__carer.order.includes(`${name}:alarm`), r.name, { timeout: 10000 });
    shown.push(performance.now() - t);
  }
  console.log(`live, alarm raised on A: event on B's stream median ${median(events).toFixed(0)} ms (p95 ${p95(events).toFixed(0)}), `
    + `on B's board (1000 rows) median ${median(shown).toFixed(0)} ms (p95 ${p95(shown).toFixed(0)}), ${events.length} alarms`);
  reader.cancel();
} finally {
  await browser.close();
}
