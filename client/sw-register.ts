/** Register the service worker; a failure is only logged (spec). */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || location.protocol !== 'https:' && location.hostname !== 'localhost' && location.hostname !== '127.0.0.1') return;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch((err: unknown) => console.warn('service worker registration failed', err));
  });
}
