/**
 * Forwarding for redirect stubs and /s/ landing pages. Loaded synchronously in the head, before a
 * stub's meta refresh, so the query string and hash survive. On a landing page, where consent
 * allows, it records the stealth visit (sent by the next page) and sets from_stealth=1.
 */
const script = document.currentScript as HTMLScriptElement | null;
const d = script?.dataset ?? {};
const target = d.target;
if (target && target.startsWith('/') && !target.startsWith('//')) {
  if (d.source && d.storageKey) {
    let allowed = d.consentMode !== 'true';
    try {
      allowed ||= localStorage.getItem(`${d.storageKey}.consent`) === 'granted';
      if (allowed) {
        sessionStorage.setItem('from_stealth', '1');
        sessionStorage.setItem(
          `${d.storageKey}.pending`,
          JSON.stringify([
            ['stealth_visit', { source: d.source }],
            ['directory_view', { source: d.source, funnel: 'directory_view' }],
          ]),
        );
      }
    } catch {
      /* storage unavailable: forward anyway */
    }
  }
  const delay = Number(d.delay) || 0;
  const go = () => location.replace(target + location.search + location.hash);
  if (delay > 0) setTimeout(go, delay);
  else go();
}
