/**
 * Forwarding for redirect stubs and /s/ landing pages. Loaded synchronously in the head, before
 * the stub's meta refresh, so the query string and hash survive the move.
 */
const script = document.currentScript as HTMLScriptElement | null;
const target = script?.dataset.target;
if (target && target.startsWith('/') && !target.startsWith('//')) {
  const delay = Number(script!.dataset.delay) || 0;
  const go = () => location.replace(target + location.search + location.hash);
  if (delay > 0) setTimeout(go, delay);
  else go();
}
