/** Mobile menu (a <details> that works without script): aria-expanded, closes on link and Escape. */
export function initMenu(): void {
  const menu = document.querySelector<HTMLDetailsElement>('details[data-menu]');
  const toggle = menu?.querySelector('summary');
  if (!menu || !toggle) return;
  const sync = () => toggle.setAttribute('aria-expanded', String(menu.open));
  sync();
  menu.addEventListener('toggle', sync);
  menu.addEventListener('click', (e) => {
    if ((e.target as Element).closest('a')) menu.open = false;
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && menu.open) {
      menu.open = false;
      toggle.focus();
    }
  });
}
