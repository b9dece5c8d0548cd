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

/** Show the banner when no choice is stored; wire its buttons and the reopen links. */
export function initConsentBanner(state: ConsentState, onChoice: (choice: 'granted' | 'denied') => void): void {
  const banner = document.querySelector<HTMLElement>('[data-consent]');
  if (!banner) return;
  const show = () => {
    banner.hidden = false;
    banner.querySelector<HTMLButtonElement>('[data-consent-choice]')?.focus({ preventScroll: true });
  };
  if (state === 'unset') banner.hidden = false;
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
