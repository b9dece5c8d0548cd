/** The floating call-to-action card: the chosen variant's texts, urgency badge, valued-customer line. */
import type { ClientData } from '../src/render/client-data.ts';

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
  set('[data-cta-urgency]', v.urgency);
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

export function showCtaLine(sel: '[data-cta-urgency]' | '[data-cta-valued]'): void {
  const el = document.querySelector<HTMLElement>(`[data-cta] ${sel}`);
  if (el) el.hidden = false;
}
