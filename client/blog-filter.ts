/**
 * Blog category filters: links to category pages (they work without script); with script the
 * list page, which holds every post, filters in place, the address and heading follow (and are
 * announced), and Back restores the previous view. Category pages keep plain links.
 */
export function initBlogFilter(): void {
  const nav = document.querySelector<HTMLElement>('nav.filters[data-inplace]');
  const cards = [...document.querySelectorAll<HTMLElement>('.post-card[data-category]')];
  const heading = document.querySelector<HTMLElement>('main h1');
  const intro = document.querySelector<HTMLElement>('main .page-intro .lead');
  if (!nav || cards.length === 0 || !heading) return;
  const links = [...nav.querySelectorAll<HTMLAnchorElement>('a[data-filter]')];
  const empty = document.querySelector<HTMLElement>('[data-blog-empty]');
  // The list changes under the focused link: a screen reader hears the new heading (and that the
  // list is empty, if it is) from a status region, as it would hear a new page's title (WCAG 4.1.3).
  const status = document.createElement('p');
  status.setAttribute('role', 'status');
  status.className = 'visually-hidden';
  nav.after(status);
  const announce = () => {
    status.textContent = [heading.textContent, empty && !empty.hidden ? empty.textContent : ''].filter(Boolean).join('. ');
  };
  const apply = (filter: string) => {
    let shown = 0;
    for (const card of cards) {
      card.hidden = filter !== '' && card.dataset.category !== filter;
      if (!card.hidden) shown++;
    }
    if (empty) empty.hidden = shown > 0;
    for (const a of links) {
      const current = a.dataset.filter === filter;
      if (current) {
        a.setAttribute('aria-current', 'page');
        heading.textContent = a.dataset.title ?? heading.textContent;
        if (intro && a.dataset.intro) intro.textContent = a.dataset.intro;
        document.title = a.dataset.documentTitle ?? document.title;
      } else a.removeAttribute('aria-current');
    }
  };
  for (const a of links) {
    a.addEventListener('click', (e) => {
      if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      apply(a.dataset.filter!);
      announce();
      history.pushState({ filter: a.dataset.filter }, '', a.href);
    });
  }
  window.addEventListener('popstate', (e) => {
    const filter = (e.state as { filter?: string } | null)?.filter;
    if (typeof filter === 'string') {
      apply(filter);
      announce();
    } else location.reload();
  });
}
