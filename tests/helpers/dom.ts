/** Parse built HTML for assertions with selectors (no scripts run). */
import { Window } from 'happy-dom';

const window = new Window({ settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true } });

export function parseHtml(html: string): Document {
  return new window.DOMParser().parseFromString(html, 'text/html') as unknown as Document;
}

/** Head facts of a page, as search engines read them. */
export function headOf(doc: Document) {
  const attr = (sel: string, name: string) => doc.querySelector(sel)?.getAttribute(name) ?? undefined;
  return {
    lang: doc.documentElement.getAttribute('lang') ?? undefined,
    title: doc.querySelector('title')?.textContent ?? undefined,
    description: attr('meta[name="description"]', 'content'),
    robots: attr('meta[name="robots"]', 'content'),
    canonical: attr('link[rel="canonical"]', 'href'),
    alternates: [...doc.querySelectorAll('link[rel="alternate"][hreflang]')].map((l) => ({
      hreflang: l.getAttribute('hreflang')!,
      href: l.getAttribute('href')!,
    })),
    refresh: attr('meta[http-equiv="refresh"]', 'content'),
    jsonLd: [...doc.querySelectorAll('script[type="application/ld+json"]')].map((s) => JSON.parse(s.textContent ?? '') as Record<string, unknown>),
  };
}
