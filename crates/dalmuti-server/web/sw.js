// The service worker of the browser client, registered by js/main.js at
// the site's root. It keeps the client's own files (the shell: the page,
// its styles and modules, the manifest, the icons, the words of each
// language) in a cache so that the page opens without the server, and
// touches nothing else: the HTTP API (/api/, which holds the replays and
// records too), the table's WebSocket (/ws/), any other address and any
// request that is not a GET go to the network as if there were no
// service worker (docs/PROTOCOL.md, The browser client, installed and
// offline).
//
// Network first: while the server answers, every file comes from it (it
// revalidates with its ETag, so the client of a new binary shows at once)
// and the cached copy is refreshed; only when the network fails, or a
// proxy says the server is down (5xx), does the cache answer.
//
// The server writes the two lines below when it serves this file
// (crates/dalmuti-server/src/web.rs): VERSION, a hash of the client's
// files and words, so that a new client is a new service worker, which
// caches the new shell under a new name and drops the old caches; SHELL,
// the addresses cached on install.
const VERSION = 'dev';
const SHELL = ['/'];

const PREFIX = 'dalmuti-shell-';
const CACHE = PREFIX + VERSION;
const SHELL_PATHS = new Set(SHELL);

/** Whether this worker answers a request: a GET of a file of the shell, on this site. */
function ours(request) {
  if (request.method !== 'GET') return false;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return false;
  // Never the API or the socket, whatever the shell lists.
  if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/ws/')) return false;
  return SHELL_PATHS.has(url.pathname);
}

self.addEventListener('install', event => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // Revalidated with the server, never taken from the HTTP cache unasked.
    await cache.addAll(SHELL.map(path => new Request(path, { cache: 'no-cache' })));
    // Network first: the new worker may take over pages at once.
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', event => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    // The page that registered this worker is served by it from now on.
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', event => {
  const request = event.request;
  if (!ours(request)) return;
  // Cached by path: `/?x` is `/`.
  const path = new URL(request.url).pathname;
  event.respondWith((async () => {
    let response = null;
    try {
      response = await fetch(request);
    } catch (_) {
      // No network, or no server: the cache answers below.
    }
    if (response && response.status < 500) {
      if (response.ok && response.type === 'basic') {
        const copy = response.clone();
        event.waitUntil(caches.open(CACHE).then(cache => cache.put(path, copy)).catch(() => {}));
      }
      return response;
    }
    const cached = await caches.match(path, { cacheName: CACHE });
    if (cached) return cached;
    return response || Response.error();
  })());
});
