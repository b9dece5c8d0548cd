/** Stage "render": (route, site) → HTML string. Pure: no file system, clock or globals. */
import { randomBytes } from 'node:crypto';
import type { Post, Site } from '../content/model.ts';
import { createTranslate, siteMessages, type Translate } from '../content/texts.ts';
import { basePathOf, localize, withBase } from '../routes/paths.ts';
import type { Route, RouteTable } from '../routes/table.ts';
import type { Assets, Format, PageContext } from './context.ts';
import { buildHead } from './head.ts';
import type { TemplateModule } from './templates.ts';
import { DATA_READ, FACTS_READ, type PageReads, type PieceReads } from './reads.ts';
import { requireCjs } from '../require.ts';
import { fallbacks, renderStaticMarkup } from './markup.ts';
import { pageParts, type PieceSource } from '../output/pieces.ts';

const { createElement } = requireCjs('react') as typeof import('react');
/** Shared per build: the site, its routes, assets and templates. */
export interface RenderEnv {
  site: Site;
  routes: RouteTable;
  assets: Assets;
  templates: TemplateModule;
  /** Called for every text key a page asked for that its language does not have. */
  onMissingText(lang: string, key: string): void;
  /** A post's body as HTML: markdown rendered with the page that shows it, one parser per thread. */
  postHtml(post: Post): string;
  /** The line of `text` in a content file (`file`: content-relative), for an error found while rendering. */
  lineOf?(file: string, text: string): number | undefined;
  /**
   * Set while a route renders: whether it read the list of posts (`site.posts`, through the page
   * context), the texts it read, the pieces placed in it. Incremental builds key pages on what
   * they read (src/routes/inputs.ts, render/reads.ts).
   */
  reads?: PageReads;
}

/**
 * The site and route table as templates see them: reading the list of posts, or the whole route
 * table (which lists every post's pages), is noted in `env.reads` (one view per environment), and
 * so is each text of the page's language read from `site.texts` (listing a table's keys counts as
 * reading all of them).
 */
const views = new WeakMap<RenderEnv, { site: Site; routes: RouteTable }>();
function viewsOf(env: RenderEnv): { site: Site; routes: RouteTable } {
  const reads = env.reads;
  if (!reads) return env;
  let view = views.get(env);
  if (!view) {
    const noted = <T,>(value: () => T) => ({
      get: () => {
        reads.posts = true;
        return value();
      },
      enumerable: true,
    });
    const { site, routes } = env;
    const tables = Object.fromEntries(Object.entries(site.texts).map(([lang, table]) => [lang, trackedTable(lang, table, reads)]));
    const facts = {
      get: () => {
        reads.text(FACTS_READ);
        return site.facts;
      },
      enumerable: true,
    };
    view = {
      site: Object.create(site, { posts: noted(() => site.posts), texts: { value: Object.freeze(tables), enumerable: true }, data: { value: trackedData(site.data, reads), enumerable: true }, facts }) as Site,
      routes: Object.create(routes, { routes: noted(() => routes.routes), byPath: noted(() => routes.byPath) }) as RouteTable,
    };
    views.set(env, view);
  }
  return view;
}

/**
 * The site's data kinds, each noted as read by the page (or piece) that takes it (`DATA_READ` and
 * the kind: keyed like a text, on the kind's whole value, routes/inputs.ts). Listing the kinds
 * notes every one of them.
 */
function trackedData<D extends object>(data: D, reads: PageReads): D {
  const note = (key: string | symbol) => {
    if (typeof key === 'string') reads.text(`${DATA_READ}${key}`);
  };
  return new Proxy(data, {
    get(target, key, receiver) {
      note(key);
      return Reflect.get(target, key, receiver);
    },
    has(target, key) {
      note(key);
      return Reflect.has(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      note(key);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    ownKeys(target) {
      const keys = Reflect.ownKeys(target);
      for (const k of keys) note(k);
      return keys;
    },
  });
}

/** A language's text table that notes what the page of that language reads from it. */
function trackedTable(lang: string, table: Readonly<Record<string, string>>, reads: PageReads): Readonly<Record<string, string>> {
  const every = () => {
    if (reads.lang === lang) reads.all = true;
  };
  return new Proxy(table, {
    get(target, key, receiver) {
      if (typeof key === 'string' && reads.lang === lang) reads.text(key);
      return Reflect.get(target, key, receiver);
    },
    has(target, key) {
      if (typeof key === 'string' && reads.lang === lang) reads.text(key);
      return Reflect.has(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      if (typeof key === 'string' && reads.lang === lang) reads.text(key);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    ownKeys(target) {
      every();
      return Reflect.ownKeys(target);
    },
  });
}

const formatCache = new WeakMap<Site, Map<string, Format>>();

/**
 * The Intl formatters of a locale and currency, made once per thread: making them costs ~0.3 ms
 * each, and a watch session's every rebuild has a new site object (formatCache is per site).
 */
const intlCache = new Map<string, { money: Intl.NumberFormat; date: Intl.DateTimeFormat; monthFormat: Intl.DateTimeFormat; dates: Map<string, string> }>();
function intlFor(locale: string, currency: string) {
  const key = `${locale}\0${currency}`;
  let hit = intlCache.get(key);
  if (!hit) {
    hit = {
      money: new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 0 }),
      date: new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }),
      monthFormat: new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', timeZone: 'UTC' }),
      // A blog list shows the same few hundred dates on every page: format each once (Intl costs ~13 µs a call).
      dates: new Map(),
    };
    if (intlCache.size > 64) intlCache.clear();
    intlCache.set(key, hit);
  }
  return hit;
}

function formatFor(site: Site, lang: string, locale: string, t: Translate): Format {
  let perSite = formatCache.get(site);
  if (!perSite) formatCache.set(site, (perSite = new Map()));
  const hit = perSite.get(lang);
  if (hit) return hit;
  const { money, date, dates, monthFormat } = intlFor(locale, site.config.currency);
  const format: Format = {
    price: (n) => money.format(n),
    date: (iso) => {
      let text = dates.get(iso);
      if (text === undefined) dates.set(iso, (text = date.format(new Date(`${iso}T00:00:00Z`))));
      return text;
    },
    quarter: (iso) => {
      const [y, m] = iso.split('-').map(Number) as [number, number];
      // The year as text: a number argument would be grouped ("2,025").
      return t('timeline.quarter', { q: Math.ceil(m / 3), year: String(y) });
    },
    month: (iso) => monthFormat.format(new Date(`${iso}T00:00:00Z`)),
    range: (from, to, unit = 'day') => {
      const f = unit === 'month' ? monthFormat : date;
      // Intl writes the range the language's way ("3–7 May 2027", "3–7 мая 2027 г.", "mai – juin 2027").
      return f.formatRange(new Date(`${from}T00:00:00Z`), new Date(`${to}T00:00:00Z`));
    },
  };
  perSite.set(lang, format);
  return format;
}

/** The origin and base path of a base URL, parsed once (two URL parses a page were ~30 ms of 4,800 pages). */
const bases = new Map<string, { origin: string; base: string }>();
function baseOf(baseUrl: string): { origin: string; base: string } {
  let hit = bases.get(baseUrl);
  if (!hit) {
    if (bases.size > 16) bases.clear();
    bases.set(baseUrl, (hit = { origin: new URL(baseUrl).origin, base: basePathOf(baseUrl) }));
  }
  return hit;
}

/** Build the context a template sees for one route. */
export function createContext(route: Route, env: RenderEnv): PageContext {
  const { site, routes, assets } = env;
  const lang = route.lang;
  const reads = env.reads;
  const t = createTranslate((key) => env.onMissingText(lang, key), siteMessages(site, lang), reads && ((key) => reads.text(key)));
  // Asset URLs already carry the base path: only the origin goes in front.
  const { origin, base } = baseOf(site.config.baseUrl);
  const imageUrl = (file: string) => `${origin}${assets.image(file).src}`;
  const url = (p: string) => withBase(base, p);
  const built = buildHead(site, route, t, routes, imageUrl, (file) => {
    const img = assets.image(file);
    return `${origin}${img.share ?? img.src}`;
  });
  const head = built.forward ? { ...built, forward: { ...built.forward, target: url(built.forward.target) } } : built;
  const alternates = routes.alternates(route);
  const blogBase = site.blog.path;
  const languageLinks = site.languages.map((l) => ({
    lang: l,
    // The same page in that language where it exists, else that language's front page.
    href: url(
      alternates.get(l) ??
        samePage(route, l, env) ??
        (route.kind === 'post' ? localize(blogBase, l, site.defaultLanguage) : localize('/', l, site.defaultLanguage)),
    ),
    name: site.texts[l]?.['lang.name'] ?? l,
    current: l === lang,
  }));
  // Each page its own view of the data: a template caching what it derived from `ctx.site.data`
  // (a WeakMap keyed on it) reads it again on the next page, so that page notes the read too.
  const view = viewsOf(env).site;
  return {
    site: reads ? (Object.create(view, { data: { value: trackedData(site.data, reads), enumerable: true } }) as Site) : view,
    route,
    lang,
    t,
    routes: viewsOf(env).routes,
    url,
    link: (id) => url(routes.pagePath(id, lang)),
    blogLink: (what = {}) =>
      url(localize(what.slug ? `${blogBase}/${what.slug}` : what.category ? `${blogBase}/category/${what.category}` : blogBase, lang, site.defaultLanguage)),
    assets,
    head,
    format: formatFor(site, lang, t('lang.locale'), t),
    languageLinks,
    textsOf: (l) => (l === lang ? t : createTranslate(() => undefined, siteMessages(site, l))),
    imageUrl,
    // Root-relative links written in posts (`[a page](/page)`) move under the base path too.
    postBody: (post) => (base ? env.postHtml(post).replace(/(<a\s[^>]*?href=")\/(?!\/)/g, `$1${base}/`) : env.postHtml(post)),
    once: (key, render) =>
      piecesOf(env).marker(`${lang}\0${key}`, () => {
        const piece = render();
        return typeof piece === 'string' ? piece : renderStaticMarkup(piece);
      }),
  };
}

/** The path of `route` in language `lang` when that version exists (non-indexable pages too). */
function samePage(route: Route, lang: string, env: RenderEnv): string | undefined {
  if (!route.page) return undefined;
  const p = env.routes.pagePath(route.page.id, lang);
  return env.routes.byPath.has(p) ? p : undefined;
}

/**
 * Render one route to the bytes of a complete HTML document. With `env.reads`, the pieces placed
 * in it go to `placed`: each piece's number (`pieceOf`), its first byte and the byte after it.
 */
export function renderRoute(route: Route, env: RenderEnv, placed?: number[]): Buffer {
  const { parts, bytes } = renderRouteParts(route, env, placed);
  return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, bytes);
}

/**
 * `renderRoute` as the document's parts in order: its own bytes and the shared pieces' (the same
 * buffers for every page). A writer with `writeParts` writes them with one writev: no page-sized
 * copy of the pieces (the 20 KB stylesheet of every page) is made.
 */
export function renderRouteParts(route: Route, env: RenderEnv, placed?: number[]): { parts: Uint8Array[]; bytes: number } {
  return piecesOf(env).parts(renderRouteHtml(route, env), placed);
}

/** `renderRoute` as text, each piece a marker (`pieceSource(env)` turns it into bytes: output/pieces.ts `pageParts`). */
export function renderRouteHtml(route: Route, env: RenderEnv): string {
  env.reads?.begin(route.lang);
  const ctx = createContext(route, env);
  const Page = env.templates.pages[route.template];
  if (!Page) throw new Error(`no template "${route.template}" for ${route.path} (${route.origin}); templates/index.tsx exports: ${Object.keys(env.templates.pages).join(', ')}`);
  const before = fallbacks.count;
  const html = renderStaticMarkup(createElement(env.templates.Document, { ctx }, createElement(Page, { ctx })), '<!doctype html>', reactPages.has(Page) ? 'react' : undefined);
  if (fallbacks.count !== before) reactPages.add(Page);
  return html;
}

/**
 * Page templates React rendered once (a hook, context… in them or in the document): React renders
 * their pages from then on, rather than the fast renderer starting each and handing it over (which
 * would call their components twice a page).
 */
const reactPages = new WeakSet<object>();

/** The pieces of `env` as `renderRouteHtml`'s markers name them (the same object for the environment's life). */
export function pieceSource(env: RenderEnv): PieceSource {
  return piecesOf(env);
}

/** The pieces this environment made, by number (`renderRoute`'s `placed`): id (`lang\0key`) and what each read. */
export function piecesMade(env: RenderEnv): [string, PieceReads & { posts: boolean }][] {
  return piecesOf(env).made();
}

/** The bytes of the piece `id` (`lang\0key`) if this environment has made it. */
export function pieceBytes(env: RenderEnv, id: string): Buffer | undefined {
  return piecesOf(env).bytesOf(id);
}

/**
 * Layout pieces (`ctx.once`) of one render environment. A page holds a marker comment with a
 * random per-build nonce (no content can produce it: text is escaped, and markdown's raw HTML
 * too); `assemble` swaps each marker for its piece's bytes, encoded once. Pieces skip React for
 * what every page repeats and keep the 12 KB stylesheet out of each page's string.
 */
class Pieces implements PieceSource {
  readonly open = `<!--${randomBytes(9).toString('base64url')}:`;
  private readonly index = new Map<string, number>();
  private readonly ids: string[] = [];
  readonly bytes: Buffer[] = [];
  /** What each piece read while it was made: the texts key the piece, the list of posts every page showing it. */
  private readonly pieceReads: (PieceReads & { posts: boolean })[] = [];

  constructor(private readonly reads?: PageReads) {}

  marker(key: string, make: () => string): string {
    let i = this.index.get(key);
    const reads = this.reads;
    if (i === undefined) {
      reads?.enterPiece();
      let piece: Buffer;
      try {
        piece = this.assemble(make()); // a piece may hold pieces
      } finally {
        this.pieceReads[this.bytes.length] = reads?.leavePiece() ?? { texts: [], all: false, posts: false };
      }
      i = this.bytes.push(piece) - 1;
      this.ids.push(key);
      this.index.set(key, i);
    }
    const made = this.pieceReads[i]!;
    if (reads) {
      if (made.posts) reads.posts = true;
      if (reads.inPiece) reads.addPiece(made);
    }
    return `${this.open}${i}-->`;
  }

  made(): [string, PieceReads & { posts: boolean }][] {
    return this.ids.map((id, n) => [id, this.pieceReads[n]!]);
  }

  bytesOf(id: string): Buffer | undefined {
    const i = this.index.get(id);
    return i === undefined ? undefined : this.bytes[i];
  }

  /** `html` with every marker replaced by its piece, as UTF-8 bytes; `placed` gets [piece, start, end] of each. */
  assemble(html: string, placed?: number[]): Buffer {
    const { parts, bytes } = this.parts(html, placed);
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, bytes);
  }

  /** `assemble`'s bytes as parts in order: the page's own, encoded, and each piece's shared buffer. */
  parts(html: string, placed?: number[]): { parts: Uint8Array[]; bytes: number } {
    return pageParts(html, this, placed);
  }
}

const piecesCache = new WeakMap<RenderEnv, Pieces>();
function piecesOf(env: RenderEnv): Pieces {
  let pieces = piecesCache.get(env);
  if (!pieces) piecesCache.set(env, (pieces = new Pieces(env.reads)));
  return pieces;
}
