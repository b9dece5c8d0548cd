/** Head metadata of a route: title, description, canonical, hreflang, robots, Open Graph, JSON-LD. */
import type { Site } from '../content/model.ts';
import type { Translate } from '../content/texts.ts';
import { absoluteUrl } from '../routes/paths.ts';
import type { Route, RouteTable } from '../routes/table.ts';
import type { Alternate, HeadData } from './context.ts';
import { TITLE_LIMIT } from '../content/checks.ts';

/** The document title: the page title with the brand, unless that passes what search engines show. */
export function documentTitle(t: Translate, title: string, brand: string): string {
  const branded = t('head.titleTemplate', { title, brand });
  return branded.length > TITLE_LIMIT ? title : branded;
}

/** Page title and description before the brand is added. */
export function routeTitle(route: Route, t: Translate, routes: RouteTable): { title: string; description: string } {
  switch (route.kind) {
    case 'post':
      return { title: route.post!.title, description: route.post!.excerpt };
    case 'blog':
    case 'category': {
      const category = route.category ? t(`blog.category.${route.category}`) : '';
      const base = route.kind === 'blog' ? { title: t('page.blog.title'), description: t('page.blog.description') } : { title: t('page.category.title', { category }), description: t(`blog.categoryDescription.${route.category}`) };
      const list = route.list;
      // Later pages of a list have titles of their own (one title per URL).
      return list && list.page > 1 ? { title: t('blog.pageTitle', { title: base.title, n: list.page, total: list.pages }), description: base.description } : base;
    }
    case 'redirect': {
      const target = routes.byPath.get(route.target!);
      return target ? routeTitle(target, t, routes) : { title: t('page.redirect.title'), description: '' };
    }
    case 'landing':
      return { title: t('landing.title'), description: t('landing.description') };
    default:
      return { title: t(`page.${route.page!.id}.title`), description: t(`page.${route.page!.id}.description`) };
  }
}

/** The alternates of an indexable route: one per language it exists in, plus x-default. */
export function alternatesFor(site: Site, route: Route, routes: RouteTable): Alternate[] {
  const map = routes.alternates(route);
  if (map.size === 0) return [];
  const out: Alternate[] = [];
  for (const lang of site.languages) {
    const p = map.get(lang);
    if (p !== undefined) out.push({ hreflang: lang, href: absoluteUrl(site.config.baseUrl, p) });
  }
  const xDefault = map.get(site.defaultLanguage) ?? map.get(site.languages.find((l) => map.has(l))!)!;
  out.push({ hreflang: 'x-default', href: absoluteUrl(site.config.baseUrl, xDefault) });
  return out;
}

export function buildHead(
  site: Site,
  route: Route,
  t: Translate,
  routes: RouteTable,
  imageUrl: (file: string) => string,
  shareUrl: (file: string) => string = imageUrl,
): HeadData {
  const { title, description } = routeTitle(route, t, routes);
  const base = site.config.baseUrl;
  const canonical = route.kind === 'not-found' || route.kind === 'offline' ? undefined : absoluteUrl(base, route.canonical ?? route.path);
  const robots =
    route.kind === 'admin' ? 'noindex, nofollow' : route.kind === 'category' && !route.indexable ? 'noindex' : route.kind === 'page' || route.kind === 'post' || route.kind === 'blog' || route.kind === 'category' ? undefined : 'noindex';
  const fullTitle = route.kind === 'landing' ? title : documentTitle(t, title, site.config.brand);
  // A post is shared with its own image (its 1200x630 rendition), every other page with the site's.
  const own = route.kind === 'post' ? site.postImages?.[route.post!.file] : undefined;
  return {
    title: fullTitle,
    pageTitle: title,
    description,
    canonical,
    alternates: alternatesFor(site, route, routes),
    robots,
    ogType: route.kind === 'post' ? 'article' : 'website',
    ogImage: own ? shareUrl(own.file) : site.socialImage === undefined ? undefined : imageUrl(site.socialImage),
    ...(own && { ogImageAlt: own.alt || title }),
    ogLocale: t('lang.locale').replace('-', '_'),
    forward:
      route.kind === 'redirect'
        ? { target: route.target!, delay: 0 }
        : route.kind === 'landing'
          ? { target: route.target!, delay: 50 }
          : undefined,
  };
}
