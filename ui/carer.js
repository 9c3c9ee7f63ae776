// The care board: a carer's residents, what needs them first on top, each with its time in the resident's own
// zone and everything that needs the carer with its next step (every open alarm, the check-in asking or left
// unanswered, every open notice, each acknowledged with one tap; what was looked after stays for the day, with
// who, carers by display name). Live: the server tells of each change (`/api/carer/events`) and the resident's
// row is read again. When the board loses its stream or the gateway, every row says since when (within 10 s:
// the stream's error at once, else the health check every few seconds) until both are back.
'use strict';

const words = Words('carer');
// The care log's words and the errors' are the admin panel's (one message for each, in both places).
const logWords = Words('admin');
// The words every page shares (the lost connection), in every language the gateway speaks.
const pageWords = Words('page');
const t = (id, args) => words.t(id, args);
const $ = (sel) => document.querySelector(sel);
// What needs the carer first.
const RANK = { alarm: 0, checkin: 1, notice: 2, looked: 3, missed: 4, soon: 5, well: 6 };
const SOON_MS = 60 * 60 * 1000;
const EVERY_MS = 60 * 1000;
// How often the board asks whether the gateway is there, and how long it waits for the answer.
const CHECK_MS = 3 * 1000;
const CHECK_TIMEOUT_MS = 4 * 1000;

async function api(path, options = {}) {
  const response = await fetch(path, { credentials: 'same-origin', ...options });
  const body = response.status === 204 ? null : await response.json();
  if (!response.ok) throw apiError(response, body);
  return body;
}

// A resident's alarms: every one of the last day and every older one nobody looked after, oldest first.
const alarmsOf = (r) => r.alarms || (r.alarm ? [r.alarm] : []);
const who = (a) => (a.looked_after_names || a.looked_after_by.map((by) => by.replace(/^carer:/, ''))).join(', ');
const nameOf = (r) => r.display_name || r.name;

// Everything on a resident's row that needs the carer, the most urgent first, each with the step that looks
// after it: every open alarm, the check-in asking now or a day left unanswered, every open notice.
function needs(r) {
  const zone = r.checkin.time_zone;
  const open = alarmsOf(r).filter((a) => !a.looked_after_by.length)
    .map((a) => ({ kind: 'alarm', text: t('carer-alarm', { time: time(a.raised_at, zone) }), ack: `alarms/${a.id}` }));
  if (r.checkin.state === 'calling') open.push({ kind: 'checkin', text: t('carer-checkin', { time: time(r.checkin.due_at, zone) }) });
  const missed = r.missed_checkin;
  if (missed && !missed.looked_after_by) {
    open.push({ kind: 'checkin', text: t('carer-checkin-missed', { time: time(missed.due_at, zone) }), ack: 'checkin' });
  }
  for (const n of r.notices || (r.notice ? [r.notice] : [])) {
    open.push({ kind: 'notice', text: t('carer-notice', { time: time(n.sent_at, zone), about: n.about }), ack: `notices/${n.id}` });
  }
  return open;
}

// What was looked after in the last day, with who.
function lookedAfter(r) {
  const zone = r.checkin.time_zone;
  const said = alarmsOf(r).filter((a) => a.looked_after_by.length)
    .map((a) => t('carer-looked', { time: time(a.raised_at, zone), who: who(a) }));
  const missed = r.missed_checkin;
  if (missed?.looked_after_by) said.push(t('carer-checkin-looked', { time: time(missed.due_at, zone), who: missed.looked_after_name }));
  return said;
}

function attention(r) {
  const open = needs(r);
  if (open.length) return open[0].kind;
  if (lookedAfter(r).length) return 'looked';
  if (r.reminders_missed > 0) return 'missed';
  if (r.next_reminder_at && Date.parse(r.next_reminder_at) - Date.now() < SOON_MS) return 'soon';
  return 'well';
}

// A time as the resident lives it: their zone, named when it is not the device's.
function time(iso, zone) {
  if (!iso) return '';
  const mine = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const shown = new Date(iso).toLocaleTimeString(words.lang, { hour: '2-digit', minute: '2-digit', timeZone: zone });
  return zone && zone !== mine ? `${shown} (${zone})` : shown;
}

// The row's line when nothing needs the carer and nothing was looked after.
function what(r, state) {
  const zone = r.checkin.time_zone;
  switch (state) {
    case 'missed': return t('carer-missed', { count: r.reminders_missed });
    case 'soon': return t('carer-soon', { time: time(r.next_reminder_at, zone) });
    default: return t('carer-well');
  }
}

const line = (text) => Object.assign(document.createElement('p'), { textContent: text });

// The step that looks after one need: one tap, then the row is read again.
function acknowledge(r, need) {
  const button = document.createElement('button');
  button.className = 'acknowledge';
  button.textContent = t('carer-acknowledge');
  // Several on a row: each says what it looks after to a screen reader.
  button.setAttribute('aria-label', `${t('carer-acknowledge')}: ${need.text}`);
  button.onclick = async () => {
    button.disabled = true;
    try {
      await api(`/api/carer/residents/${encodeURIComponent(r.id)}/${need.ack}/acknowledge`, { method: 'POST' });
      $('#board-status').textContent = t(`carer-acknowledged-${need.kind}`, { name: nameOf(r) });
    } catch (e) {
      $('#board-status').textContent = errorText(logWords, e);
    }
    await refresh(r.id);
  };
  return button;
}

function row(r) {
  const state = attention(r);
  const li = document.createElement('li');
  li.className = `resident state-${state}`;
  li.dataset.state = state;
  li.dataset.id = r.id;
  const name = document.createElement('h2');
  name.textContent = nameOf(r);
  li.append(name);
  // Lost the gateway: every row says since when, as what it shows may be out of date.
  if (offlineSince !== null) {
    const stale = Object.assign(document.createElement('div'), { className: 'stale', textContent: pageWords.t('page-offline-since', { time: clock(offlineSince) }) });
    li.append(stale);
  }
  for (const need of needs(r)) {
    const item = document.createElement('div');
    item.className = `need need-${need.kind}`;
    item.append(line(need.text));
    if (need.ack) item.append(acknowledge(r, need));
    li.append(item);
  }
  li.append(...lookedAfter(r).map(line));
  if (['missed', 'soon', 'well'].includes(state)) li.append(line(what(r, state)));
  // The next step: call the resident.
  if (r.phone && ['alarm', 'checkin', 'notice'].includes(state)) {
    const steps = document.createElement('div');
    steps.className = 'steps';
    const call = document.createElement('a');
    call.href = `tel:${r.phone}`;
    call.className = 'call';
    call.textContent = t('carer-call', { name: nameOf(r) });
    steps.append(call);
    li.append(steps);
  }
  li.append(day(r));
  return li;
}

// A resident's check-in as the carer sets it: the window, days away, the time zone all their times keep.
function plan(r) {
  const form = document.createElement('form');
  form.className = 'plan';
  const field = (id, label, value, attrs = {}) => {
    const wrap = document.createElement('label');
    const span = document.createElement('span');
    span.textContent = t(label);
    const input = Object.assign(document.createElement('input'), { value: value || '', ...attrs });
    input.dataset.field = id;
    wrap.append(span, ' ', input);
    return wrap;
  };
  const c = r.checkin;
  form.append(
    field('window', 'carer-window', c.window, { placeholder: '08:00-10:00' }),
    field('away_until', 'carer-away-until', c.away_until, { type: 'date' }),
    field('time_zone', 'carer-time-zone', c.time_zone, { autocomplete: 'off' }),
    Object.assign(document.createElement('button'), { textContent: t('carer-save') }),
  );
  form.querySelector('[data-field="time_zone"]').setAttribute('list', 'time-zones');
  form.onsubmit = async (e) => {
    e.preventDefault();
    const body = Object.fromEntries([...form.querySelectorAll('input')].map((i) => [i.dataset.field, i.value.trim()]));
    try {
      await api(`/api/carer/residents/${encodeURIComponent(r.id)}/checkin`, { method: 'PUT', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
      $('#board-status').textContent = t('carer-plan-saved', { name: r.display_name || r.name });
    } catch (err) {
      $('#board-status').textContent = errorText(logWords, err);
    }
    await refresh(r.id);
  };
  return form;
}

// The carer's own address and summary time (their prefs).
function mine(me) {
  $('#my-email').value = me.prefs?.email || '';
  $('#my-summary').value = me.prefs?.carer_summary_at || '';
  $('#mine-form').onsubmit = async (e) => {
    e.preventDefault();
    const body = { email: $('#my-email').value.trim(), carer_summary_at: $('#my-summary').value };
    try {
      await api('/api/me/prefs', { method: 'PUT', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
      $('#board-status').textContent = t('carer-mine-saved');
    } catch (err) {
      $('#board-status').textContent = errorText(logWords, err);
    }
  };
  const zones = Intl.supportedValuesOf ? Intl.supportedValuesOf('timeZone') : [];
  $('#time-zones').replaceChildren(...zones.map((z) => new Option(z)));
}

// The residents whose day is open, kept open when the board is drawn again, and each day as last read.
const opened = new Set();
const days = new Map();

// A care log entry of the last day: what, on which channel, what came of it, and its detail.
function logged(e) {
  const said = [logWords.t('admin-care-what', { what: e.what, text: e.text || '' }),
    logWords.t('admin-care-channel', { channel: e.channel }), logWords.t('admin-care-status', { status: e.status })];
  const detail = e.detail_code ? logWords.t(`admin-note-${e.detail_code}`, e.detail_args || {}) : (e.detail || '');
  return { kind: 'log', at: e.at, text: `${said.join(' · ')}${detail ? ` (${detail})` : ''}` };
}

// A call for help of the last day: what came of it, and who looks after it.
function called(a) {
  const looked = a.looked_after_by.length ? t('carer-day-alarm-looked', { who: who(a) }) : t('carer-day-alarm-open');
  return { kind: 'alarm', at: a.raised_at, text: `${t('carer-day-alarm', { status: a.status })} · ${looked}` };
}

// A resident's last day, read when opened: the care log (what was delivered, confirmed, missed, who was told).
function day(r) {
  const details = document.createElement('details');
  const summary = document.createElement('summary');
  summary.textContent = t('carer-day');
  details.append(summary);
  // Built when opened: a board of a thousand rows holds a thousand summaries, not a thousand forms.
  const fill = async () => {
    const list = document.createElement('ul');
    list.className = 'day';
    details.replaceChildren(summary, list, plan(r));
    // Out of the gateway's reach, the day as last read stays (the row says it may be out of date).
    const care = await api(`/api/carer/residents/${encodeURIComponent(r.id)}`).catch(() => days.get(r.id));
    if (!care) return;
    days.set(r.id, care);
    const since = Date.now() - 24 * 3600 * 1000;
    const entries = [...care.log.map(logged), ...(care.alarms || []).map(called)]
      .filter((e) => Date.parse(e.at) >= since)
      .sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
    list.replaceChildren(...entries.map((e) => {
      const item = document.createElement('li');
      item.className = e.kind;
      item.textContent = `${time(e.at, care.checkin.time_zone)} ${e.text}`;
      return item;
    }));
    if (!entries.length) list.replaceChildren(Object.assign(document.createElement('li'), { textContent: t('carer-day-quiet') }));
  };
  details.ontoggle = () => {
    if (details.open) { opened.add(r.id); fill(); } else opened.delete(r.id);
  };
  details.open = opened.has(r.id);
  return details;
}

// The residents as last read, by id; the board is drawn from them.
const residents = new Map();
let live = false;
// The last time the gateway answered, and since when it has not (null while it does).
let heardAt = Date.now();
let offlineSince = null;

// A time of the device's day (the lost connection's), hours and minutes.
const clock = (ms) => new Date(ms).toLocaleTimeString(words.lang, { hour: '2-digit', minute: '2-digit' });

function sorted() {
  const all = [...residents.values()];
  all.sort((a, b) => RANK[attention(a)] - RANK[attention(b)] || (a.display_name || a.name).localeCompare(b.display_name || b.name));
  return all;
}

function draw(only) {
  const all = sorted();
  const list = $('#residents');
  const drawn = only && list.querySelector(`li[data-id="${CSS.escape(only)}"]`);
  // One resident changed: only their row is drawn again, at its new place (the others keep theirs, so a
  // board of a thousand stays still under the carer's finger); anything else draws the whole board.
  if (drawn) {
    drawn.remove();
    const at = all.findIndex((r) => r.id === only);
    if (at >= 0) list.insertBefore(row(residents.get(only)), list.children[at] || null);
  } else {
    list.replaceChildren(...all.map(row));
  }
  $('#none').hidden = all.length > 0;
  window.__carer = { ready: true, live, offline: offlineSince !== null, order: all.map((r) => `${r.name}:${attention(r)}`) };
}

async function load() {
  const { residents: all } = await api('/api/carer/residents');
  residents.clear();
  for (const r of all) residents.set(r.id, r);
  draw();
}

// One resident's row read again after the server said their care changed.
async function refresh(id) {
  try {
    residents.set(id, await api(`/api/carer/residents/${encodeURIComponent(id)}/today`));
  } catch (e) {
    residents.delete(id); // no longer in the carer's care
  }
  draw(id);
}

// The server's changes, from every instance; on each (re)connection the whole board is read again, so what
// happened while the stream was down is on it too.
let changes = null;
function listen() {
  changes = new EventSource('/api/carer/events');
  changes.addEventListener('care', (e) => refresh(JSON.parse(e.data).resident_id));
  changes.onopen = () => { live = true; load().then(heard).catch(() => {}); };
  changes.onerror = () => { live = false; lost(); };
}

// The gateway answered and the stream is open: a board that had lost it is read again and its rows cleared.
function heard() {
  heardAt = Date.now();
  if (offlineSince === null) return;
  offlineSince = null;
  draw();
}

// The gateway or the stream is gone: every row says since when (the last time it answered).
function lost() {
  if (offlineSince !== null) return;
  offlineSince = heardAt;
  draw();
}

// Whether the gateway is there: its health, and the stream open (a stream the browser gave up is opened anew).
async function check() {
  try {
    const response = await fetch('/health', { cache: 'no-store', signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    if (!response.ok) throw new Error(response.statusText);
    if (changes.readyState === EventSource.OPEN) {
      if (offlineSince === null) heard(); else await load().then(heard);
      return;
    }
    if (changes.readyState === EventSource.CLOSED) listen();
    lost();
  } catch (e) {
    lost();
  }
}

(async () => {
  const me = await api('/api/me');
  const lang = me.prefs?.language || (navigator.language || 'en').slice(0, 2);
  await Promise.all([words.use(lang), logWords.use(lang), pageWords.use(lang)]);
  words.apply();
  mine(me);
  await load();
  listen();
  // Read again now and then all the same (a change that could not be told), and when the board is shown.
  setInterval(() => { if (!document.hidden) load().catch(() => {}); }, EVERY_MS);
  setInterval(check, CHECK_MS);
  document.addEventListener('visibilitychange', () => { if (!document.hidden) load().catch(() => {}); });
})();
