/** Register the service worker (under the site's base path) once the page has loaded; a failure is only logged (spec). */
export function registerServiceWorker(base = ''): void {
  if (!('serviceWorker' in navigator) || location.protocol !== 'https:' && location.hostname !== 'localhost' && location.hostname !== '127.0.0.1') return;
  const register = () => navigator.serviceWorker.register(`${base}/sw.js`, { scope: `${base}/` }).catch((err: unknown) => console.warn('service worker registration failed', err));
  // Start-up runs after the first paint, which can come after the load event.
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}
