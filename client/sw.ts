/**
 * The service worker (/sw.js). Versioned per build; cache-first for hashed assets, network-first
 * for pages with an offline page as fallback. For discretion on shared phones it never caches a
 * visited page, and it never touches other origins (WhatsApp, analytics).
 * Type-checked with its own config (client/sw.tsconfig.json: the webworker library).
 */
declare const __CACHE__: string;
declare const __PRECACHE__: string[];
/** Language prefix ('' for the default language) → offline page path. */
declare const __OFFLINE__: Record<string, string>;

const CACHE = __CACHE__;
const sw = self as unknown as ServiceWorkerGlobalScope;
/**
 * Set when the page, on Reject, is removing this worker (sw-register.ts): until the page is closed
 * it still controls it, and must not fill the caches the page has just deleted.
 */
let forgotten = false;

sw.addEventListener('message', (event) => {
  if (event.data !== 'forget') return;
  forgotten = true;
  event.waitUntil(caches.keys().then((names) => Promise.all(names.filter((n) => n.startsWith('site-')).map((n) => caches.delete(n)))));
});

sw.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(__PRECACHE__))
      .then(() => sw.skipWaiting()),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith('site-') && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => sw.clients.claim()),
  );
});

/** The site's base path with a trailing slash ('/' at the root, '/site/' for a project site): the worker's scope. */
const SCOPE = new URL(sw.registration.scope).pathname;

function offlinePage(pathname: string): string {
  const prefix = pathname.startsWith(SCOPE) ? (pathname.slice(SCOPE.length).split('/')[0] ?? '') : '';
  return __OFFLINE__[prefix] ?? __OFFLINE__['']!;
}

sw.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== sw.location.origin) return;
  if (url.pathname.startsWith(`${SCOPE}assets/`)) {
    event.respondWith(
      caches.match(request).then(
        (hit) =>
          hit ??
          fetch(request).then((response) => {
            if (response.ok && !forgotten) {
              const copy = response.clone();
              void caches.open(CACHE).then((cache) => cache.put(request, copy));
            }
            return response;
          }),
      ),
    );
    return;
  }
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(async () => (await caches.match(offlinePage(url.pathname))) ?? Response.error()));
  }
});
