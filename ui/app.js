// The assistant page: text and voice turns over WebSockets, gapless playback of sentence audio, barge-in,
// sessions, memories and the help button. No framework, no build step.
'use strict';

const $ = (sel) => document.querySelector(sel);
const ui = { lang: 'en' };
const words = Words('page');
const t = (id, args) => words.t(id, args);
const vg = (window.__vg = {
  tokens: 0, audioChunks: 0, played: 0, playedSent: 0, heard: 0, events: [], formats: [], micFormat: null,
});
// Answers as Ogg Opus where the browser plays it (a tenth of WAV's bytes on a phone's mobile data); WAV elsewhere.
const opusAnswers = !!new Audio().canPlayType('audio/ogg; codecs="opus"');

async function api(path, options = {}) {
  const init = { credentials: 'same-origin', ...options };
  if (init.body && typeof init.body !== 'string') {
    init.body = JSON.stringify(init.body);
    init.headers = { 'Content-Type': 'application/json' };
  }
  const response = await fetch(path, init);
  const isJson = (response.headers.get('content-type') || '').includes('json');
  const body = isJson ? await response.json() : null;
  if (!response.ok) {
    const err = new Error(body?.error?.message || response.statusText);
    err.status = response.status;
    throw err;
  }
  return body;
}

function status(text, isError = false) {
  const el = $('#status');
  el.textContent = text;
  el.classList.toggle('error', isError);
}

async function translate(lang) {
  await words.use(lang);
  ui.lang = lang;
  words.apply();
}

// ---- Audio: WAV or Ogg Opus frames decoded and scheduled back to back, in seq order ----
const player = {
  ctx: null, next: 0, sources: [], expected: 0, pending: new Map(),
  // The highest seq of the answer whose audio ended, and the seq and end time of each scheduled piece.
  heard: null, scheduled: [],
  // An answer's audio has begun and its turn is not done: a pause between its sentences (the next one still
  // being synthesized) is part of it, and speaking or typing then is speaking over it.
  open: false,
  context() {
    if (!this.ctx) this.ctx = new (window.AudioContext || window.webkitAudioContext)();
    if (this.ctx.state === 'suspended') this.ctx.resume();
    return this.ctx;
  },
  // `ws` sent the piece: it hears when the piece has been played to its end.
  async add(seq, bytes, ws) {
    this.pending.set(seq, bytes);
    while (this.pending.has(this.expected)) {
      const data = this.pending.get(this.expected);
      this.pending.delete(this.expected);
      this.expected += 1;
      await this.play(data, this.expected - 1, ws);
    }
  },
  async play(bytes, seq, ws) {
    const ctx = this.context();
    let buffer;
    try { buffer = await ctx.decodeAudioData(bytes.slice(0)); } catch { return; }
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(ctx.destination);
    const at = Math.max(ctx.currentTime + 0.02, this.next);
    source.start(at);
    this.next = at + buffer.duration;
    this.scheduled.push({ seq, end: this.next });
    this.sources.push(source);
    vg.played += 1;
    source.onended = () => {
      this.sources = this.sources.filter((s) => s !== source);
      // Played to its end, not stopped: the person listened to it, so speaking now interrupts the answer
      // rather than going on with the question.
      if (source.stopped || ws?.readyState !== WebSocket.OPEN) return;
      ws.send(JSON.stringify({ type: 'played', seq }));
      vg.playedSent += 1;
    };
  },
  // Whether some of the answer is still to be heard.
  busy() { return this.open || this.sources.length > 0 || this.pending.size > 0; },
  // The last seq played in full by now (null: none).
  playedSeq() {
    const now = this.ctx ? this.ctx.currentTime : 0;
    const done = this.scheduled.filter((p) => p.end <= now).map((p) => p.seq);
    return done.length ? Math.max(...done) : null;
  },
  stop() {
    this.scheduled = [];
    this.open = false;
    this.sources.forEach((s) => { s.stopped = true; try { s.stop(); } catch { /* already ended */ } });
    this.sources = [];
    this.next = 0;
    this.pending.clear();
    this.expected = 0;
    speechSynthesis?.cancel();
  },
  reset() { this.stop(); },
};
// For the browser tests: what of the answer has been heard.
vg.playedSeq = () => player.playedSeq();
vg.busy = () => player.busy();

// ---- Conversation view ----
let answer = null;
function bubble(role, text) {
  const div = document.createElement('div');
  div.className = `turn ${role}`;
  const span = document.createElement('span');
  span.textContent = text;
  div.appendChild(span);
  $('#conversation').appendChild(div);
  div.scrollIntoView({ block: 'end' });
  return span;
}

// Keeps the end of the conversation (an answer being written, the notices told under it) above the question bar
// while the person looks at what just grew, `el`; one who scrolled up to read something earlier is left there.
function follow(el) {
  const { top, bottom } = el.getBoundingClientRect();
  if (top < innerHeight && bottom > 0) $('#conversation').scrollIntoView({ block: 'end' });
}

function note(text) {
  const p = document.createElement('p');
  p.className = 'notice';
  p.textContent = text;
  $('#conversation').appendChild(p);
  follow(p);
}

function citations(urls) {
  if (!urls?.length) return;
  const p = document.createElement('p');
  p.className = 'citations';
  p.append(`${t('page-sources')}: `);
  urls.slice(0, 4).forEach((url) => {
    const a = document.createElement('a');
    a.href = url;
    a.textContent = new URL(url).hostname;
    a.target = '_blank';
    a.rel = 'noopener noreferrer';
    p.appendChild(a);
  });
  $('#conversation').appendChild(p);
}

// ---- The channels ----
const channel = { chat: null, voice: null, audioSeq: null, retry: 1000, question: null };

function options() {
  const device = $('#device-speech').checked;
  const opts = { stream: true, audio_stream: true, language: ui.lang, text_only: device };
  if (opusAnswers) opts.audio_format = 'opus';
  const voice = $('#voice').value;
  if (voice) { const [provider, name] = voice.split('|'); opts.tts_provider = provider; opts.voice = name; }
  if (ui.session) opts.session_id = ui.session;
  return opts;
}

function onEvent(ws, data) {
  if (typeof data !== 'string') {
    if (channel.audioSeq !== null) { vg.audioChunks += 1; player.add(channel.audioSeq, data, ws); channel.audioSeq = null; }
    return;
  }
  const event = JSON.parse(data);
  vg.events.push(event.type);
  switch (event.type) {
    // The person spoke over an answer that was still playing: it stops, and the server hears how far it got.
    case 'transcript':
      stopPlayback(channel.voice);
      channel.question = bubble('user', event.text).parentElement;
      nameSession(event.text);
      break;
    // The person went on speaking after a pause: what was answered was half a question. Its answer stops and
    // goes from the page with the half; the whole question comes next.
    case 'continued':
      player.stop();
      if (window.speechSynthesis) speechSynthesis.cancel();
      while (channel.question?.nextSibling) channel.question.nextSibling.remove();
      channel.question?.remove();
      channel.question = null;
      answer = null;
      status(t('page-ready'));
      break;
    case 'ack': answer = bubble('assistant', ''); status(t('page-thinking')); break;
    case 'token': if (answer) { answer.textContent += event.text; vg.tokens += 1; follow(answer); } break;
    case 'filler':
      status(event.text);
      if ($('#device-speech').checked) speakOnDevice(event.text, false);
      break;
    case 'notice': note(event.text); break;
    // A call for help, spoken or typed: the question (answered by voice, typed, or with the dialog's large
    // buttons), then what became of it.
    case 'help_asked':
      note(event.text);
      status(event.text, true);
      askHelp(event.seconds > 0 ? 'voice' : 'typed', event.text, ws);
      break;
    case 'help':
      note(event.message);
      status(event.message, event.status !== 'alerted' && event.status !== 'declined');
      helpDone(event.status, event.message);
      break;
    case 'audio':
      channel.audioSeq = event.seq;
      if (answer) player.open = true;
      vg.formats.push(event.format);
      break;
    case 'semantic':
      if (answer && !answer.textContent) answer.textContent = event.text;
      citations(event.citations);
      if ($('#device-speech').checked) speakOnDevice(event.text, true);
      break;
    // The server stopped the answer (the person spoke over it): stop what is still playing, too.
    case 'interrupted': player.stop(); status(t('page-ready')); break;
    case 'reminder': showReminder(event); shown(event, ws); break;
    case 'checkin': showCheckin(true); shown(event, ws); break;
    // A reminder missed while the gateway was not running: said once, on the next visit.
    case 'reminder_missed': {
      const at = personTime(event.due_at, ui.zone, { weekday: 'short', hour: '2-digit', minute: '2-digit' });
      note(`${t('page-reminder-missed')} (${at}): ${event.text}`);
      break;
    }
    // A failed turn ends with error, then done: the error stays in the status line.
    case 'done': player.open = false; answer = null; if (!channel.failed) status(t('page-ready')); channel.failed = false; loadSessions(); break;
    case 'error': {
      const text = errorWords(event);
      status(text, true);
      channel.failed = true;
      break;
    }
    default: break;
  }
}

// What a failed turn tells the person, in their language: the gateway's own words where it sends them in it
// (no_speech), the page's for what a person meets, the gateway's detail after a generic line for the rest.
const ERROR_WORDS = {
  empty_audio: () => t('page-not-heard'),
  utterance_too_long: () => t('page-too-long'),
  overloaded: () => t('page-busy'),
};
function errorWords(event) {
  if (event.code === 'no_speech') return event.message;
  if (ERROR_WORDS[event.code]) return ERROR_WORDS[event.code]();
  if (event.status === 429) return t('page-quota');
  if (event.status === 502 || event.status === 504) return t('page-provider-failed');
  return `${t('page-error')}: ${event.message}`;
}

function speakOnDevice(text, cancelFirst) {
  if (!window.speechSynthesis) return;
  if (cancelFirst) speechSynthesis.cancel();
  const u = new SpeechSynthesisUtterance(text);
  u.lang = ui.lang;
  speechSynthesis.speak(u);
}

function open(path) {
  return new Promise((resolve, reject) => {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}${path}`);
    ws.binaryType = 'arraybuffer';
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error('websocket'));
    ws.onmessage = (m) => onEvent(ws, m.data);
    ws.onclose = (e) => {
      if (channel.chat === ws) {
        channel.chat = null;
        // Closed for idling: open again quietly, so that reminders keep reaching the page.
        if (e.code === 1000 && e.reason === 'idle timeout') { reconnect(true); return; }
        // Lost while the page is open: say so and reconnect with growing pauses.
        status(t('page-lost'), true);
        setTimeout(reconnect, channel.retry);
      }
      if (channel.voice === ws) { channel.voice = null; micOff(); }
    };
  });
}

async function chatSocket() {
  if (channel.chat?.readyState === WebSocket.OPEN) return channel.chat;
  channel.chat = await open('/ws/chat');
  return channel.chat;
}

async function ask(text) {
  bargeIn();
  bubble('user', text);
  try {
    await ensureSession(text);
    const ws = await chatSocket();
    ws.send(JSON.stringify({ text, ...options() }));
  } catch {
    status(t('page-lost'), true);
    setTimeout(() => reconnect(), channel.retry);
  }
}

async function reconnect(quiet) {
  try { await chatSocket(); if (quiet !== true) status(t('page-reconnected')); channel.retry = 1000; } catch {
    channel.retry = Math.min(channel.retry * 2, 15000);
    setTimeout(reconnect, channel.retry);
  }
}

// Speaking or typing stops what is being said and cancels the running turn. When an answer was still
// playing, the server is told the last sentence heard in full, so the stored answer keeps only what was heard.
function bargeIn() {
  const heard = player.busy() ? { type: 'heard', seq: player.playedSeq() } : null;
  player.stop();
  [channel.chat, channel.voice].forEach((ws) => {
    if (ws?.readyState !== WebSocket.OPEN) return;
    if (heard) { ws.send(JSON.stringify(heard)); vg.heard += 1; }
    ws.send(JSON.stringify({ type: 'interrupt' }));
  });
}

// Stops the playback; when some of the answer was still to come, tells `ws` the last piece heard in full.
function stopPlayback(ws) {
  if (player.busy() && ws?.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify({ type: 'heard', seq: player.playedSeq() }));
    vg.heard += 1;
  }
  player.stop();
}

// ---- Microphone: AudioWorklet → 16-bit PCM at 16 kHz → Opus (WebCodecs) or PCM → /ws/voice with VAD ----
const mic = { stream: null, node: null, ctx: null, encoder: null, time: 0 };

// An Opus encoder for the microphone where WebCodecs has one (24 kbit/s instead of PCM's 256); null elsewhere.
async function opusEncoder(send) {
  const config = { codec: 'opus', sampleRate: 16000, numberOfChannels: 1, bitrate: 24000 };
  if (typeof AudioEncoder === 'undefined') return null;
  try { if (!(await AudioEncoder.isConfigSupported(config)).supported) return null; } catch { return null; }
  const encoder = new AudioEncoder({
    output: (chunk) => { const packet = new Uint8Array(chunk.byteLength); chunk.copyTo(packet); send(packet.buffer); },
    error: () => status(t('page-no-mic'), true),
  });
  encoder.configure(config);
  return encoder;
}

// One piece of 16-bit PCM from the worklet, as an Opus packet or as it is.
function micPiece(pcm) {
  if (channel.voice?.readyState !== WebSocket.OPEN) return;
  if (!mic.encoder) { channel.voice.send(pcm); return; }
  const frames = pcm.byteLength / 2;
  mic.encoder.encode(new AudioData({ format: 's16', sampleRate: 16000, numberOfFrames: frames, numberOfChannels: 1,
    timestamp: mic.time, data: pcm }));
  mic.time += (frames * 1e6) / 16000;
}
// Browsers give a page the microphone only in a secure context (https, or the gateway's own machine): say so at
// once, with the way there, since speaking is what the page is for.
function insecureContext() {
  const port = ui.config.https_port;
  if (!port) { status(t('page-needs-tls'), true); return; }
  const secure = `https://${location.hostname}:${port}`;
  const link = (href, text) => { const a = document.createElement('a'); a.href = href; a.textContent = text; return a; };
  const el = $('#status');
  el.replaceChildren(`${t('page-needs-https')} `, link(`${secure}${location.pathname}`, t('page-open-secure')), ' · ',
    link(`${secure}/ca`, t('page-trust-device')));
  el.classList.add('error');
}

async function micOn() {
  if (!window.isSecureContext || !navigator.mediaDevices) { insecureContext(); return; }
  try {
    mic.stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } });
  } catch (e) {
    // Refused by the person (or a policy): how to allow it; anything else: the microphone is missing or busy.
    status(t(e.name === 'NotAllowedError' ? 'micDenied' : 'noMic'), true);
    return;
  }
  bargeIn();
  await ensureSession('').catch(() => {});
  mic.ctx = new AudioContext();
  await mic.ctx.audioWorklet.addModule(`/ui/mic-worklet.js?v=${document.documentElement.dataset.version}`);
  const source = mic.ctx.createMediaStreamSource(mic.stream);
  mic.node = new AudioWorkletNode(mic.ctx, 'pcm-capture');
  channel.voice = await open('/ws/voice');
  const ws = channel.voice;
  mic.encoder = await opusEncoder((packet) => { if (ws.readyState === WebSocket.OPEN) ws.send(packet); });
  mic.time = 0;
  vg.micFormat = mic.encoder ? 'opus' : 'pcm';
  ws.send(JSON.stringify({ type: 'start', vad: true, sample_rate: 16000, input_format: vg.micFormat, ...options() }));
  mic.node.port.onmessage = (m) => micPiece(m.data);
  source.connect(mic.node);
  $('#mic').setAttribute('aria-pressed', 'true');
  $('#mic').textContent = t('page-stop');
  status(t('page-listening'));
}

function micOff() {
  mic.stream?.getTracks().forEach((track) => track.stop());
  mic.ctx?.close();
  if (mic.encoder?.state === 'configured') mic.encoder.close();
  mic.stream = mic.ctx = mic.node = mic.encoder = null;
  if ($('#status').textContent === t('page-listening')) status(t('page-ready'));
  $('#mic').setAttribute('aria-pressed', 'false');
  $('#mic').textContent = t('page-speak');
}

// ---- Sessions and memories ----
// A conversation begins with its first question: until then the menu shows "New conversation" and nothing is
// stored. Conversations are named by their first question, else by their date in the page's language.
async function loadSessions() {
  const list = await api('/api/sessions').catch(() => []);
  const select = $('#sessions');
  const when = new Intl.DateTimeFormat(ui.lang, { dateStyle: 'medium', timeStyle: 'short' });
  const options = list.map((s) => {
    const o = new Option(s.title || when.format(new Date(s.created_at)), s.id);
    if (s.title) o.dataset.titled = 'true';
    return o;
  });
  if (!ui.session) options.unshift(new Option(t('page-new-conversation'), ''));
  select.replaceChildren(...options);
  select.value = ui.session || '';
  // Nothing to start or delete before the first question; no menu before there is a conversation to pick.
  $('#new-session').hidden = $('#delete-session').hidden = !ui.session;
  select.hidden = options.length < 2 && !ui.session;
}

const short = (question) => (question.length > 60 ? `${question.slice(0, 59)}…` : question);

// Starts the stored conversation for a first question (titled by it) unless one is open.
async function ensureSession(question) {
  if (ui.session) return;
  const title = short(question);
  ui.session = (await api('/api/sessions', { method: 'POST', body: title ? { title } : {} })).id;
  await loadSessions();
}

// A conversation begun by voice is named by its first spoken question.
function nameSession(question) {
  const option = [...$('#sessions').options].find((o) => o.value === ui.session);
  if (!ui.session || !option || option.dataset.titled) return;
  const title = short(question);
  option.textContent = title;
  option.dataset.titled = 'true';
  api(`/api/sessions/${ui.session}`, { method: 'PUT', body: { title } }).catch(() => {});
}

// A fresh page for the next question; the conversation itself is created by that question.
async function newSession() {
  ui.session = null;
  $('#conversation').replaceChildren();
  await loadSessions();
}

async function switchSession(id) {
  ui.session = id;
  const s = await api(`/api/sessions/${id}`);
  $('#conversation').replaceChildren();
  s.messages.forEach((m) => bubble(m.role === 'user' ? 'user' : 'assistant', m.text));
  await loadSessions();
}

async function loadMemories() {
  const list = await api('/api/me/memories').catch(() => []);
  $('#memories').replaceChildren(...list.map((m) => {
    const li = document.createElement('li');
    li.textContent = `${m.text} `;
    const del = document.createElement('button');
    del.textContent = '✕';
    del.setAttribute('aria-label', `${t('page-delete-conversation')}: ${m.text}`);
    del.onclick = async () => { await api(`/api/me/memories/${m.id}`, { method: 'DELETE' }); loadMemories(); };
    li.appendChild(del);
    return li;
  }));
}

// ---- Reminders ----
// A time of the person's (RFC 3339) on their own clock, as the assistant says it: in their zone (a reminder's,
// else the check-in's `time_zone`), named when the device is in another one (a tablet set to another zone, a
// relative's phone abroad).
function personTime(iso, zone, options) {
  // Canonical names, so that "Etc/UTC" is the device's "UTC".
  const canonical = (z) => new Intl.DateTimeFormat('en', { timeZone: z }).resolvedOptions().timeZone;
  try {
    const shown = new Date(iso).toLocaleString(ui.lang, { ...options, timeZone: zone || undefined });
    return zone && canonical(zone) !== canonical(undefined) ? `${shown} (${zone})` : shown;
  } catch {
    // A zone this browser does not know: the device's clock.
    return new Date(iso).toLocaleString(ui.lang, options);
  }
}

// A pushed reminder or check-in question counts as delivered only once the page says it showed it: at once when
// the page is in sight, else when it comes into sight (a hidden tab or a locked phone has shown nothing yet; the
// gateway calls instead after a few seconds).
function shown(event, ws) {
  if (!event.receipt) return;
  const send = () => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'shown', receipt: event.receipt }));
  };
  if (document.visibilityState === 'visible') { send(); return; }
  document.addEventListener('visibilitychange', function inSight() {
    if (document.visibilityState !== 'visible') return;
    document.removeEventListener('visibilitychange', inSight);
    send();
  });
}

// A reminder that is due comes as an event on every open page of the person (and, missed while no page was
// open, from the list when the page looks again): shown large until the person confirms it.
function showReminder(r) {
  // Nothing covers help: a reminder due while the help question or its result is shown waits for them.
  if (helpShown()) { ui.heldReminders = [...(ui.heldReminders || []).filter((h) => h.id !== r.id), r]; return; }
  const card = $('#reminder-card');
  if (!card.hidden && card.dataset.id === r.id) return;
  card.dataset.id = r.id;
  $('#reminder-text').textContent = r.timer ? t('page-timer-over') : r.text;
  $('#reminder-when').textContent = personTime(r.due_at, r.time_zone || ui.zone, { hour: '2-digit', minute: '2-digit' });
  const done = $('#reminder-done');
  done.textContent = r.confirm ? t('page-reminder-done') : t('page-reminder-ok');
  done.onclick = async () => {
    card.hidden = true;
    if (r.confirm) await api(`/api/me/reminders/${r.id}/confirm`, { method: 'POST' }).catch(() => {});
    loadReminders();
  };
  card.hidden = false;
  done.focus();
  if ($('#device-speech').checked) speakOnDevice(`${t('page-reminder')}: ${$('#reminder-text').textContent}`, true);
  loadReminders();
}

// How a reminder repeats, in the person's words, with its time: "täglich 08:00", "werktags 07:30", "jeden
// Montag 09:00"; a rule the page has no words for is "wiederholt sich".
function repeats(r) {
  const clock = personTime(r.due_at, r.time_zone, { hour: '2-digit', minute: '2-digit' });
  if (r.repeat === 'FREQ=DAILY') return t('page-repeat-daily', { time: clock });
  if (r.repeat === 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR') return t('page-repeat-weekdays', { time: clock });
  if (/^FREQ=WEEKLY(;BYDAY=[A-Z]{2})?$/.test(r.repeat)) {
    const weekday = personTime(r.due_at, r.time_zone, { weekday: 'long' }).replace(/ \(.*\)$/, '');
    return t('page-repeat-weekly', { weekday, time: clock });
  }
  return `${t('page-repeat-other')}, ${personTime(r.due_at, r.time_zone, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' })}`;
}

// A reminder deleted with one tap goes only after UNDO_MS, while the list offers it back ("Rückgängig"); a page
// closed meanwhile sends the deletion as it goes.
const UNDO_MS = 10000;
const leaving = new Map();
function deleteSoon(r) {
  const gone = () => api(`/api/me/reminders/${r.id}`, { method: 'DELETE' }).catch(() => {}).then(loadReminders);
  leaving.set(r.id, { timer: setTimeout(() => { leaving.delete(r.id); gone(); }, UNDO_MS), id: r.id });
  loadReminders();
}
window.addEventListener('pagehide', () => {
  for (const { timer, id } of leaving.values()) {
    clearTimeout(timer);
    fetch(`/api/me/reminders/${id}`, { method: 'DELETE', credentials: 'same-origin', keepalive: true }).catch(() => {});
  }
  leaving.clear();
});

// One reminder of the list: when (and how it repeats), what, and its ✕; or, just deleted, the way back.
function reminderItem(r) {
  const li = document.createElement('li');
  if (leaving.has(r.id)) {
    li.className = 'leaving';
    li.textContent = `${t('page-reminder-deleted', { text: r.text })} `;
    const back = document.createElement('button');
    back.textContent = t('page-undo');
    back.setAttribute('aria-label', `${t('page-undo')}: ${r.text}`);
    back.onclick = () => { clearTimeout(leaving.get(r.id)?.timer); leaving.delete(r.id); loadReminders(); };
    li.appendChild(back);
    return li;
  }
  const when = r.repeat ? repeats(r)
    : personTime(r.due_at, r.time_zone, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
  li.textContent = `${when}: ${r.text} `;
  const del = document.createElement('button');
  del.textContent = '✕';
  del.setAttribute('aria-label', `${t('page-reminder-delete')}: ${r.text}`);
  del.onclick = () => deleteSoon(r);
  li.appendChild(del);
  return li;
}

async function loadReminders() {
  const list = (await api('/api/me/reminders').catch(() => null))?.reminders;
  if (!list) return;
  const waiting = list.filter((r) => r.state === 'scheduled' || r.state === 'delivering');
  const due = waiting.find((r) => r.state === 'delivering' && r.confirm);
  if (due && $('#reminder-card').hidden) showReminder(due);
  const items = waiting.map(reminderItem);
  if (!items.length) { const li = document.createElement('li'); li.textContent = t('page-no-reminders'); items.push(li); }
  $('#reminders').replaceChildren(...items);
}

// ---- The daily check-in ----
// Asked when the person gave no sign of life in their window: "I am fine" answers it, "I need help" is the
// help button's own question. Shown again when the page opens while the check-in is still asking.
function showCheckin(spoken) {
  const card = $('#checkin-card');
  // In the page's language (the event's words are in the person's, for a voice connection).
  $('#checkin-text').textContent = t('page-checkin-question');
  $('#checkin-fine').onclick = async () => {
    card.hidden = true;
    await api('/api/me/checkin', { method: 'POST' }).catch(() => {});
  };
  $('#checkin-help').onclick = () => { card.hidden = true; $('#help').click(); };
  card.hidden = false;
  $('#checkin-fine').focus();
  if (spoken && $('#device-speech').checked) speakOnDevice(t('page-checkin-question'), true);
}

async function loadCheckin() {
  const c = await api('/api/me/checkin').catch(() => null);
  // The person's zone, for the times of events that do not carry theirs.
  if (c?.time_zone) ui.zone = c.time_zone;
  const unanswered = c?.state === 'calling' && (!c.signed_at || new Date(c.signed_at) < new Date(c.opens_at));
  if (unanswered && $('#checkin-card').hidden) showCheckin();
}

// ---- Help button ----
function position(consent) {
  return new Promise((resolve) => {
    if (!consent) return resolve({});
    if (!navigator.geolocation) return resolve({ geo_error: 'no geolocation in this browser' });
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ geo: { latitude: p.coords.latitude, longitude: p.coords.longitude,
        accuracy: p.coords.accuracy, timestamp: p.timestamp } }),
      (e) => resolve({ geo_error: e.message || 'position unavailable' }),
      { enableHighAccuracy: true, timeout: 8000, maximumAge: 60000 },
    );
  });
}

// ---- The help question: the button's, or the gateway's after a call for help by voice or typed ----
// `mode`: 'button' (the help button: yes presses it), 'typed' (after a typed call: yes presses it, no closes the
// gateway's question), 'voice' (after a spoken call: the answer goes back on the voice connection `ws`).
function askHelp(mode, text, ws) {
  ui.helpAsk = { mode, ws };
  const reach = ui.helpStatus?.reach;
  // Whom a yes would reach (the contacts, the carers, the house's contact), said before the yes.
  const whom = reach === 'somebody' && ui.helpStatus?.reaches_text ? ` ${ui.helpStatus.reaches_text}` : '';
  $('#help-dialog-text').textContent = text
    || (reach && reach !== 'somebody' ? t('page-help-confirm-unreachable') : t('page-help-confirm') + whom);
  const dialog = $('#help-dialog');
  if (!dialog.open) dialog.showModal();
  $('#help-yes').focus();
}

async function answerHelp(yes) {
  const { mode, ws } = ui.helpAsk || { mode: 'button' };
  $('#help-dialog').close();
  if (mode === 'voice' && ws?.readyState === WebSocket.OPEN) { ws.send(JSON.stringify({ type: 'help_answer', yes })); return; }
  if (yes) { help(); return; }
  if (mode === 'typed') {
    const r = await api(`/api/emergency/question?language=${encodeURIComponent(ui.lang)}`, { method: 'DELETE' }).catch(() => null);
    if (r) helpDone(r.status, r.message);
  }
  releaseReminders();
}

// What became of a call for help: shown in the result box, above everything else until dismissed.
function helpDone(outcome, message) {
  if ($('#help-dialog').open) $('#help-dialog').close();
  const box = $('#help-result');
  box.textContent = message;
  box.dataset.status = outcome;
  box.hidden = false;
}

function helpShown() {
  return $('#help-dialog').open || !$('#help-result').hidden;
}

// The reminders held while help was shown, once it is not.
function releaseReminders() {
  if (helpShown()) return;
  const held = ui.heldReminders || [];
  ui.heldReminders = [];
  held.forEach(showReminder);
}

async function help() {
  const box = $('#help-result');
  box.hidden = false;
  box.textContent = t('page-sending');
  const where = await position(ui.me?.prefs?.location_consent === true);
  const device = { mobile: /Mobi|Android/i.test(navigator.userAgent), platform: navigator.platform || '' };
  try {
    const r = await api('/api/emergency', { method: 'POST', body: { ...where, device, language: ui.lang } });
    box.textContent = r.message;
    box.dataset.status = r.status;
    if (r.alarm_id) watchAlarm(r.alarm_id, r.message);
  } catch (e) {
    box.textContent = `${t('page-error')}: ${e.message}. 112`;
    box.dataset.status = 'error';
  }
}

// Shows who confirmed having seen the alarm, looking every 5 s for up to 30 minutes.
function watchAlarm(alarmId, message) {
  clearInterval(ui.alarmWatch);
  const box = $('#help-result');
  const until = Date.now() + 30 * 60 * 1000;
  const look = async () => {
    if (Date.now() > until) return clearInterval(ui.alarmWatch);
    const s = await api('/api/emergency/status').catch(() => null);
    if (!s || s.alarm?.id !== alarmId || !s.acknowledged) return;
    const who = s.acknowledged_by.map((a) => `${a.contact} (${new Date(a.at).toLocaleTimeString(ui.lang)})`).join(', ');
    box.hidden = false;
    box.textContent = `${message} ${t('page-seen-by', { who })}`;
    box.dataset.acknowledged = 'true';
  };
  ui.alarmWatch = setInterval(look, 5000);
  look();
}

// While help would reach nobody (no contact set up), a calm line under the help button says so; while a channel
// of this person's alarm cannot deliver (the gateway checks its help path every few minutes), the banner says what
// does and does not work. In the page's language; looked at again every minute.
// Who cares for the person (named by an administrator), and the person's own say in what their carers see and
// are told; hidden for somebody nobody cares for.
function carersPanel(me) {
  const carers = me.carers || [];
  $('#carers-panel').hidden = carers.length === 0;
  if (!carers.length) return;
  $('#carers-line').textContent = t('page-cared-for-by', { names: carers.map((c) => c.display_name || c.name).join(', ') });
  const toggle = (box, key, on) => {
    box.checked = on;
    box.onchange = () => api('/api/me/prefs', { method: 'PUT', body: { [key]: box.checked } }).catch(() => { box.checked = !box.checked; });
  };
  toggle($('#notify-carers'), 'notify_carers', me.prefs?.notify_carers !== false);
  toggle($('#share-with-carers'), 'share_with_carers', me.prefs?.share_with_carers === true);
}

// Where the person's words go, stage by stage, and their switch to keep them at home.
function privacyPanel(me) {
  const place = (p) => (!p ? t('page-words-no-search') : p.local ? t('page-words-here') : t('page-words-outside', { provider: p.provider }));
  const show = (words) => {
    $('#local-only').checked = words.local_only;
    $('#words-go').textContent = `${t('page-words-go')}: ${t('page-words-stages', {
      stt: place(words.recogniser), llm: place(words.model), tts: place(words.voice), search: place(words.search),
    })}`;
  };
  if (me.words_go) show(me.words_go);
  $('#local-only').onchange = async () => {
    const box = $('#local-only');
    try {
      await api('/api/me/prefs', { method: 'PUT', body: { local_only: box.checked } });
      show((await api('/api/me')).words_go);
    } catch { box.checked = !box.checked; }
  };
}

// Who else looked at the person's records (carers, administrators), read when the person opens the list.
function accessLog() {
  const box = $('#access');
  box.addEventListener('toggle', async () => {
    if (!box.open) return;
    const log = await api('/api/me/access-log').catch(() => null);
    const items = (log?.accesses || []).map((a) => {
      const li = document.createElement('li');
      const who = a.carer ? `${a.reader} (${t('page-access-carer')})` : a.reader;
      li.textContent = `${who}: ${t(`page-access-${a.what}`)}, ${new Date(a.at).toLocaleString(ui.lang)}`;
      return li;
    });
    if (!items.length) {
      const li = document.createElement('li');
      li.textContent = t('page-access-none');
      items.push(li);
    }
    $('#access-log').replaceChildren(...items);
  });
}

async function helpWarning() {
  const s = await api(`/api/emergency/status?language=${encodeURIComponent(ui.lang)}`).catch(() => null);
  ui.helpStatus = s;
  const nobody = s?.reach === 'nobody' && !!s.warning;
  const note = $('#help-note');
  note.textContent = nobody ? s.warning : '';
  note.hidden = !nobody;
  const box = $('#help-warning');
  box.textContent = nobody ? '' : s?.warning || '';
  box.hidden = nobody || !s?.warning;
}

// The help button sits in the question bar's corner, above the line under it: it moves up by the line's height.
function followHelpNote() {
  const note = $('#help-note');
  const place = () => {
    const gap = parseFloat(getComputedStyle($('#ask')).rowGap) || 0;
    document.documentElement.style.setProperty('--help-note', note.hidden ? '0px' : `${note.offsetHeight + gap}px`);
  };
  new ResizeObserver(place).observe(note);
  new MutationObserver(place).observe(note, { attributes: true, attributeFilter: ['hidden'] });
}

// ---- Start ----
async function init() {
  const [config, me] = await Promise.all([api('/api/config'), api('/api/me')]);
  ui.config = config;
  ui.me = me;
  $('#version').textContent = config.version;
  const allowed = me.prefs?.allowed_languages?.length ? me.prefs.allowed_languages : config.available.languages;
  const lang = allowed.includes(me.prefs?.language) ? me.prefs.language
    : allowed.includes(navigator.language.slice(0, 2)) ? navigator.language.slice(0, 2) : allowed[0];
  const select = $('#language');
  const named = (l) => config.available.language_names?.[l] || l;
  select.replaceChildren(...allowed.map((l) => { const o = document.createElement('option'); o.value = l; o.textContent = named(l); o.lang = l; return o; }));
  select.value = lang;
  $('#language-label').hidden = allowed.length === 1;
  select.onchange = () => {
    translate(select.value).then(fillVoices);
    api('/api/me/prefs', { method: 'PUT', body: { language: select.value } }).finally(helpWarning);
  };
  await translate(lang);
  fillVoices();
  $('#admin-link').hidden = !me.is_admin;
  // The settings take a phone's whole screen: folded there, open where there is room.
  $('#settings').open = window.matchMedia('(min-width: 48rem)').matches;
  // Large text and high contrast: the person's preference, so every device of theirs shows it.
  const large = !!me.prefs?.large_text;
  document.documentElement.classList.toggle('large', large);
  $('#large-text').checked = large;
  $('#large-text').onchange = (e) => {
    document.documentElement.classList.toggle('large', e.target.checked);
    api('/api/me/prefs', { method: 'PUT', body: { large_text: e.target.checked } }).catch(() => {});
  };
  carersPanel(me);
  privacyPanel(me);
  // How long the gateway waits through the person's pauses: learned by default, or chosen here.
  const patience = $('#patience');
  const chosen = me.prefs?.turn_patience || 'auto';
  if (![...patience.options].some((o) => o.value === chosen)) patience.add(new Option(`${chosen} ms`, chosen));
  patience.value = chosen;
  patience.onchange = () => api('/api/me/prefs', { method: 'PUT', body: { turn_patience: patience.value } }).catch(() => {});
  if (me.sso_logout_url) { $('#logout').href = me.sso_logout_url; $('#logout').hidden = false; }
  $('#ask').onsubmit = (e) => { e.preventDefault(); const q = $('#question').value.trim(); if (q) { $('#question').value = ''; ask(q); } };
  $('#question').oninput = () => { if (player.busy()) bargeIn(); };
  $('#mic').onclick = () => (mic.stream ? (micOff(), channel.voice?.close()) : micOn());
  $('#new-session').onclick = newSession;
  $('#sessions').onchange = (e) => (e.target.value ? switchSession(e.target.value) : newSession());
  $('#delete-session').onclick = async () => {
    if (!ui.session || !confirm(t('page-confirm-delete'))) return;
    await api(`/api/sessions/${ui.session}`, { method: 'DELETE' });
    ui.session = null;
    await newSession();
  };
  $('#memory-form').onsubmit = async (e) => {
    e.preventDefault();
    const text = $('#memory').value.trim();
    if (text) { await api('/api/me/memories', { method: 'POST', body: { text } }); $('#memory').value = ''; loadMemories(); }
  };
  $('#help').onclick = () => askHelp('button');
  $('#help-result').onclick = () => { $('#help-result').hidden = true; releaseReminders(); };
  $('#help-no').onclick = () => answerHelp(false);
  $('#help-yes').onclick = () => answerHelp(true);
  // Escape is a no, as the Cancel button is.
  $('#help-dialog').oncancel = (e) => { e.preventDefault(); answerHelp(false); };
  await newSession();
  loadMemories();
  // The page keeps its chat connection open, so that a reminder reaches it when it is due.
  chatSocket().catch(() => {});
  loadReminders();
  loadCheckin();
  setInterval(loadReminders, 60000);
  setInterval(loadCheckin, 60000);
  if (window.isSecureContext) status(t('page-ready')); else insecureContext();
  followHelpNote();
  accessLog();
  helpWarning();
  setInterval(helpWarning, 60000);
  // The installed app's shell, for a clear page when the gateway cannot be reached (secure contexts only).
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => {});
  vg.ready = true;
}

// The voice menu: first the automatic choice, naming the voice that speaks when the person picks none (the
// user's preference or the engines' voice for the language); a picked voice stays picked while it speaks the
// language. Only a picked voice is sent with a question.
function fillVoices() {
  const select = $('#voice');
  const picked = select.value;
  const menu = (ui.config.tts_menu || []).filter((v) => v.languages.includes(ui.lang));
  const option = (value, text) => { const o = document.createElement('option'); o.value = value; o.textContent = text; return o; };
  const auto = ui.me?.voices?.[ui.lang];
  const named = auto && (menu.find((v) => v.provider === auto.provider && v.voice === auto.voice)?.label || `${auto.provider} ${auto.voice}`);
  select.replaceChildren(option('', named ? t('page-auto-voice', { voice: named }) : t('page-auto-voice-plain')),
    ...menu.map((v) => option(`${v.provider}|${v.voice}`, v.label)));
  select.value = menu.some((v) => `${v.provider}|${v.voice}` === picked) ? picked : '';
}

init().catch(async (e) => {
  await words.use('en').catch(() => {});
  status(`${t('page-error')}: ${e.message}`, true);
});
