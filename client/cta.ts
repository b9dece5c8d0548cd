/** The call to action (card and phone bar): the chosen variant's texts, urgency badge, valued-customer line, dismissal. */
import type { ClientData } from '../templates/client-data.ts';
import type { Store } from './storage.ts';

export const URGENCY_AFTER = 45_000;
export const VALUED_AFTER = 120_000;

/** Put the variant's texts in the card. */
export function applyVariant(data: ClientData, id: string): void {
  const card = document.querySelector<HTMLElement>('[data-cta]');
  const v = data.cta.variants.find((x) => x.id === id);
  if (!card || !v) return;
  card.dataset.variant = v.id;
  const set = (sel: string, text: string) => {
    const el = card.querySelector<HTMLElement>(sel);
    if (el) el.textContent = text;
  };
  set('[data-cta-icon]', v.icon);
  set('[data-cta-primary]', v.primary);
  set('[data-cta-secondary]', v.secondary);
  for (const el of document.querySelectorAll<HTMLElement>('[data-cta-urgency]')) el.textContent = v.urgency;
  card.style.setProperty('--cta-accent', v.color);
}

/** Urgency badge if fewer than 2 interactions (scroll, click, keydown) in 45 s; valued line at 120 s. */
export function watchEngagement(target: Pick<Window, 'addEventListener' | 'removeEventListener'>, onUrgency: () => void, onValued: () => void, setTimer: typeof setTimeout = setTimeout): void {
  let interactions = 0;
  const count = () => interactions++;
  const events = ['scroll', 'click', 'keydown'] as const;
  for (const ev of events) target.addEventListener(ev, count, { passive: true });
  setTimer(() => {
    for (const ev of events) target.removeEventListener(ev, count);
    if (interactions < 2) onUrgency();
  }, URGENCY_AFTER);
  setTimer(onValued, VALUED_AFTER);
}

/** Show a line in the card and in the bar; in the compact bar the valued line replaces the urgency one. */
export function showCtaLine(sel: '[data-cta-urgency]' | '[data-cta-valued]'): void {
  for (const el of document.querySelectorAll<HTMLElement>(`[data-cta] ${sel}, [data-cta-bar] ${sel}`)) el.hidden = false;
  if (sel === '[data-cta-valued]') for (const el of document.querySelectorAll<HTMLElement>('[data-cta-bar] [data-cta-urgency]')) el.hidden = true;
  barHeight();
}

/** The bar's height as a CSS variable: the page reserves that much below its content and for scrolling to anchors. */
function barHeight(): void {
  const bar = document.querySelector<HTMLElement>('[data-cta-bar]');
  if (bar) document.documentElement.style.setProperty('--cta-bar-h', `${bar.offsetHeight}px`);
}

/**
 * Hide the card and the bar for the rest of the browser session once dismissed. The flag is
 * interface state the visitor asked for, kept in sessionStorage only (no consent needed, gone with
 * the session). Called before the first paint, so a dismissed card never flashes.
 */
export function initCtaDismiss(store: Store, key: string): void {
  const parts = document.querySelectorAll<HTMLElement>('[data-cta], [data-cta-bar]');
  if (!parts.length) return;
  const hide = () => {
    for (const el of parts) el.hidden = true;
  };
  // The boot flags a dismissal before the first paint (client/boot.ts); the stylesheet hides both.
  if (store.get(key) === '1' || document.documentElement.dataset.ctaOff !== undefined) return hide();
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-cta-dismiss]')) {
    button.addEventListener('click', () => {
      store.set(key, '1');
      hide();
      document.getElementById('main')?.focus({ preventScroll: true });
    });
  }
  // Measured after the first paint, not before it (a forced layout would delay it).
  requestAnimationFrame(() => setTimeout(barHeight, 0));
  window.addEventListener('resize', barHeight, { passive: true });
}
