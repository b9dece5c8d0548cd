/**
 * Consent (decisions.md): in consent mode nothing non-essential is stored or sent before Accept.
 * Accept and Reject have equal weight; the footer link reopens the choice.
 */
import type { Store } from './storage.ts';

export type ConsentState = 'granted' | 'denied' | 'unset';

export function readConsent(mode: boolean, store: Store, key: string): ConsentState {
  if (!mode) return 'granted';
  const v = store.get(key);
  return v === 'granted' || v === 'denied' ? v : 'unset';
}

/**
 * Show the banner when no choice is stored. Called before the first paint, so the banner is part
 * of it rather than a later, larger paint (it would become the page's LCP element).
 */
export function showConsentBanner(state: ConsentState): void {
  const banner = document.querySelector<HTMLElement>('[data-consent]');
  if (banner && state === 'unset') banner.hidden = false;
}

/** Wire the banner's buttons and the reopen links. */
export function initConsentBanner(onChoice: (choice: 'granted' | 'denied') => void): void {
  const banner = document.querySelector<HTMLElement>('[data-consent]');
  if (!banner) return;
  const show = () => {
    banner.hidden = false;
    banner.querySelector<HTMLButtonElement>('[data-consent-choice]')?.focus({ preventScroll: true });
  };
  banner.addEventListener('click', (e) => {
    const button = (e.target as Element).closest<HTMLButtonElement>('[data-consent-choice]');
    if (!button) return;
    banner.hidden = true;
    onChoice(button.dataset.consentChoice === 'accept' ? 'granted' : 'denied');
  });
  for (const el of document.querySelectorAll<HTMLElement>('[data-consent-open]')) {
    el.hidden = false;
    el.addEventListener('click', (e) => {
      e.preventDefault();
      show();
    });
  }
}
