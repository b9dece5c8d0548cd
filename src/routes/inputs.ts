/**
 * What each route reads: the dependency graph `site build` and `site watch` share. Every route gets
 * a key, a hash of the inputs its page is made from; a route whose key is the same as when its file
 * was written would be rendered to the same bytes, so its file is kept (watch) or carried over
 * (build) instead. The graph, as rules (generic: any site's templates follow them):
 * - every route: the site-wide content (site.yaml, pages.yaml, redirects, draft and language
 *   lists, the build's date, the paths of the pages that are not posts' or lists': any page may
 *   link them), the texts of its language and the data kinds it read when last rendered (the
 *   facts a text names with it; render/reads.ts; not known: the whole table and all the data), the
 *   texts other languages' pages also read (`lang.name` and what the model's `sharedText` names)
 *   and their facts, its hreflang alternates, and the caller's `code` (templates, client,
 *   generator, options). What every page links (compiled templates, client bundle, image table:
 *   `assetsKey`) the build compares as a whole;
 * - a page made from a data entry (the model's entryPages): that entry; a redirect stub to a post:
 *   the post without its body (render/head.ts titles the stub as its target);
 * - a post: its body (by digest: content/post-body.ts), where its links go (render/post-refs.ts), and
 *   its versions in every language without their bodies (hreflang; a
 *   version's preview image may be another's, through `site.postImages`);
 * - a blog list or category page: its slice of posts without their bodies, and where it sits
 *   among its pages;
 * - a page that read the list of posts or the whole route table when it was last rendered (the
 *   render notes it: render/page.ts), or any page when that is not known: every post without its
 *   body, and every other route as it is (with its data entry). Its key is taken again once it is
 *   rendered, with what it read this time.
 * So an edit of post files that leaves every post the same as other pages see it changes only the
 * edited posts' own pages: `afterBodyEdits` keys those alone, the others keep their recorded keys
 * (the record holds each post's metadata digest to tell).
 * A template reading what these rules leave out would leave pages stale:
 * tests/integration/incremental-random.test.ts compares random edit sequences with cold builds,
 * file by file, to hold the rules to the templates.
 */
import { hash } from 'node:crypto';
import type { Post, Site, SiteModel } from '../content/model.ts';
import { bodyDigest } from '../content/post-body.ts';
import { postLinkTargets } from '../render/post-refs.ts';
import { DATA_READ, FACTS_READ, type TextList } from '../render/reads.ts';
import { translateReferences } from '../content/facts.ts';
import type { Route, RouteTable } from './table.ts';

// One-shot hashing of one joined string: half the cost of a Hash object per route (4,700 routes).
const hashOf = (...parts: string[]) => hash('sha256', parts.join('\0'), 'base64url').slice(0, 22);

/** Where a route sits and what it forwards to. */
const whereOf = (r: Route) => `${r.kind}\0${r.path}\0${r.template}\0${r.canonical}\0${r.target}\0${r.source}\0${r.category}`;

/** A post as lists and other pages see it: everything but its body (which is not read for this). */
function postMeta(post: Post, site: Site): string {
  const meta: Record<string, unknown> = {};
  for (const k of Object.keys(post) as (keyof Post)[]) if (k !== 'body') meta[k] = post[k];
  return JSON.stringify([meta, site.postImages?.[post.file]]);
}

/**
 * A text table's hash, once per table object: a watch session keeps an unchanged file's table
 * (content/load.ts flatTable), and hashing five tables of ~600 texts was ~1.5 ms of each rebuild.
 */
function tableKey(table: Readonly<Record<string, string>>): string {
  let key = tableKeys.get(table);
  if (key === undefined || !Object.isFrozen(table)) tableKeys.set(table, (key = hashOf(JSON.stringify(table))));
  return key;
}
const tableKeys = new WeakMap<object, string>();

/** Each text list's key by language, with the key of the whole table it was taken with (`InputKeys.textsKey`). */
const listKeys = new WeakMap<TextList, Map<string, [whole: string, key: string]>>();

/** What a piece read when it was made (render/reads.ts): its texts (undefined: every text of its language), and whether it read the list of posts. */
export interface PieceInputs {
  texts: TextList | undefined;
  posts: boolean;
}

/**
 * The keys of one build's routes and pieces (what is hashed for all of them is hashed once).
 * `readsPosts`: whether a page read the list of posts when last rendered (unknown: it did).
 * `textsOf`: the texts a page read when last rendered (render/reads.ts); unknown: every text of its
 * language, as a page rendered by an earlier version is keyed.
 */
export class InputKeys {
  private made?: {
    /** Site-wide content but the data kinds and facts: what a page that noted its reads is keyed on. */
    base: string;
    /** Everything site-wide: what a page whose reads are not known is keyed on. */
    global: string;
    sharedKey: string;
    dataKeys: Map<string, string>;
    factsKey: string;
    langKey: Map<string, string>;
    /** The routes that are not posts' or lists' (a page links them). */
    others: Route[];
  };
  private readonly deps = new Map<string, (string | null)[]>();
  /** Each post as other pages see it (postMeta), made when first asked: a build keying a few routes makes a few. */
  private readonly metas = new Map<Post, string>();
  private listedKey?: string;
  private slugs?: Map<string, Post[]>;

  /** Nothing is hashed until a key is asked for (a build rendering every page asks after rendering). */
  constructor(
    private readonly site: Site,
    private readonly routes: RouteTable,
    private readonly model: SiteModel,
    private readonly code: string,
  ) {}

  /** What every key holds, hashed once. */
  private get base(): NonNullable<InputKeys['made']> {
    if (this.made) return this.made;
    const { site, model } = this;
    const { locate: _locate, texts, posts: _posts, postImages: _images, data, facts, ...rest } = site;
    // Site-wide content: everything in the site but its texts, posts, data kinds and facts, and the
    // routes that are not posts' (a page links them: their paths come from pages.yaml and the data).
    const others = this.routes.routes.filter((r) => r.kind !== 'post' && r.kind !== 'blog' && r.kind !== 'category');
    const pages = others.map((r) => `${r.file}\0${r.path}\0${r.key}\0${r.kind}`);
    const base = hashOf(this.code, JSON.stringify(rest), ...pages);
    const factsKey = hashOf(JSON.stringify(facts));
    const global = hashOf(base, JSON.stringify(data), factsKey);
    // Texts other languages' pages read too (and what the facts they name show): one key for all of them.
    const shared: string[] = [];
    for (const lang of site.languages) {
      const table = texts[lang] ?? {};
      for (const [k, v] of Object.entries(table)) if (k === 'lang.name' || model.sharedText?.(k, lang, site)) shared.push(lang, k, v, JSON.stringify(this.depsOf(lang, k, table)));
    }
    const sharedKey = hashOf(...shared);
    const langKey = new Map(site.languages.map((lang) => [lang, hashOf(global, sharedKey, tableKey(texts[lang] ?? {}))]));
    return (this.made = { base, global, sharedKey, dataKeys: new Map(), factsKey, langKey, others });
  }

  /** A post as other pages see it (everything but its body). */
  private metaOf(post: Post): string {
    let meta = this.metas.get(post);
    if (meta === undefined) this.metas.set(post, (meta = postMeta(post, this.site)));
    return meta;
  }

  /** Every post without its body, and every other route as it is (its entry too): what a page listing the posts or the route table reads. */
  private get listed(): string {
    // A page reading the route table (an admin list of landings) sees what its routes carry.
    return (this.listedKey ??= hashOf(...this.site.posts.map((p) => this.metaOf(p)), '\0routes', ...this.base.others.map((r) => `${whereOf(r)}\0${JSON.stringify(r.entry ?? null)}`)));
  }

  /** A digest of each post as other pages see it, by file (recorded: `afterBodyEdits` compares the edited posts' with it). */
  metaDigests(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const p of this.site.posts) out[p.file] = hashOf(this.metaOf(p));
    return out;
  }

  /**
   * The keys after an edit of post files that changed no post as other pages see it: `before`
   * (the recorded keys) holds for every route but the edited posts' own pages, which are keyed
   * now. That needs the same routes as before, and each edited post's metadata (front matter, its
   * preview image) and its versions' digesting as recorded in `metasBefore` (a post left out
   * before and now, a draft, has none). Undefined when that does not hold: the caller keys every route. A post
   * page's key holds its versions' metadata, where its links go and its body's digest (`own`); a
   * list's, the metadata of its posts; a page reading the list of posts, all of them: so only the
   * edited posts' own pages can change. Hashing every route's inputs was ~60-80 ms of a one-post
   * rebuild at 4,700 routes.
   */
  afterBodyEdits(before: Readonly<Record<string, string>> | ReadonlyMap<string, string>, metasBefore: (file: string) => string | undefined, edited: ReadonlySet<string>, readsPosts: (file: string) => boolean, textsOf?: (file: string) => TextList | undefined): Map<string, string> | undefined {
    const { routes } = this.routes;
    const keys = new Map(before instanceof Map ? before : Object.entries(before));
    if (routes.length !== keys.size || !routes.every((r) => keys.has(r.file))) return undefined;
    const published = new Set<string>();
    for (const p of this.site.posts) {
      if (!edited.has(p.file)) continue;
      // Its versions too: a version without an image of its own shows another's (site.postImages).
      for (const v of this.bySlug.get(p.slug) ?? []) {
        const was = metasBefore(v.file);
        if (was === undefined || hashOf(this.metaOf(v)) !== was) return undefined;
      }
      published.add(p.file);
    }
    // An edited file that holds no published post now must not have held one before.
    for (const f of edited) if (!published.has(f) && metasBefore(f) !== undefined) return undefined;
    for (const r of routes) if (r.kind === 'post' && published.has(r.post!.file)) keys.set(r.file, this.route(r, readsPosts(r.file), textsOf?.(r.file)));
    return keys;
  }

  /** The digest `metaDigests` gives the post of `file` (undefined: no published post there), made for that post alone. */
  metaDigest(file: string): string | undefined {
    const slug = file.split('/')[1];
    const post = slug === undefined ? undefined : this.bySlug.get(slug)?.find((p) => p.file === file);
    return post && hashOf(this.metaOf(post));
  }

  /** The key of every route by output file. */
  all(readsPosts?: (file: string) => boolean, textsOf?: (file: string) => TextList | undefined): Map<string, string> {
    const keys = new Map<string, string>();
    for (const r of this.routes.routes) keys.set(r.file, this.route(r, !readsPosts || readsPosts(r.file), textsOf?.(r.file)));
    return keys;
  }

  /** One route's key: `readsPosts`, whether its page reads the list of posts; `texts`, the texts it reads (undefined: all). */
  route(r: Route, readsPosts: boolean, texts: TextList | undefined): string {
    const alternates = [...this.routes.alternates(r)].join('\0');
    // A page that read the list of posts or the route table when last rendered (or any page, when that is not known) depends on every post and route.
    const all = readsPosts ? this.listed : '';
    return hashOf(this.textsKey(r.lang, texts), whereOf(r), alternates, all, ...this.own(r));
  }

  /**
   * A piece's key (`id`: `lang\0key`, render/page.ts): the site-wide content, the texts it read,
   * the list of posts if it read it. Pages showing it get its bytes spliced in when only this changed.
   */
  piece(id: string, made: PieceInputs): string {
    const lang = id.slice(0, id.indexOf('\0'));
    return hashOf('piece', id, this.textsKey(lang, made.texts), made.posts ? this.listed : '');
  }

  /** Site-wide content and the texts of `lang` read (`texts`; undefined: all of them). */
  private textsKey(lang: string, texts: TextList | undefined): string {
    const { langKey, global, sharedKey } = this.base;
    if (!texts || !langKey.has(lang)) return langKey.get(lang) ?? global;
    // Kept with the list while the whole table and the site-wide content are the same (a watch
    // session's lists outlive its rebuilds: a post edit hashes no text again).
    const whole = langKey.get(lang)!;
    let byLang = listKeys.get(texts);
    if (!byLang) listKeys.set(texts, (byLang = new Map()));
    const kept = byLang.get(lang);
    if (kept?.[0] === whole) return kept[1];
    const table = this.site.texts[lang] ?? {};
    // The locale formats every text; a text shows the facts it names, and a list fact the texts it
    // lists (content/facts.ts). Data kinds and facts read from the site are noted as texts (reads.ts).
    const read = texts.map((k) => (k.startsWith(DATA_READ) ? [k, this.dataKey(k.slice(DATA_READ.length))] : k === FACTS_READ ? [k, this.base.factsKey] : [k, table[k] ?? null, ...this.depsOf(lang, k, table)]));
    const key = hashOf(this.base.base, sharedKey, JSON.stringify([table['lang.locale'] ?? null, read]));
    byLang.set(lang, [whole, key]);
    return key;
  }

  /** What a text's facts show (a `{kind:id}` fact's value; a list fact's, the texts it lists), in `lang`. */
  private depsOf(lang: string, key: string, table: Readonly<Record<string, string>>): (string | null)[] {
    const raw = table[key];
    if (raw === undefined || !raw.includes(':')) return [];
    const memo = `${lang}\0${key}`;
    let deps = this.deps.get(memo);
    if (!deps) {
      // The facts' values first, then the texts the list facts show (one parse of the text).
      const facts = [...translateReferences(raw).refs.values()].map((ref) => this.site.facts[ref]);
      deps = facts.map((fact) => JSON.stringify(fact ?? null));
      for (const fact of facts) if (fact?.kind === 'list') for (const item of fact.items) for (const k of item) deps.push(table[k] ?? null);
      this.deps.set(memo, deps);
    }
    return deps;
  }

  /** A data kind's key: its whole value. */
  private dataKey(kind: string): string {
    const { dataKeys } = this.base;
    let key = dataKeys.get(kind);
    if (key === undefined) dataKeys.set(kind, (key = hashOf(JSON.stringify((this.site.data as Record<string, unknown>)[kind] ?? null))));
    return key;
  }

  /** The site's posts by slug (a post's versions in every language). */
  private get bySlug(): Map<string, Post[]> {
    if (!this.slugs) {
      this.slugs = new Map();
      for (const p of this.site.posts) (this.slugs.get(p.slug) ?? this.slugs.set(p.slug, []).get(p.slug)!).push(p);
    }
    return this.slugs;
  }

  private own(r: Route): string[] {
    // A page made from a data entry shows it without reading its kind from `site.data`.
    if (r.entry) return [JSON.stringify(r.entry)];
    // A redirect stub is titled as its target (render/head.ts routeTitle): a post's title is its own.
    if (r.kind === 'redirect') {
      const target = r.target === undefined ? undefined : this.routes.byPath.get(r.target);
      return target?.post ? [this.metaOf(target.post)] : [];
    }
    if (r.kind === 'post') return [bodyDigest(r.post!), postLinkTargets(this.routes, r.post!), ...(this.bySlug.get(r.post!.slug) ?? []).map((p) => this.metaOf(p))];
    if (r.list) return [`${r.list.page}/${r.list.pages}/${r.list.first}`, ...r.list.posts.map((p) => this.metaOf(p))];
    return [];
  }
}

/**
 * The key of every route by output file. `code` keys what is not content (templates, client
 * bundle, images, generator, options); the caller passes it so a change there changes every key.
 */
export function routeKeys(site: Site, routes: RouteTable, model: SiteModel, code: string, readsPosts?: (file: string) => boolean, textsOf?: (file: string) => TextList | undefined): Map<string, string> {
  return new InputKeys(site, routes, model, code).all(readsPosts, textsOf);
}

/**
 * The key of what every page is made with besides content: compiled templates, bundled assets, the
 * image table (by path: images finish encoding in any order).
 */
export function assetsKey(templatesCode: string, assets: object, images: Readonly<Record<string, unknown>>): string {
  const table = Object.keys(images).sort().map((k) => [k, images[k]]);
  return hashOf(templatesCode, JSON.stringify(assets, (_k, v: unknown) => (typeof v === 'function' ? undefined : v)), JSON.stringify(table));
}

/**
 * Which pages read the list of posts after a render: the rendered ones as they did now
 * (`readNow`), the others as before. `changed`: not what `before` said (or nothing was known), so
 * the keys, which assumed `before`, are taken again.
 */
export function readsAfterRender(routes: readonly Route[], rendered: (route: Route) => boolean, before: ReadonlySet<string> | undefined, readNow: readonly string[]): { reads: Set<string>; changed: boolean } {
  const reads = new Set(readNow);
  for (const r of routes) if (!rendered(r) && before?.has(r.file)) reads.add(r.file);
  const changed = !before || reads.size !== before.size || [...reads].some((f) => !before.has(f));
  return { reads, changed };
}
