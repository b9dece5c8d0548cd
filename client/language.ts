/** Language choice: saved when the visitor switches; only the root home honours it on return. */
import type { Store } from './storage.ts';

/** Where the root home (`${base}/`) should send a returning visitor, or undefined to stay. */
export function savedLanguageTarget(path: string, saved: string | null, languages: readonly string[], defaultLanguage: string, base = ''): string | undefined {
  if (path !== `${base}/` || !saved || saved === defaultLanguage || !languages.includes(saved)) return undefined;
  return `${base}/${saved}`;
}

export function initLanguage(store: Store, key: string, languages: readonly string[], defaultLanguage: string, base = ''): void {
  const target = savedLanguageTarget(location.pathname, store.get(key), languages, defaultLanguage, base);
  if (target) {
    location.replace(target + location.search + location.hash);
    return;
  }
  for (const a of document.querySelectorAll<HTMLAnchorElement>('a[data-lang]')) {
    a.addEventListener('click', () => {
      const lang = a.dataset.lang!;
      if (languages.includes(lang)) store.set(key, lang);
    });
  }
}
