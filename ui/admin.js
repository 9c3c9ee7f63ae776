// The admin panel: users, runtime settings, language model, lexicon, emergencies, usage, conversations, live log.
'use strict';

const $ = (sel) => document.querySelector(sel);
// The panel speaks the operator's language from the phrasebook (locales/<lang>/admin.ftl), English otherwise.
const words = Words('admin');
const t = (id, args) => words.t(id, args);

async function api(path, options = {}) {
  const init = { credentials: 'same-origin', ...options };
  if (init.body !== undefined && typeof init.body !== 'string') {
    init.body = JSON.stringify(init.body);
    init.headers = { 'Content-Type': 'application/json' };
  }
  const response = await fetch(path, init);
  const isJson = (response.headers.get('content-type') || '').includes('json');
  const body = isJson ? await response.json() : null;
  if (!response.ok) throw apiError(response, body);
  return body;
}

function status(text, isError = false) {
  $('#status').textContent = text;
  $('#status').classList.toggle('error', isError);
}

/// Runs an action and reports its outcome in the status line.
async function act(label, fn) {
  try { const r = await fn(); status(`${label}: ${t('admin-done')}`); return r; } catch (e) { status(`${label}: ${errorText(words, e)}`, true); return null; }
}

function cell(content) {
  const td = document.createElement('td');
  if (content instanceof Node) td.appendChild(content); else td.textContent = content ?? '';
  return td;
}

function button(text, onclick, label) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  if (label) b.setAttribute('aria-label', label);
  b.onclick = onclick;
  return b;
}

function rows(table, items, render) {
  // Each cell carries its column's name, which a table stacked on a phone shows beside it.
  const labels = [...document.querySelectorAll(`${table} thead th`)].map((th) => th.textContent);
  $(`${table} tbody`).replaceChildren(...items.map((item) => {
    const tr = document.createElement('tr');
    render(item).forEach((c, i) => {
      const td = tr.appendChild(cell(c));
      if (labels[i]) td.dataset.label = labels[i];
    });
    return tr;
  }));
}

// ---- Users ----
// A new token: the token, the personal link (the gateway's HTTPS address when it has one) and its QR code to
// scan with the person's phone; shown once.
function showSecret(name, { token, link, qr_svg: qr }) {
  const box = $('#secret');
  box.hidden = false;
  box.replaceChildren();
  const p = document.createElement('p');
  p.textContent = `${t('admin-token-of', { name })} `;
  const code = document.createElement('code');
  code.id = 'new-token';
  code.textContent = token;
  p.appendChild(code);
  const l = document.createElement('p');
  l.textContent = `${t('admin-personal-link')} `;
  const a = document.createElement('a');
  a.href = link;
  a.id = 'new-link';
  a.textContent = link;
  l.appendChild(a);
  box.append(p, l);
  if (qr) {
    const img = document.createElement('img');
    img.id = 'new-qr';
    img.className = 'qr';
    img.alt = t('admin-qr-alt', { name });
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr)}`;
    box.append(img);
  }
  box.append(button(t('admin-hide'), () => { box.hidden = true; box.replaceChildren(); }));
}

async function loadUsers() {
  const users = await api('/api/admin/users');
  userIds = new Map(users.map((u) => [u.name, u.id]));
  $('#user-names').replaceChildren(...users.map((u) => new Option(u.display_name, u.name)));
  rows('#users', users, (u) => {
    const actions = document.createElement('span');
    actions.append(
      button(t('admin-edit'), () => editUser(u), t('admin-edit-who', { name: u.name })),
      button(t('admin-rename'), async () => {
        const name = prompt(t('admin-display-name'), u.display_name);
        if (name) { await act(t('admin-rename'), () => api(`/api/admin/users/${u.id}`, { method: 'PUT', body: { display_name: name } })); loadUsers(); }
      }, t('admin-rename-who', { name: u.name })),
      button(t('admin-new-token'), async () => {
        if (!confirm(t('admin-replace-tokens', { name: u.name }))) return;
        const r = await act(t('admin-new-token'), () => api(`/api/admin/users/${u.id}/token`, { method: 'POST' }));
        if (r) showSecret(u.name, r);
      }, t('admin-new-token-for', { name: u.name })),
      button(u.is_admin ? t('admin-remove-admin') : t('admin-make-admin'), async () => {
        await act(t('admin-admin'), () => api(`/api/admin/users/${u.id}/admin`, { method: 'PUT', body: { is_admin: !u.is_admin } }));
        loadUsers();
      }),
      button(t('admin-delete'), async () => {
        if (!confirm(t('admin-delete-confirm', { name: u.name }))) return;
        await act(t('admin-delete'), () => api(`/api/admin/users/${u.id}`, { method: 'DELETE' }));
        loadUsers();
      }, t('admin-delete-who', { name: u.name })),
    );
    // The pace: the pause after which the person's turn is judged over, and how it came about.
    const pace = u.pace.setting === 'auto'
      ? t('admin-pace-learned', { ms: u.pace.patience_ms, joined: u.pace.joined })
      : t('admin-pace-set', { ms: u.pace.patience_ms, setting: u.pace.setting });
    return [u.name, u.display_name, u.is_admin ? t('admin-yes') : '', (u.allowed_languages || []).join(', '),
      u.web_search_enabled ? t('admin-on') : t('admin-off'), pace, actions];
  });
}

// "Person anlegen": the name people see, and the login name derived from it (shown as it is typed, to keep or
// change; the gateway makes it unique).
function newUser() {
  let asking = null;
  $('#new-display').oninput = () => {
    clearTimeout(asking);
    if ($('#new-name').dataset.edited) return;
    const shown = $('#new-display').value.trim();
    asking = setTimeout(async () => {
      const derived = shown ? (await api(`/api/admin/users/name-for?display_name=${encodeURIComponent(shown)}`).catch(() => null))?.name : '';
      if (!$('#new-name').dataset.edited && shown === $('#new-display').value.trim()) $('#new-name').value = derived || '';
    }, 250);
  };
  $('#new-name').oninput = () => { $('#new-name').dataset.edited = $('#new-name').value ? 'yes' : ''; };
  $('#new-user').onsubmit = async (e) => {
    e.preventDefault();
    const name = $('#new-name').value.trim();
    const body = { display_name: $('#new-display').value.trim(), is_admin: $('#new-admin').checked, ...(name ? { name } : {}) };
    const created = await act(t('admin-create-user'), () => api('/api/admin/users', { method: 'POST', body }));
    if (created) {
      loadHealth().catch(() => {});
      showSecret(created.name, created);
      $('#new-user').reset();
      $('#new-name').dataset.edited = '';
      loadUsers();
    }
  };
}

let editing = null;
const TEXT_PREFS = ['full_name', 'street', 'postal_code', 'city', 'phone_mobile', 'phone_landline', 'birth_date', 'medical_notes',
  'checkin_window', 'away_until', 'ha_satellite', 'timezone', 'email', 'carer_summary_at'];
// Every user by name, for the carers' field; the carers the editor showed (changed only when edited: each
// change is audited).
let userIds = new Map();
let carersShown = '';
// Whether the person's allowed languages were left unset (every language, today's and any added later): the
// boxes then show every language ticked, and saving them all ticked keeps it unset.
let allowedUnset = false;
async function editUser(u) {
  editing = u;
  // The form appears once it holds this user's prefs: a box ticked earlier would be reset by their arrival.
  $('#user-editor').hidden = true;
  const p = await api(`/api/admin/users/${u.id}/prefs`);
  if (editing !== u) return; // another user was chosen meanwhile
  $('#editor-title').textContent = t('admin-preferences-of', { name: u.name });
  // Unset means every language, as the users' table lists them.
  allowedUnset = !p.allowed_languages;
  const allowed = p.allowed_languages || u.allowed_languages || [];
  document.querySelectorAll('#pref-languages input').forEach((box) => { box.checked = allowed.includes(box.value); });
  $('#pref-language').value = p.language || '';
  $('#pref-web').checked = p.web_search_enabled ?? u.web_search_enabled;
  $('#pref-web-limit').value = p.web_search_daily_limit ?? '';
  $('#pref-requests').value = p.daily_request_limit ?? '';
  $('#pref-cooldown').value = p.emergency_cooldown_minutes ?? '';
  $('#pref-patience').value = p.turn_patience ?? '';
  TEXT_PREFS.forEach((k) => { $(`#pref-${k}`).value = p[k] ?? ''; });
  $('#pref-emergency_contacts').value = (p.emergency_contacts || []).join(', ');
  $('#pref-emergency_contact_phones').value = (p.emergency_contact_phones || []).join(', ');
  $('#pref-location_consent').checked = p.location_consent === true;
  $('#pref-notify_carers').checked = p.notify_carers !== false;
  $('#pref-share_with_carers').checked = p.share_with_carers === true;
  const { carers } = await api(`/api/admin/users/${u.id}/carers`);
  if (editing !== u) return;
  carersShown = carers.map((c) => c.name).sort().join(',');
  $('#carers-names').value = carers.map((c) => c.name).join(', ');
  $('#pref-reminder_via').value = (p.reminder_via || []).join(', ');
  $('#user-editor').hidden = false;
  loadReminders(u);
  loadCare(u);
}

// A time of the person's (RFC 3339) in their zone, in the reader's words, the zone named when it is not the
// reader's device's: a carer far away reads the time the person lives.
function personTime(iso, zone, withDate = true, named = true) {
  if (!iso) return '';
  const options = { hour: '2-digit', minute: '2-digit', ...(withDate ? { year: 'numeric', month: '2-digit', day: '2-digit' } : {}) };
  let shown;
  try {
    shown = new Date(iso).toLocaleString(words.lang, { ...options, timeZone: zone || undefined });
  } catch {
    // A zone this browser does not know: the time as the gateway wrote it, on the person's clock.
    return iso.replace('T', ' ').slice(0, withDate ? 16 : undefined);
  }
  return named && !onDeviceClock(zone) ? t('admin-in-zone', { time: shown, zone }) : shown;
}

// Whether `zone` is the device's own (by the browser's canonical names: "Etc/UTC" is "UTC").
function onDeviceClock(zone) {
  if (!zone) return true;
  const canonical = (z) => new Intl.DateTimeFormat('en', { timeZone: z }).resolvedOptions().timeZone;
  return canonical(zone) === canonical(undefined);
}

// The zone of the person being edited (the care view's `time_zone`): the reminder form's times are on its clock.
let personZone = null;

// The offset (minutes east of UTC) of `zone` at the instant `ms`.
function offsetAt(zone, ms) {
  const name = new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value || 'GMT';
  const [, sign, h, m] = name.match(/GMT([+-])(\d\d):?(\d\d)?/) || [null, '+', '0', '0'];
  return (sign === '-' ? -1 : 1) * (Number(h) * 60 + Number(m || 0));
}

// A wall time `YYYY-MM-DDTHH:MM` on the clock of `zone` as RFC 3339 with that zone's offset then (the
// device's zone when the person's is unknown to the browser).
function onPersonClock(wall, zone) {
  const pad = (n) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  let offset;
  try {
    const guess = Date.parse(`${wall}:00Z`);
    offset = offsetAt(zone, guess - offsetAt(zone, guess) * 60000);
  } catch {
    offset = -new Date(wall).getTimezoneOffset();
  }
  return `${wall}:00${offset >= 0 ? '+' : '-'}${pad(offset / 60)}:${pad(offset % 60)}`;
}

// A care log row's detail in the reader's words: its kind's message with its values; a detail of no kind (a
// server's error, a recipient, a row from before) as the gateway wrote it.
function careDetail(e) {
  return e.detail_code ? t(`admin-note-${e.detail_code}`, e.detail_args || {}) : (e.detail || '');
}

// A person's check-in plan and care log: what was delivered, confirmed, missed, and who was told.
async function loadCare(u) {
  const care = await api(`/api/admin/users/${u.id}/care`).catch(() => null);
  if (editing !== u || !care) return;
  const c = care.checkin;
  const zone = c.time_zone;
  personZone = zone;
  $('#reminder-zone').textContent = zone;
  // Empty, the person's zone is the gateway's: the field shows which that is.
  $('#pref-timezone').placeholder = zone;
  $('#user-checkin').textContent = c.window
    ? [t('admin-checkin-plan', { window: c.window, zone, ends: personTime(c.due_at, zone, true, false),
      state: c.state ? t('admin-checkin-state', { state: c.state }) : t('admin-not-planned') }),
    c.away_until ? t('admin-away-until-date', { date: c.away_until }) : '',
    c.signed_at ? t('admin-last-sign-of-life', { at: personTime(c.signed_at, zone, true, false) }) : ''].filter(Boolean).join('; ')
    : t('admin-no-checkin');
  rows('#care-log', care.log, (e) => [personTime(e.at, zone), t('admin-care-what', { what: e.what, text: e.text || '' }),
    t('admin-care-channel', { channel: e.channel }), t('admin-care-status', { status: e.status }), careDetail(e)]);
}

// How a reminder repeats, in the reader's words where the panel offers it.
const REPEATS = { 'FREQ=DAILY': 'admin-every-day', 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR': 'admin-every-weekday' };

// A person's reminders, with their deliveries: what is coming, what was confirmed, what was missed.
async function loadReminders(u) {
  const list = (await api(`/api/admin/users/${u.id}/reminders`).catch(() => null))?.reminders || [];
  if (editing !== u) return;
  $('#user-reminders').replaceChildren(...list.map((r) => {
    const li = document.createElement('li');
    const last = r.deliveries.at(-1);
    // How it repeats, with its time on the person's clock: "(täglich 08:00)".
    const clock = personTime(r.due_at, r.time_zone, false, false);
    const repeat = r.repeat ? ` (${REPEATS[r.repeat] ? t(REPEATS[r.repeat]) : r.repeat} ${clock})` : '';
    li.textContent = t('admin-reminder-line', { when: personTime(r.due_at, r.time_zone), text: r.text, repeat,
      state: t('admin-reminder-state', { state: r.state }) })
      + (last ? t('admin-reminder-last', { channel: t('admin-care-channel', { channel: last.channel }),
        status: t('admin-care-status', { status: last.status }) }) : '') + ' ';
    if (r.state === 'scheduled' || r.state === 'delivering') {
      const del = document.createElement('button');
      del.textContent = t('admin-cancel');
      del.setAttribute('aria-label', t('admin-cancel-reminder', { text: r.text }));
      // Nothing lost with one tap: the panel asks first.
      del.onclick = async () => {
        if (!confirm(t('admin-cancel-reminder-confirm', { text: r.text }))) return;
        await act(t('admin-reminders'), () => api(`/api/admin/users/${u.id}/reminders/${r.id}`, { method: 'DELETE' }));
        loadReminders(u);
      };
      li.appendChild(del);
    }
    return li;
  }));
  if (!list.length) $('#user-reminders').replaceChildren(Object.assign(document.createElement('li'), { textContent: t('admin-no-reminders') }));
}

/// The form as a prefs change: empty fields remove the key (back to the default).
// The carers named in the editor, by user name; an unknown name is said, and nothing is changed.
async function saveCarers(u) {
  const names = [...new Set($('#carers-names').value.split(',').map((s) => s.trim()).filter(Boolean))];
  if ([...names].sort().join(',') === carersShown) return;
  const unknown = names.filter((n) => !userIds.has(n));
  if (unknown.length) {
    status(t('admin-carers-unknown', { names: unknown.join(', ') }), true);
    return;
  }
  const done = await act(t('admin-carers'), () => api(`/api/admin/users/${u.id}/carers`, { method: 'PUT', body: { carers: names.map((n) => userIds.get(n)) } }));
  if (done) carersShown = [...names].sort().join(',');
}

function prefsFromForm() {
  const list = (v) => v.split(',').map((s) => s.trim()).filter(Boolean);
  const number = (v) => (v === '' ? null : Number(v));
  const boxes = [...document.querySelectorAll('#pref-languages input')];
  const languages = boxes.filter((b) => b.checked).map((b) => b.value);
  const every = allowedUnset && languages.length === boxes.length;
  const prefs = {
    allowed_languages: languages.length && !every ? languages : null,
    language: $('#pref-language').value || null,
    web_search_enabled: $('#pref-web').checked,
    web_search_daily_limit: number($('#pref-web-limit').value),
    daily_request_limit: number($('#pref-requests').value),
    emergency_cooldown_minutes: $('#pref-cooldown').value.trim(),
    turn_patience: $('#pref-patience').value.trim() || null,
    emergency_contacts: list($('#pref-emergency_contacts').value),
    emergency_contact_phones: list($('#pref-emergency_contact_phones').value),
    location_consent: $('#pref-location_consent').checked,
    notify_carers: $('#pref-notify_carers').checked,
    share_with_carers: $('#pref-share_with_carers').checked,
    reminder_via: list($('#pref-reminder_via').value),
  };
  TEXT_PREFS.forEach((k) => { prefs[k] = $(`#pref-${k}`).value.trim(); });
  return prefs;
}

// ---- Runtime settings ----
async function loadConfig() {
  const entries = await api('/api/admin/config');
  rows('#config', entries, (e) => {
    const input = document.createElement('input');
    input.value = e.value ?? '';
    input.setAttribute('aria-label', e.key);
    const actions = document.createElement('span');
    actions.append(
      button(t('admin-set'), async () => { await act(e.key, () => api(`/api/admin/config/${e.key}`, { method: 'PUT', body: { value: input.value } })); loadConfig(); }),
      button(t('admin-reset'), async () => { await act(e.key, () => api(`/api/admin/config/${e.key}`, { method: 'DELETE' })); loadConfig(); }),
    );
    const key = document.createElement('span');
    key.textContent = e.key;
    key.title = e.meaning || '';
    return [key, String(e.effective), input, actions];
  });
}

// ---- Language model ----
async function loadModels() {
  const m = await api('/api/admin/models');
  $('#presets').replaceChildren(...m.presets.map((p, i) => {
    const b = button(`${i === m.active.active_index ? '● ' : ''}${p.label}${p.note ? ` (${p.note})` : ''}`, async () => {
      await act(p.label, () => api('/api/admin/models/select', { method: 'POST', body: { preset: p.id } }));
      loadModels();
    });
    return b;
  }));
  // Which languages the model in use answers in: a person asking in another one is told so.
  const langs = m.active.languages;
  $('#model-languages').textContent = langs ? t('admin-answers-in', { model: m.active.model, languages: langs.join(', ') }) : '';
  const s = await api('/api/admin/llm/status').catch((e) => ({ error: e.message }));
  $('#llm-status').textContent = JSON.stringify(s, null, 2);
  // The switch starts from what runs (the zero-setup engines run llama.cpp), not from the first option.
  if (s.backend) $('#backend').value = s.backend;
  if (s.model && !$('#backend-model').value) $('#backend-model').value = s.model;
}

// ---- Latency: where the wait of a voice turn goes, from the last word to the first answer audio ----
const STAGE_IDS = ['end_of_turn', 'transcription', 'first_token', 'first_sentence', 'first_audio'];
const STAGES = {};
const nameStages = () => STAGE_IDS.forEach((k) => { STAGES[k] = t(`admin-stage-${k.replaceAll('_', '-')}`); });
const STAGE_COLOURS = ['#1f5f8b', '#c0392b', '#d68910', '#7d3c98', '#1e8449'];
const SVG = 'http://www.w3.org/2000/svg';

function svg(name, attrs, text) {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

/// 24 hourly bars, each stacked from the stages' medians (they add up to the wait), with a tick at the
/// hour's p90 of the whole wait.
function latencyChart(day) {
  const w = 720; const h = 220; const left = 48; const bottom = 24; const barW = (w - left) / 24;
  const totals = day.hours.map((hr) => Math.max(hr.stages.total?.p90_ms || 0,
    Object.keys(STAGES).reduce((sum, k) => sum + (hr.stages[k]?.median_ms || 0), 0)));
  const top = Math.max(500, ...totals) * 1.1;
  const y = (ms) => (h - bottom) * (1 - ms / top);
  const chart = svg('svg', { viewBox: `0 0 ${w} ${h}`, role: 'img', class: 'latency-chart',
    'aria-label': t('admin-chart-label', { stage: STAGES[day.slowest_stage] || t('admin-none-yet') }) });
  for (const ms of [0, 250, 500, 750, 1000, 1500, 2000].filter((v) => v < top)) {
    chart.append(svg('line', { x1: left, x2: w, y1: y(ms), y2: y(ms), stroke: '#999', 'stroke-width': 0.5 }),
      svg('text', { x: left - 4, y: y(ms) + 4, 'text-anchor': 'end', 'font-size': 11, fill: 'currentColor' }, ms));
  }
  day.hours.forEach((hr, i) => {
    const x = left + i * barW + 2;
    let base = 0;
    Object.keys(STAGES).forEach((k, j) => {
      const ms = hr.stages[k]?.median_ms || 0;
      if (!ms) return;
      const rect = svg('rect', { x, y: y(base + ms), width: barW - 4, height: y(base) - y(base + ms), fill: STAGE_COLOURS[j] });
      rect.append(svg('title', {}, `${STAGES[k]}: ${ms} ms (p90 ${hr.stages[k].p90_ms} ms)`));
      chart.append(rect);
      base += ms;
    });
    if (hr.stages.total) {
      chart.append(svg('line', { x1: x, x2: x + barW - 4, y1: y(hr.stages.total.p90_ms), y2: y(hr.stages.total.p90_ms), stroke: 'currentColor', 'stroke-width': 2 }));
    }
    if (i % 3 === 2) {
      const at = new Date((hr.start + 3600) * 1000);
      chart.append(svg('text', { x: x + barW / 2, y: h - 6, 'text-anchor': 'middle', 'font-size': 11, fill: 'currentColor' },
        at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })));
    }
  });
  const legend = document.createElement('p');
  legend.className = 'legend';
  legend.append(...Object.values(STAGES).map((label, j) => {
    const item = document.createElement('span');
    const swatch = svg('svg', { width: 12, height: 12, 'aria-hidden': 'true' });
    swatch.append(svg('rect', { width: 12, height: 12, fill: STAGE_COLOURS[j] }));
    item.append(swatch, ` ${label} `);
    return item;
  }), ` — ${t('admin-chart-p90')}`);
  return [chart, legend];
}

async function loadLatency() {
  const day = await api('/api/admin/latency');
  const total = day.stages.total;
  $('#latency-summary').textContent = day.turns === 0 ? t('admin-no-turns')
    : t('admin-turns-summary', { turns: day.turns, median: total?.median_ms ?? '–', p90: total?.p90_ms ?? '–', stage: STAGES[day.slowest_stage] || '–' });
  $('#latency-chart').replaceChildren(...latencyChart(day));
  rows('#latency', [...Object.keys(STAGES), 'total'].filter((k) => day.stages[k]),
    (k) => [k === 'total' ? t('admin-whole-wait') : STAGES[k], String(day.stages[k].median_ms), String(day.stages[k].p90_ms)]);
}

// ---- Provider health ----
// Each provider's circuit breaker on this instance, the state in words and colour.
const BREAKER = { closed: 'admin-working', open: 'admin-failing-skipped', half_open: 'admin-failing-retried' };

// The telephone's registration in the same words and colours: failing as a failing provider, else as it is.
function lineState(l) {
  const span = document.createElement('span');
  span.className = `state state-${l.state === 'failing' ? 'open' : 'closed'}`;
  span.textContent = l.state;
  return span;
}

// A closed breaker says only that nothing failed often enough to skip the provider: "working" needs a call or a
// probe that succeeded; one that failed before any did is not reached.
function seen(p) {
  if (p.state !== 'closed' || p.verified_at) return p.state;
  return p.last_error ? 'unreached' : 'untried';
}

const UNSEEN = { untried: 'admin-not-tried', unreached: 'admin-not-reached' };

function breakerState(p) {
  const span = document.createElement('span');
  const state = seen(p);
  span.className = `state state-${state}`;
  const retry = p.state === 'open' && p.retry_in_seconds != null ? ` ${t('admin-tried-again-in', { seconds: p.retry_in_seconds })}` : '';
  // A check of the help path is not skipped, only failing until the next check passes.
  span.textContent = UNSEEN[state] ? t(UNSEEN[state])
    : p.stage === 'help' ? t(p.state === 'closed' ? 'admin-working' : 'admin-failing') : t(BREAKER[p.state]) + retry;
  if (p.stage === 'help') return span;
  const check = button(t('admin-check-now'), async () => {
    await act(t('admin-check-now'), () => api(`/api/admin/providers/${p.stage}/${p.id}/check`, { method: 'POST' }));
    loadHealth();
  }, t('admin-check-now-of', { what: `${p.stage} ${p.id}` }));
  const both = document.createElement('span');
  both.append(span, ' ', check);
  return both;
}

// Calls the telephone ended because the other side was gone: a handset out of range shows here.
const ENDED = ['no_audio', 'no_ack', 'session_expired'];
function ended(line) {
  if (!line.calls_ended) return '–';
  const reason = ENDED.includes(line.last_ended) ? t(`admin-ended-${line.last_ended.replaceAll('_', '-')}`) : line.last_ended;
  return t('admin-calls-ended', { calls: line.calls_ended, reason });
}

// A working line: how it is registered (where a redirect sent it, the address a NAT shows), and calls ended.
function registered(line) {
  const gone = line.calls_ended ? ended(line) : '';
  return [line.detail, gone].filter(Boolean).join('; ') || '–';
}

// Each telephone line's calls by how they ended, and each door whose tasks failed with the last reason.
function doors(calls, failures, refused = []) {
  const last = (reason) => (reason ? t('admin-last-reason', { reason }) : '');
  // Addresses of the house's network refused places on the SIP door: a device holding too many connections.
  const sip = refused.length ? [{ door: 'sip', text: t('admin-sip-refused', { list: refused.map((r) => t('admin-sip-refused-one',
    { address: r.address, count: r.count, why: r.why })).join(', ') }) }] : [];
  const names = [...new Set([...calls.map((c) => c.line), ...failures.map((f) => f.door)])];
  return names.map((door) => {
    const c = calls.find((x) => x.line === door);
    const f = failures.find((x) => x.door === door);
    const outcomes = c ? t('admin-call-outcomes', { hung_up: c.hung_up, ended: c.ended, ended_reason: last(c.last_ended),
      refused: c.refused, refused_reason: last(c.last_refused), failed: c.failed }) : '';
    const failed = f ? t('admin-task-failures', { failures: f.failures, reason: f.last_reason }) : '';
    return { door, text: [outcomes, failed].filter(Boolean).join('; ') };
  }).concat(sip);
}

// A person's help cause in the operator's words, with the settings to set.
function helpCause(person) {
  const missing = person.missing.map((m) => t(`admin-missing-${m}`)).join(', ');
  const cause = t('admin-help-cause', { cause: person.cause || 'none', missing, channels: person.failing.join(', '),
    contacts: person.failed_to.join(', ') });
  const waiting = person.cooldown_remaining_seconds > 0
    ? t('admin-help-window', { minutes: Math.ceil(person.cooldown_remaining_seconds / 60) }) : '';
  return [person.stuck ? cause : '', person.last_press_reached_nobody ? t('admin-help-last-press') : '', waiting]
    .filter(Boolean).join('; ');
}

// Each person whose help does not reach everybody, with the cause, and each whose window after a press is open:
// while it is, a button ends it (the next press sends at once).
function helpPeople(people) {
  const list = $('#help-people');
  list.hidden = people.length === 0;
  list.replaceChildren(...people.map((person) => {
    const li = document.createElement('li');
    li.textContent = `${t('admin-help-person', { name: person.name, cause: helpCause(person) })} `;
    if (person.cooldown_remaining_seconds > 0) {
      const minutes = Math.ceil(person.cooldown_remaining_seconds / 60);
      li.appendChild(button(t('admin-help-end-wait', { minutes }), async () => {
        await act(t('admin-help-end-wait-done', { name: person.name }),
          () => api(`/api/admin/users/${person.user_id}/emergency/cooldown`, { method: 'DELETE' }));
        loadHealth();
      }));
    }
    return li;
  }));
}

/** How often the health section and the help path's banner are read again. */
const HEALTH_EVERY_MS = 10000;

async function loadHealth() {
  const { providers, users_without_working_channel: stranded, lines, help, links: linksProblem, care_notices: notices,
    calls, task_failures: failures, waiting_addresses: waiting, sip_refused: sipRefused } = await api('/api/admin/providers');
  // Links contacts could not open, in the operator's words.
  const links = linksProblem ? t(`admin-links-${linksProblem.kind}`, { address: linksProblem.address }) : '';
  helpPeople(help);
  // The help path's checks: a red banner while one fails, with whose alarm would reach nobody.
  const broken = providers.filter((p) => p.stage === 'help' && p.state !== 'closed');
  const banner = $('#help-path-banner');
  // Whose help reaches nobody (no contact on a working channel) is named whether or not a check fails.
  const nobody = stranded.length ? t('admin-help-reaches-nobody', { who: stranded.join(', ') }) : '';
  // Care notices to contacts that keep failing (the mail relay, Twilio): tried again until they go out.
  const stuck = notices?.failing ? t('admin-care-notices-failing', { count: notices.failing, error: notices.last_error || '' }) : '';
  banner.hidden = broken.length === 0 && !nobody && !links && !stuck;
  banner.textContent = [...broken.map((p) => t('admin-alarms-cannot', { id: p.id, error: p.last_error })), nobody, links, stuck]
    .filter(Boolean).join(' ');
  const shown = providers.filter((p) => p.configured || p.state !== 'closed');
  // The telephone's registration with the router sits beside the providers.
  const telephone = lines.map((l) => ({ line: true, ...l }));
  const failing = [...shown.filter((p) => !['closed', 'untried'].includes(seen(p))).map((p) => `${p.stage} ${p.id}`),
    ...lines.filter((l) => l.state === 'failing').map((l) => `${t('admin-telephone')} ${l.account}`)];
  const notTried = shown.filter((p) => seen(p) === 'untried').map((p) => `${p.stage} ${p.id}`);
  // Never "every provider works" while someone's help would reach nobody, or before each one was heard from.
  const works = notTried.length ? t('admin-not-tried-list', { list: notTried.join(', ') })
    : nobody ? t('admin-providers-answer') : t('admin-every-provider-works');
  // Addresses that guessed credentials and wait: somebody tries secrets, or a device keeps an old link.
  const guessing = waiting.length ? t('admin-addresses-waiting', { list: waiting.map((w) => `${w.address} (${w.seconds_left} s)`).join(', ') }) : '';
  $('#health-summary').textContent = [nobody, failing.length ? t('admin-failing-list', { list: failing.join(', ') }) : '',
    failing.length && !notTried.length ? '' : works, guessing]
    .filter(Boolean).join(' ');
  rows('#health', [...shown, ...telephone, ...doors(calls, failures, sipRefused)], (p) => p.door
    ? [t('admin-telephone-calls'), p.door, '–', p.text, '–', '–', '–']
    : p.line
    ? [t('admin-telephone'), p.account, lineState(p), p.state === 'failing' ? p.detail : registered(p), new Date(p.since).toLocaleString(), '–', '–']
    : [p.stage, p.id, breakerState(p), p.last_error || '–', new Date(p.since).toLocaleString(),
      p.latency_ms ? `${p.latency_ms[0]} / ${p.latency_ms[1]}` : '–',
      p.error_rate == null ? '–' : t('admin-error-rate', { percent: Math.round(p.error_rate * 100), calls: p.calls })]);
}

// Another panel (or this one) changed somebody's prefs, contacts or carers: the health is read again, once for
// a burst of changes.
function followHelp() {
  let soon = null;
  const changes = new EventSource('/api/admin/events');
  changes.addEventListener('help', () => {
    clearTimeout(soon);
    soon = setTimeout(() => loadHealth().catch(() => {}), 100);
  });
}

// ---- Lexicon ----
async function loadLexicon() {
  const lang = $('#lex-lang').value;
  const lex = await api(`/api/admin/lexicon/${lang}`);
  const items = Object.entries(lex.sections).flatMap(([section, list]) => list.map((e) => ({ section, ...e })));
  rows('#lexicon', items, (e) => [e.section, e.key, e.value, e.source,
    e.source === 'custom' ? button(t('admin-delete'), async () => {
      await act(t('admin-pronunciation-lexicon'), () => api(`/api/admin/lexicon/${lang}/${e.section}?key=${encodeURIComponent(e.key)}`, { method: 'DELETE' }));
      loadLexicon();
    }) : '']);
}

// ---- Views ----
async function loadViews() {
  const events = await api('/api/admin/emergencies');
  const seen = (e) => e.acknowledged_by.map((a) => `${a.contact} (${a.via}, ${new Date(a.at).toLocaleTimeString()})`).join(', ');
  rows('#emergencies', events, (e) => [new Date(e.at).toLocaleString(), e.category, e.user_name || e.user_id, seen(e)]);
  const stats = await api('/api/admin/stats');
  const money = (v) => v.toFixed(4);
  rows('#stats', [...stats.users, { name: t('admin-total'), requests_today: '', ...stats.total }], (u) => [u.name, u.requests_today,
    u.requests_month, money(u.cost_month) + (u.cost_estimated_month > 0 ? ` ${t('admin-estimated', { amount: money(u.cost_estimated_month) })}` : ''), money(u.avg_cost_per_request), money(u.cost_total)]);
  const people = await api('/api/admin/conversations');
  $('#conv-user').replaceChildren(...people.map((p) => {
    const o = document.createElement('option');
    o.value = p.user_id;
    o.textContent = t('admin-conversations-of', { name: p.name, count: p.sessions });
    return o;
  }));
}

async function loadSessions() {
  const user = $('#conv-user').value;
  if (!user) return;
  const r = await api(`/api/admin/conversations/${user}`);
  $('#conv-session').replaceChildren(...r.sessions.map((s) => {
    const o = document.createElement('option');
    o.value = s.id;
    o.textContent = `${new Date(s.updated_at).toLocaleString()} (${s.message_count})`;
    return o;
  }));
}

async function showTranscript() {
  const user = $('#conv-user').value;
  const session = $('#conv-session').value;
  if (!session) return;
  const s = await api(`/api/admin/conversations/${user}/${session}`);
  $('#transcript').replaceChildren(...s.messages.map((m) => {
    const p = document.createElement('p');
    p.textContent = `${m.role}: ${m.text}`;
    return p;
  }));
}

// ---- Live log ----
let log = null;
function watchLog() {
  if (log) return;
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  log = new WebSocket(`${scheme}://${location.host}/api/admin/log`);
  log.onmessage = (m) => {
    const pre = $('#log');
    pre.textContent = (pre.textContent + m.data + '\n').split('\n').slice(-500).join('\n');
    pre.scrollTop = pre.scrollHeight;
  };
  log.onclose = () => { log = null; };
}

async function init() {
  const [config, me] = await Promise.all([api('/api/config'), api('/api/me').catch(() => null)]);
  // The operator's language: their prefs, else the browser's, among the phrasebook's.
  const available = config.available.languages;
  await words.use([me?.prefs?.language, navigator.language.slice(0, 2)].find((l) => l && available.includes(l)) || 'en');
  words.apply();
  nameStages();
  $('#version').textContent = config.version;
  const named = (l) => config.available.language_names?.[l] || l;
  $('#pref-languages').replaceChildren(...config.available.languages.map((l) => {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.value = l;
    label.append(box, ` ${named(l)} `);
    return label;
  }));
  $('#pref-language').replaceChildren(new Option(t('admin-default'), ''), ...config.available.languages.map((l) => new Option(named(l), l)));
  $('#lex-lang').replaceChildren(...config.available.languages.map((l) => new Option(named(l), l)));
  // The zones to choose from, as the browser knows them; the gateway checks what is saved.
  $('#time-zones').replaceChildren(...(Intl.supportedValuesOf?.('timeZone') || []).map((z) => new Option(z, z)));
  newUser();
  $('#prefs-form').onsubmit = async (e) => {
    e.preventDefault();
    await act(t('admin-save-preferences'), () => api(`/api/admin/users/${editing.id}/prefs`, { method: 'PUT', body: prefsFromForm() }));
    await saveCarers(editing);
    // The banner and the person's warning follow the edit at once.
    loadHealth().catch(() => {});
    loadUsers();
    loadCare(editing);
  };
  $('#save-memories').onclick = async () => {
    const texts = $('#preset-memories').value.split('\n').map((s) => s.trim()).filter(Boolean);
    if (texts.length) await act(t('admin-add-memories'), () => api(`/api/admin/users/${editing.id}/memories`, { method: 'POST', body: { texts } }));
    $('#preset-memories').value = '';
  };
  $('#reminder-form').onsubmit = async (e) => {
    e.preventDefault();
    // The time on the person's clock (their zone, as the list shows it), sent with that zone's offset.
    const due = onPersonClock($('#reminder-at').value.slice(0, 16), personZone);
    const body = { text: $('#reminder-text').value.trim(), due_at: due, repeat: $('#reminder-repeat').value || null };
    if (await act(t('admin-set-reminder'), () => api(`/api/admin/users/${editing.id}/reminders`, { method: 'POST', body }))) {
      $('#reminder-form').reset();
      loadReminders(editing);
    }
  };
  $('#backend-form').onsubmit = async (e) => {
    e.preventDefault();
    await act(t('admin-switch-backend'), () => api('/api/admin/llm/backend', { method: 'POST', body: { backend: $('#backend').value, model: $('#backend-model').value } }));
    loadModels();
  };
  $('#restart').onclick = async () => {
    if (confirm(t('admin-restart-confirm'))) await act(t('admin-restart-the-gateway'), () => api('/api/admin/gateway/restart', { method: 'POST' }));
  };
  $('#lex-lang').onchange = loadLexicon;
  $('#lex-form').onsubmit = async (e) => {
    e.preventDefault();
    const lang = $('#lex-lang').value;
    await act(t('admin-save-entry'), () => api(`/api/admin/lexicon/${lang}/${$('#lex-section').value}`, { method: 'PUT', body: { key: $('#lex-key').value, value: $('#lex-value').value } }));
    loadLexicon();
  };
  $('#conv-user').onchange = loadSessions;
  $('#conv-session').onchange = showTranscript;
  $('#log-section').ontoggle = () => { if ($('#log-section').open) watchLog(); };
  $('#latency-section').ontoggle = () => { if ($('#latency-section').open) loadLatency(); };
  $('#health-section').ontoggle = () => { if ($('#health-section').open) loadHealth(); };
  await Promise.all([loadUsers(), loadConfig(), loadModels(), loadLexicon(), loadViews(), loadLatency(), loadHealth()]);
  // The banner follows the help path live: a person's new contact or carer, here or in another panel, at once
  // (the gateway's events); a relay back within a few seconds.
  followHelp();
  setInterval(() => { if (!document.hidden) loadHealth().catch(() => {}); }, HEALTH_EVERY_MS);
  await loadSessions();
  status(t('admin-ready'));
  window.__admin = { ready: true };
}

init().catch((e) => status(`${t('admin-error')}: ${e.message}`, true));
