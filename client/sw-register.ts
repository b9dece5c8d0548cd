/**
 * The service worker, only with consent (decisions.md, R-BRAND-5): on a shared phone its
 * registration alone would reveal the site, so it is registered after Accept (or at once in
 * consent mode off) and removed with its caches on Reject. A failure is only logged (spec).
 */

/** Service worker and Cache Storage exist here (a secure context: https or localhost). */
const available = () => 'serviceWorker' in navigator && (location.protocol === 'https:' || location.hostname === 'localhost' || location.hostname === '127.0.0.1');

/** Register the service worker (under the site's base path) once the page has loaded. */
export function registerServiceWorker(base = ''): void {
  if (!available()) return;
  const register = () => navigator.serviceWorker.register(`${base}/sw.js`, { scope: `${base}/` }).catch((err: unknown) => console.warn('service worker registration failed', err));
  // Start-up runs after the first paint, which can come after the load event.
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}

/**
 * Unregister this site's service worker (its scope is the base path) and delete its caches (named
 * `site-…`, as sw.ts names them). Nothing to do, and no error, when there is none.
 */
export async function removeServiceWorker(base = ''): Promise<void> {
  if (!available()) return;
  try {
    const scope = new URL(`${base}/`, location.origin).href;
    const registrations = (await navigator.serviceWorker.getRegistrations()).filter((r) => r.scope === scope);
    // A worker still controlling open pages stops caching and deletes its caches itself too.
    for (const r of registrations) for (const w of [r.installing, r.waiting, r.active]) w?.postMessage('forget');
    await Promise.all(registrations.map((r) => r.unregister()));
    if ('caches' in window) for (const name of await caches.keys()) if (name.startsWith('site-')) await caches.delete(name);
  } catch (err) {
    console.warn('service worker removal failed', err);
  }
}
