/**
 * Stage "route": the route table, the single source of truth for what gets written. Pages, posts,
 * blog lists, redirect stubs, landing pages and 404s are all routes; sitemap, `_redirects` and
 * hreflang are derived from this list, never listed twice.
 */
import type { Diagnostics } from '../diagnostics.ts';
import type { PageDef, Post, Site } from '../content/model.ts';
import { fileForPath, localize } from './paths.ts';

export type RouteKind = 'page' | 'post' | 'blog' | 'category' | 'not-found' | 'offline' | 'admin' | 'redirect' | 'landing';

export interface Route {
  kind: RouteKind;
  /** URL path without trailing slash or `.html`. */
  path: string;
  /** Output file relative to the output root. */
  file: string;
  lang: string;
  /** Identity shared by the language versions of one page (for hreflang). */
  key: string;
  /** Template id (pages.yaml `template`, or the built-in `post`, `blog`, `redirect`, `landing`). */
  template: string;
  /** In the sitemap, with hreflang alternates; false means `noindex`. */
  indexable: boolean;
  /** Canonical path when it is not the route itself (a duplicate page → its original, redirect → target). */
  canonical?: string;
  /** Where a redirect stub or landing page forwards to. */
  target?: string;
  page?: PageDef;
  /** The data entry a page was made from (the model's entryPages). */
  entry?: EntryRow;
  post?: Post;
  category?: string;
  /** Directory `source` name of a landing page. */
  source?: string;
  /** A blog list or category page: its slice of posts and where it sits among its pages. */
  list?: ListPage;
  /** Human-readable origin, for diagnostics: `pages.yaml[3]`, `blog/x/en.md`. */
  origin: string;
}

/** An entry of a data list that is a page: its id is the page id. */
export interface EntryRow {
  id: string;
  path: string;
  [field: string]: unknown;
}

/** An entry of the model's landings list. */
interface LandingRow {
  slug: string;
  to: string;
  source: string;
}

export interface ListPage {
  /** 1-based. */
  page: number;
  pages: number;
  posts: readonly Post[];
  /** Path of page 1; page n is `${first}/page/${n}`. */
  first: string;
}

/** Path of page `n` of a list whose first page is `first`. */
export function listPagePath(first: string, n: number): string {
  return n === 1 ? first : `${first}/page/${n}`;
}

export interface RouteTable {
  routes: readonly Route[];
  byPath: ReadonlyMap<string, Route>;
  /** Language → path of each language version of a route (only languages where it exists). */
  alternates(route: Route): ReadonlyMap<string, string>;
  /** Path of page `id` in `lang` (throws for unknown ids: a template bug, not content). */
  pagePath(id: string, lang: string): string;
}

/** `/p/{slug}` → `/p/jane`: placeholders the site's model fills (an unknown one is left as written). */
function interpolatePath(path: string, site: Site): string {
  return path.includes('{') ? path.replace(/\{([a-zA-Z]+)\}/g, (m, name: string) => site.routing.params[name] ?? m) : path;
}

/** The rows of data kind `kind` (a list, by the model's declaration). */
function rowsOf<T>(site: Site, kind: string): readonly T[] {
  const rows = site.data[kind];
  return Array.isArray(rows) ? (rows as T[]) : [];
}

/**
 * URLs the build writes files at itself, whatever the host: a route there would replace the file or
 * never be reached. `/assets/` is served as immutable for a year, so no page may live under it.
 */
const RESERVED_URLS = new Set(['/robots.txt', '/sitemap.xml', '/favicon.ico', '/manifest.webmanifest', '/sw.js', '/_headers', '/_redirects', '/vercel.json', '/.nojekyll']);
const reservedUrl = (p: string) => RESERVED_URLS.has(p) || p === '/assets' || p.startsWith('/assets/') || /^\/sitemap-[^/]+\.xml$/.test(p);

/** Longest file or folder name of an output path, in bytes (NAME_MAX is 255, less `.html` and a temporary suffix). */
export const MAX_SEGMENT_BYTES = 200;

/** The content file of data kind `kind`, as diagnostics name it (`data/<kind>.yaml` by convention). */
function fileOf(site: Site, kind: string): string {
  return site.routing.files?.[kind] ?? `data/${kind}.yaml`;
}

/** Build every route of the site; problems (duplicates, bad targets, loops) go to `diags`. */
export function buildRoutes(site: Site, diags: Diagnostics): RouteTable {
  const { languages, defaultLanguage: def } = site;
  const routes: Route[] = [];
  const pageBase = new Map<string, string>();
  for (const page of site.pages) pageBase.set(page.id, interpolatePath(page.path, site));
  // Every entry of an entry-page list is a page, its id the page id, so templates link it like any page.
  const entryLists = site.routing.entryPages.map((e) => ({ ...e, rows: rowsOf<EntryRow>(site, e.data), file: fileOf(site, e.data) }));
  for (const list of entryLists) for (const row of list.rows) if (!pageBase.has(row.id)) pageBase.set(row.id, row.path);

  site.pages.forEach((page, i) => {
    if (page.kind === 'admin' && !site.config.features.admin) return;
    const base = pageBase.get(page.id)!;
    const langs = page.kind === 'admin' ? [def] : languages;
    for (const lang of langs) {
      const path = localize(base, lang, def);
      const canonical = page.canonical ? localize(pageBase.get(page.canonical)!, lang, def) : undefined;
      routes.push({
        kind: page.kind === 'page' ? 'page' : page.kind,
        path,
        file: fileForPath(path),
        lang,
        key: `page:${page.id}`,
        template: page.template,
        indexable: page.kind === 'page' && !canonical,
        canonical,
        page,
        origin: `pages.yaml[${i}] (${page.id})`,
      });
    }
  });

  for (const list of entryLists)
    list.rows.forEach((entry, i) => {
      const page: PageDef = { id: entry.id, path: entry.path, template: list.template, kind: 'page' };
      for (const lang of languages) {
        const path = localize(entry.path, lang, def);
        routes.push({ kind: 'page', path, file: fileForPath(path), lang, key: `page:${entry.id}`, template: list.template, indexable: true, page, entry, origin: `${list.file}[${i}] (${entry.id})` });
      }
    });

  const blogBase = site.blog.path;
  const perPage = site.blog.postsPerPage;
  // Posts are sorted newest first; each list is cut into pages here, once, not in templates.
  const listRoutes = (kind: 'blog' | 'category', key: string, first: string, lang: string, posts: Post[], origin: string, category?: string) => {
    const pages = Math.max(1, Math.ceil(posts.length / perPage));
    for (let page = 1; page <= pages; page++) {
      const path = listPagePath(first, page);
      const list = { page, pages, posts: posts.slice((page - 1) * perPage, page * perPage), first };
      // An empty category page is kept (its filter link works) but not offered to search engines.
      routes.push({ kind, path, file: fileForPath(path), lang, key: page === 1 ? key : `${key}:page:${page}`, template: 'blog', indexable: kind === 'blog' || posts.length > 0, category, list, origin });
    }
  };
  for (const lang of languages) {
    const posts = site.posts.filter((p) => p.lang === lang);
    listRoutes('blog', 'blog', localize(blogBase, lang, def), lang, posts, 'data/blog.yaml path');
    for (const category of site.blog.categories) {
      const first = localize(`${blogBase}/category/${category}`, lang, def);
      listRoutes('category', `category:${category}`, first, lang, posts.filter((p) => p.category === category), `data/blog.yaml categories (${category})`, category);
    }
  }
  for (const post of site.posts) {
    const path = localize(`${blogBase}/${post.slug}`, post.lang, def);
    routes.push({ kind: 'post', path, file: fileForPath(path), lang: post.lang, key: `post:${post.slug}`, template: 'post', indexable: true, post, origin: post.file });
  }

  // Targets must be real pages: collect the paths built so far (stubs never point at stubs).
  const pagePaths = new Set(routes.filter((r) => r.kind !== 'not-found' && r.kind !== 'offline').map((r) => r.path));
  const finalTargets = resolveRedirects(site, pagePaths, diags);
  for (const [from, to] of finalTargets) {
    for (const lang of languages) {
      const path = localize(from, lang, def);
      const target = localize(to, lang, def);
      routes.push({ kind: 'redirect', path, file: fileForPath(path), lang, key: `redirect:${from}`, template: 'redirect', indexable: false, canonical: target, target, origin: `data/redirects.yaml (${from})` });
    }
  }

  const landings = site.routing.landings;
  if (landings) {
    const file = fileOf(site, landings.data);
    rowsOf<LandingRow>(site, landings.data).forEach((dir, i) => {
      const path = `${landings.prefix}${dir.slug}`;
      if (!pagePaths.has(dir.to)) {
        diags.error({ code: 'reference', file, ...site.locate(file, [i, 'to']), field: `[${i}].to`, message: `target "${dir.to}" of ${path} is not a page of the site (give a page's path in the default language, as in pages.yaml)` });
        return;
      }
      routes.push({ kind: 'landing', path, file: fileForPath(path), lang: def, key: `landing:${dir.slug}`, template: 'landing', indexable: false, canonical: dir.to, target: dir.to, source: dir.source, origin: `${file}[${i}] (${dir.slug})` });
    });
  }

  // Two routes writing one file is an error naming both sources.
  routes.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const byPath = new Map<string, Route>();
  const byFile = new Map<string, Route>();
  // `/prices.html` is the file of the page /prices: a host serves that file there, so a route at that URL is never reached.
  const fileUrls = new Map(routes.map((r) => [`/${r.file}`, r]));
  /** Where a route's path is written in the content: file, line and field. */
  const place = (r: Route): { file: string; field: string; line?: number; column?: number } => {
    const listed = /^(\S+?)\[(\d+)\]/.exec(r.origin);
    const key = r.kind === 'landing' ? 'slug' : 'path';
    if (listed) return { file: listed[1]!, field: `[${listed[2]}].${key}`, ...site.locate(listed[1]!, [Number(listed[2]), key]) };
    if (r.kind === 'redirect') {
      const i = site.redirects.findIndex((x) => `redirect:${x.from}` === r.key);
      if (i >= 0) return { file: 'data/redirects.yaml', field: `[${i}].from`, ...site.locate('data/redirects.yaml', [i, 'from']) };
    }
    return { file: r.origin.split(' ')[0]!, field: 'path' };
  };
  for (const r of routes) {
    // Located only for an error: locating parses pages.yaml and the data files again with the
    // positioned parser, which every build paid for when this ran for each route.
    const origin = () => place(r);
    if (reservedUrl(r.path)) diags.error({ code: 'reserved', ...origin(), message: `${r.path} (${r.origin}) is a URL the build writes a file at itself (robots.txt, the sitemap, favicon, manifest, service worker, host files, /assets/): choose another path` });
    const shadow = fileUrls.get(r.path);
    if (shadow && shadow !== r) diags.error({ code: 'reserved', ...origin(), message: `${r.path} (${r.origin}) is the URL of the file of ${shadow.path} (${shadow.origin}): it would never be reached; choose another path` });
    // File systems refuse a name over 255 bytes (the writer adds `.html` and a temporary suffix):
    // checked here, so `site check` and `site build` agree and the error names the content.
    // (A UTF-16 unit is at most 3 bytes of UTF-8: a path of under a third of the limit has no such segment.)
    const long = r.file.length * 3 > MAX_SEGMENT_BYTES ? r.file.split('/').find((segment) => Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) : undefined;
    if (long) diags.error({ code: 'too-long', ...origin(), message: `the page ${r.path} (${r.origin}) would be written as a file whose name is ${Buffer.byteLength(long)} bytes long; at most ${MAX_SEGMENT_BYTES} fit every file system: shorten the slug or path` });
    // By file, not path: /index and / are two paths of one file, index.html.
    const other = byFile.get(r.file);
    if (other) {
      // At the line of whichever of the two is written in a list (a post's path is its folder's name).
      const [mine, theirs] = [origin(), place(other)];
      diags.error({ code: 'duplicate', ...(mine.line === undefined && theirs.line !== undefined ? theirs : mine), message: `two routes write ${r.file} (${r.path}): ${other.origin} and ${r.origin}` });
    }
    else {
      byFile.set(r.file, r);
      byPath.set(r.path, r);
    }
  }

  const groups = new Map<string, Map<string, string>>();
  for (const r of routes) {
    if (!r.indexable) continue;
    (groups.get(r.key) ?? groups.set(r.key, new Map()).get(r.key)!).set(r.lang, r.path);
  }
  const empty: ReadonlyMap<string, string> = new Map();
  return {
    routes,
    byPath,
    alternates: (route) => (route.indexable ? (groups.get(route.key) ?? empty) : empty),
    pagePath(id, lang) {
      const base = pageBase.get(id);
      if (base === undefined) throw new Error(`template asked for unknown page id "${id}"`);
      return localize(base, lang, def);
    },
  };
}

/** Follow redirect chains to their final page; report unknown targets, loops and shadowed pages. */
function resolveRedirects(site: Site, pagePaths: Set<string>, diags: Diagnostics): Map<string, string> {
  const next = new Map<string, string>();
  const index = new Map<string, number>();
  const at = (i: number, key: string) => site.locate('data/redirects.yaml', [i, key]);
  site.redirects.forEach((r, i) => {
    const field = `[${i}]`;
    if (next.has(r.from)) diags.error({ code: 'duplicate', file: 'data/redirects.yaml', ...at(i, 'from'), field: `${field}.from`, message: `duplicate redirect from "${r.from}" (first at [${index.get(r.from)}])` });
    else if (pagePaths.has(r.from)) diags.error({ code: 'duplicate', file: 'data/redirects.yaml', ...at(i, 'from'), field: `${field}.from`, message: `"${r.from}" is a page of the site; a redirect there would hide it` });
    else {
      next.set(r.from, r.to);
      index.set(r.from, i);
    }
  });
  const out = new Map<string, string>();
  for (const [from] of next) {
    const seen = [from];
    let to = next.get(from)!;
    while (next.has(to) && !seen.includes(to)) {
      seen.push(to);
      to = next.get(to)!;
    }
    const i = index.get(from)!;
    const field = `[${i}].to`;
    if (seen.includes(to)) diags.error({ code: 'redirect-loop', file: 'data/redirects.yaml', ...at(i, 'to'), field, message: `redirect loop: ${[...seen, to].join(' → ')}` });
    else if (!pagePaths.has(to)) diags.error({ code: 'reference', file: 'data/redirects.yaml', ...at(i, 'to'), field, message: `target "${to}" of "${from}" is not a page of the site` });
    else out.set(from, to);
  }
  return out;
}
