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

const PANEL = 'site-dev-warnings';

/** The last build's warnings: a small panel in a corner, closed with its button, never over the page's content for long. */
function showWarnings(lines: string[]): void {
  document.getElementById(PANEL)?.remove();
  if (!lines.length) return;
  const box = document.createElement('details');
  box.id = PANEL;
  Object.assign(box.style, {
    position: 'fixed',
    left: '8px',
    bottom: '8px',
    maxWidth: 'min(40rem, calc(100vw - 16px))',
    maxHeight: '40vh',
    overflow: 'auto',
    zIndex: '2147483646',
    background: 'rgba(40, 32, 8, 0.94)',
    color: '#fdf3d2',
    font: '12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace',
    padding: '6px 10px',
    borderRadius: '6px',
    whiteSpace: 'pre-wrap',
  });
  const summary = document.createElement('summary');
  summary.textContent = `site watch: ${lines.length} warning(s) and note(s)`;
  const list = document.createElement('div');
  list.textContent = lines.join('\n\n');
  box.append(summary, list);
  document.body.appendChild(box);
}

const events = new EventSource('/__site/events');
events.addEventListener('build-warnings', (e) => {
  try {
    showWarnings(JSON.parse((e as MessageEvent<string>).data) as string[]);
  } catch {
    // not ours
  }
});
events.addEventListener('reload', () => location.reload());
events.addEventListener('build-error', (e) => showOverlay((e as MessageEvent<string>).data));
