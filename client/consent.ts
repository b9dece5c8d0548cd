/**
 * Consent (decisions.md): in consent mode nothing non-essential is stored or sent before Accept.
 * Accept and Reject have equal weight; the footer link reopens the choice. The banner is the first
 * stop in the focus order (the template puts it first in the body) and never hides a focused
 * element: while it shows, the page reserves its measured height (R-BRAND-3). It shows while
 * `<html data-consent-shown>` is set: the pre-paint boot sets it (client/boot.ts), this module keeps
 * it and the banner's `hidden` in step.
 */
import type { Store } from './storage.ts';

export type ConsentState = 'granted' | 'denied' | 'unset';

export function readConsent(mode: boolean, store: Store, key: string): ConsentState {
  if (!mode) return 'granted';
  const v = store.get(key);
  return v === 'granted' || v === 'denied' ? v : 'unset';
}

/**
 * Measure the banner and the phone's call bar it sits on, as CSS variables the stylesheet uses to
 * place the banner and to keep focused elements clear of it. Run in the task that shows it, so the
 * first paint of the banner is already in place (nothing moves).
 */
function measure(banner: HTMLElement): void {
  const root = document.documentElement.style;
  const bar = document.querySelector<HTMLElement>('[data-cta-bar]');
  // Whole pixels, rounded up: a fraction of a pixel of the banner must not lie over a focused element.
  if (bar) root.setProperty('--cta-bar-h', `${Math.ceil(bar.getBoundingClientRect().height)}px`);
  if (!banner.hidden) root.setProperty('--consent-h', `${Math.ceil(banner.getBoundingClientRect().height)}px`);
}

/** Show or hide the banner: its own `hidden` and the page's flag, which the stylesheet reads. */
function setOpen(banner: HTMLElement, open: boolean): void {
  banner.hidden = !open;
  if (open) document.documentElement.dataset.consentShown = '';
  else delete document.documentElement.dataset.consentShown;
}

/**
 * Show the banner when no choice is stored (the boot already painted it so: nothing changes on
 * screen), and measure what the page reserves for it.
 */
export function showConsentBanner(state: ConsentState): void {
  const banner = document.querySelector<HTMLElement>('[data-consent]');
  if (!banner) return;
  setOpen(banner, state === 'unset');
  if (state === 'unset') measure(banner);
}

/**
 * While the banner shows, a focused element it (or the call bar under it) would cover is scrolled
 * clear of it: browsers scroll focus into view only when the element is wholly out of sight, so a
 * field half under the banner would stay there. One taller than the free space shows its top.
 */
function keepFocusClear(banner: HTMLElement): void {
  document.addEventListener('focusin', (e) => {
    const el = e.target as Element;
    if (banner.hidden || banner.contains(el) || !(el instanceof HTMLElement) || el === document.body) return;
    const bar = document.querySelector<HTMLElement>('[data-cta-bar]');
    const fixedTops = [banner, bar].filter((x): x is HTMLElement => Boolean(x && !x.hidden && x.getClientRects().length && !x.contains(el))).map((x) => x.getBoundingClientRect().top);
    const limit = Math.min(...fixedTops);
    const r = el.getBoundingClientRect();
    if (r.bottom <= limit) return;
    const top = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
    // Whole pixels, rounded up: the page scrolls by whole pixels, and a fraction would stay under.
    window.scrollBy({ top: Math.ceil(Math.min(r.bottom - limit, r.top - top)), behavior: 'instant' });
  });
}

/** The first element after `from` that the Tab key would reach (skip links included), if any. */
function nextFocusable(from: Element): HTMLElement | undefined {
  const candidates = document.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])');
  return [...candidates].find((el) => from.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING && !from.contains(el) && el.getClientRects().length > 0);
}

/**
 * Wire the banner's buttons and the reopen links. After a choice focus never drops to the body:
 * it goes back to the link that reopened the banner; on a first visit, from the keyboard, to the
 * next stop after the banner (the skip links, so nothing is skipped), else to the main content.
 */
export function initConsentBanner(onChoice: (choice: 'granted' | 'denied') => void): void {
  const banner = document.querySelector<HTMLElement>('[data-consent]');
  if (!banner) return;
  let opener: HTMLElement | undefined;
  const show = (from: HTMLElement) => {
    opener = from;
    setOpen(banner, true);
    measure(banner);
    banner.querySelector<HTMLButtonElement>('[data-consent-choice]')?.focus({ preventScroll: true });
  };
  window.addEventListener('resize', () => measure(banner), { passive: true });
  keepFocusClear(banner);
  banner.addEventListener('click', (e) => {
    const button = (e.target as Element).closest<HTMLButtonElement>('[data-consent-choice]');
    if (!button) return;
    const keyboard = e.detail === 0;
    const next = nextFocusable(banner);
    setOpen(banner, false);
    onChoice(button.dataset.consentChoice === 'accept' ? 'granted' : 'denied');
    if (opener?.isConnected && opener.getClientRects().length) opener.focus();
    else if (keyboard && next) next.focus();
    else document.getElementById('main')?.focus({ preventScroll: true });
    opener = undefined;
  });
  for (const el of document.querySelectorAll<HTMLElement>('[data-consent-open]')) {
    el.hidden = false;
    el.addEventListener('click', (e) => {
      e.preventDefault();
      show(el);
    });
  }
}
