// The service worker of the installed app: it keeps the page's shell (scripts, styles, icons and the offline
// page) so that a lost connection shows a clear page instead of the browser's error. It never stores an API
// answer, a page that carries a token, or the assistant page itself (served only to a signed-in person):
// everything but the shell goes to the network as it is.
'use strict';

const VERSION = '{VERSION}';
const SHELL = `shell-${VERSION}`;
const FILES = [
  '/ui/offline.html',
  `/ui/app.css?v=${VERSION}`,
  `/ui/app.js?v=${VERSION}`,
  `/ui/vendor/fluent-bundle.js?v=${VERSION}`,
  `/ui/words.js?v=${VERSION}`,
  '/ui/icon-192.png',
  '/favicon.svg',
];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  // Shells of other versions go; then this one serves the open pages at once.
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== SHELL).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    // Pages always come from the gateway; only when it cannot be reached, the offline page.
    event.respondWith(fetch(request).catch(() => caches.match('/ui/offline.html')));
    return;
  }
  if (FILES.includes(url.pathname + url.search)) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
  }
});
