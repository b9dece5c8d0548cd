/**
 * Injected by `site watch` only (never in build output): reloads the page after each rebuild and
 * shows build errors in an overlay until the next good build.
 */
const OVERLAY = 'site-dev-overlay';

function showOverlay(message: string): void {
  let box = document.getElementById(OVERLAY);
  if (!box) {
    box = document.createElement('div');
    box.id = OVERLAY;
    box.setAttribute('role', 'alert');
    // Styles through the CSSOM: allowed by the site's CSP (no inline style attributes).
    Object.assign(box.style, {
      position: 'fixed',
      inset: '0',
      zIndex: '2147483647',
      background: 'rgba(20, 10, 10, 0.94)',
      color: '#fde2e2',
      font: '14px/1.5 ui-monospace, SFMono-Regular, Menlo, monospace',
      padding: '24px',
      overflow: 'auto',
      whiteSpace: 'pre-wrap',
    });
    document.body.appendChild(box);
  }
  box.textContent = `Build failed. Fix the error and save: this page reloads by itself.\n\n${message}`;
}

const events = new EventSource('/__site/events');
events.addEventListener('reload', () => location.reload());
events.addEventListener('build-error', (e) => showOverlay((e as MessageEvent<string>).data));
