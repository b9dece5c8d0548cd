/// <reference lib="webworker" />
/**
 * The service worker (/sw.js). Versioned per build; cache-first for hashed assets, network-first
 * for pages with an offline page as fallback. For discretion on shared phones it never caches a
 * visited page, and it never touches other origins (WhatsApp, analytics).
 */
declare const self: ServiceWorkerGlobalScope;
declare const __CACHE__: string;
declare const __PRECACHE__: string[];
/** Language prefix ('' for the default language) → offline page path. */
declare const __OFFLINE__: Record<string, string>;

const CACHE = __CACHE__;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(__PRECACHE__))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith('site-') && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

function offlinePage(pathname: string): string {
  const prefix = pathname.split('/')[1] ?? '';
  return __OFFLINE__[prefix] ?? __OFFLINE__['']!;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      caches.match(request).then(
        (hit) =>
          hit ??
          fetch(request).then((response) => {
            if (response.ok) {
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
