/** Buttons that scroll to a section: smooth, or instant when the visitor prefers reduced motion. */
export function initScrollButtons(): void {
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)');
  for (const a of document.querySelectorAll<HTMLAnchorElement>('a[data-scroll]')) {
    a.addEventListener('click', (e) => {
      const target = document.getElementById(a.hash.slice(1));
      if (!target) return;
      e.preventDefault();
      target.scrollIntoView({ behavior: reduced.matches ? 'auto' : 'smooth', block: 'start' });
      history.pushState(null, '', a.hash);
      target.setAttribute('tabindex', '-1');
      target.focus({ preventScroll: true });
    });
  }
}
