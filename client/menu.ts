/** Mobile menu (a <details> that works without script): aria-expanded, closes on a link, on Escape and when focus leaves it. */
export function initMenu(): void {
  const menu = document.querySelector<HTMLDetailsElement>('details[data-menu]');
  const toggle = menu?.querySelector('summary');
  if (!menu || !toggle) return;
  const sync = () => toggle.setAttribute('aria-expanded', String(menu.open));
  // The toggle event is asynchronous: closing also updates the attribute at once.
  const close = () => {
    menu.open = false;
    sync();
  };
  sync();
  menu.addEventListener('toggle', sync);
  menu.addEventListener('click', (e) => {
    if ((e.target as Element).closest('a')) close();
  });
  // Tabbing out of the open menu closes it: the panel covers the page, so focus would land on
  // links and fields hidden under it (WCAG 2.4.11).
  menu.addEventListener('focusout', (e) => {
    const next = (e as FocusEvent).relatedTarget;
    if (menu.open && next instanceof Node && !menu.contains(next)) close();
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && menu.open) {
      close();
      toggle.focus();
    }
  });
}
