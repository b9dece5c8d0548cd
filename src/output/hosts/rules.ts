/**
 * The host-neutral rules of a build, derived from the route table: 301s, not-found pages per
 * language and response headers. Every host writer turns these into its own syntax, and the
 * local servers (`site serve`, `site watch`) apply them as they are (read from `<out>.host/rules.json`).
 */
import type { Site } from '../../content/model.ts';
import { basePathOf, localize, withBase } from '../../routes/paths.ts';
import type { RouteTable } from '../../routes/table.ts';
import { siteHeaders, type InlineHashes } from '../hosting.ts';

/** One 301: `from` and `to` are URL paths including the base path. */
export interface Redirect301 {
  from: string;
  to: string;
}

/** Where unknown paths under `prefix` (`/es/`, or `/` for the rest) get their 404 page (`/es/404.html`). */
export interface NotFoundRule {
  prefix: string;
  page: string;
  lang: string;
}

/** Everything a host must do besides serving files, before any host syntax. */
export interface HostRules {
  /** The path the site lives under, '' at the root, '/site' for https://example.github.io/site. */
  basePath: string;
  redirects: Redirect301[];
  /** Every clean URL a page file answers (`/prices` → `prices.html`), base path included, sorted. */
  pages: string[];
  /** Most specific first; the last one has prefix `${basePath}/`. */
  notFound: NotFoundRule[];
  /** Sent with every response (security headers, CSP). */
  common: [name: string, value: string][];
  /** Path prefix of content-hashed assets: cached for a year, immutable. */
  assetsPrefix: string;
  /** The service worker's URL: never cached long, allowed to control the base path. */
  serviceWorker: string;
  /** Cache-Control values (kept here so every host sends the same ones). */
  cache: { immutable: string; revalidate: string };
}

/** The rules of a site; the inline hashes feed the CSP. */
export function hostRules(site: Site, routes: RouteTable, inline: InlineHashes): HostRules {
  const basePath = basePathOf(site.config.baseUrl);
  const at = (p: string) => withBase(basePath, p);
  const redirects = routes.routes.filter((r) => r.kind === 'redirect' && r.target).map((r) => ({ from: at(r.path), to: at(r.target!) }));
  const notFound: NotFoundRule[] = [];
  const page = site.pages.find((p) => p.kind === 'not-found');
  if (page) {
    for (const lang of site.languages) {
      if (lang !== site.defaultLanguage) notFound.push({ prefix: `${basePath}/${lang}/`, page: `${at(localize(page.path, lang, site.defaultLanguage))}.html`, lang });
    }
    notFound.push({ prefix: `${basePath}/`, page: `${at(page.path)}.html`, lang: site.defaultLanguage });
  }
  return {
    basePath,
    redirects,
    pages: routes.routes.map((r) => at(r.path)).sort(),
    notFound,
    common: siteHeaders(site, inline),
    assetsPrefix: `${basePath}/assets/`,
    serviceWorker: `${basePath}/sw.js`,
    cache: { immutable: 'public, max-age=31536000, immutable', revalidate: 'no-cache' },
  };
}
