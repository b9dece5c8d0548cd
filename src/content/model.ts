/**
 * The typed, frozen model of a site, assembled from `content/`. What is generic lives here (the
 * config every site has, pages, posts, redirects, texts); a site's own data kinds (a shop's
 * products, a hotel's rooms…) are declared by the site's model module beside its templates
 * (`templates/model/index.ts`, see `SiteModel`) and arrive as `site.data`.
 */
import type { z } from 'zod';
import type * as S from './schema.ts';
import type { Fact } from './facts.ts';

export type SiteConfig = z.output<typeof S.siteSchema>;
export type PageDef = z.output<typeof S.pagesSchema>[number];
export type BlogConfig = z.output<typeof S.blogSchema>;
export type Redirect = z.output<typeof S.redirectsSchema>[number];

/** One blog post in one language. */
export interface Post {
  slug: string;
  lang: string;
  title: string;
  excerpt: string;
  date: string;
  updated?: string;
  category: string;
  author: string;
  tags: string[];
  draft: boolean;
  /** The markdown body as written (rendered per page by the render stage: `ctx.postBody`). */
  body: string;
  /** Content-relative source path. */
  file: string;
}

/** A site's own data: kind → validated value (the kinds its model declares). */
export type SiteData = Record<string, unknown>;
/** Fields a site's model adds to site.yaml. */
export type ConfigExtension = Record<string, unknown>;

/** Everything the routes and templates know about the site. */
export interface Site<D = SiteData, C = ConfigExtension> {
  config: SiteConfig & C;
  languages: readonly string[];
  defaultLanguage: string;
  /** Flattened text tables per language (only the enabled languages). */
  texts: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Per language, the keys still marked untranslated (content/untranslated.ts); their text shows meanwhile. */
  untranslated: Readonly<Record<string, readonly string[]>>;
  /** Text key prefixes (`city.lisbon.`) of the draft entries this build leaves out: not checked for translation. */
  leftOutTexts?: readonly string[];
  pages: readonly PageDef[];
  blog: BlogConfig;
  /** Published posts (drafts and scheduled posts only with --drafts), newest first. */
  posts: readonly Post[];
  redirects: readonly Redirect[];
  /** The site's own data kinds, as its model declares them. */
  data: D;
  /** How the site's own data makes routes (from its model; plain data, so page workers get it too). */
  routing: Routing;
  /** The content image every page shares as its preview (og:image), if the model names one. */
  socialImage?: string;
  /**
   * Each post's own preview image (og:image, in place of socialImage), by post file: the first
   * image of its body, else of its default-language version's. Set by the route stage, which reads
   * the posts' images.
   */
  postImages?: Readonly<Record<string, PostImage>>;
  /** Facts texts reference by name (`{price:hour}` → `price:hour`), from the model's `facts`. */
  facts: Readonly<Record<string, Fact>>;
  /** The build's date, YYYY-MM-DD (SOURCE_DATE_EPOCH or the clock). */
  today: string;
  /** Line and column of a field in a content YAML file, for diagnostics found after loading. */
  locate(file: string, path: readonly PropertyKey[]): { line: number; column: number } | undefined;
}

/** The model's route declarations, evaluated for this content. */
export interface Routing {
  entryPages: readonly { data: string; template: string }[];
  landings?: { data: string; prefix: string };
  /** Values of `{name}` placeholders in pages.yaml paths. */
  params: Readonly<Record<string, string>>;
  /** The content file of each data kind, for diagnostics. */
  files?: Readonly<Record<string, string>>;
}

/** A place in the content: a file and the path of a field inside it (`['rooms', 2, 'phone']`). */
export interface ContentRef {
  file: string;
  path?: readonly (string | number)[];
}

/** How a model reports problems: file, line and field are filled in from `at`. */
export interface Report {
  error(at: ContentRef, message: string, code?: string): void;
  /** `details`: the whole list behind a short message, printed with --verbose. */
  warn(at: ContentRef, message: string, code?: string, details?: readonly string[]): void;
}

/** What a model's reference checks see: whatever loaded (a file that failed to load is undefined). */
export interface LoadedParts<D = SiteData, C = ConfigExtension> {
  config?: SiteConfig & C;
  pages?: readonly PageDef[];
  data: Partial<D>;
  texts: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** One data kind: the content file it lives in and the schema it must satisfy. */
export interface DataKind<T = unknown> {
  file: string;
  schema: z.ZodType<T>;
  /** For a list: the field every entry must hold a different value in (`id`). */
  unique?: string;
  /**
   * For a list: the text groups each entry owns, as `<group>.<id>.…` (a city's `city` and `page`).
   * A draft entry left out of a build leaves them out too: their untranslated marks and missing
   * keys are not the build's warnings.
   */
  texts?: readonly string[];
}

/** A content image some page shows, and where the content names it. */
export interface ImageRef {
  file: string;
  at: ContentRef;
  /**
   * What its published files are named after: the image's id or key in the site's data
   * (`room-1` → `/assets/img/room-1-800.<hash>.webp`), made URL-safe, and never the
   * source file's name (a phone's `IMG_20250312_184455.jpg` tells when it was taken). Without one
   * the files are named `image`.
   */
  name?: string;
}

/** The image a post is shared with (og:image): a file under content/images and its alt text. */
export interface PostImage {
  file: string;
  alt: string;
}

/** Options of a `site new <kind>` command the model adds (commander flag syntax). */
export interface ScaffoldOption {
  flags: string;
  description: string;
  required?: boolean;
  default?: string;
}

/** `site new <kind> <id>`: adds an entry of the site's own data (a room) to the content folder. */
export interface Scaffold {
  description: string;
  options?: readonly ScaffoldOption[];
  /** Writes the content files; returns the files changed and what to do next. Throws UsageError on bad input. */
  run(contentDir: string, id: string, options: Record<string, string | undefined>): { files: string[]; next: string };
}

/**
 * A site's model: its data kinds and what the generator does with them. Every hook is optional;
 * a site without a model has only the generic content (site.yaml, pages, posts, redirects, texts).
 */
export interface SiteModel<D extends SiteData = SiteData, C extends ConfigExtension = ConfigExtension> {
  /** Fields this site adds to site.yaml (a zod object shape). */
  config?: Record<string, z.ZodType>;
  /** The site's data kinds, each one YAML file under the content folder. */
  data: { [K in keyof D]: DataKind<D[K]> };
  /** Values for `{name}` placeholders in pages.yaml paths (`/p/{slug}`). */
  pathParams?(config: SiteConfig & C): Record<string, string>;
  /** Lists whose every entry is a page in every language: entries have `id` (the page id) and `path`. */
  entryPages?: readonly { data: keyof D & string; template: string }[];
  /** A list whose entries are landing pages at `<prefix><slug>` forwarding to `to`, tagged with `source`. */
  landings?: { data: keyof D & string; prefix: string };
  /**
   * Facts texts may reference, by kind (`price` → `{price:<id>}`): each returns the kind's facts,
   * or undefined when its source did not load (its references are then not checked).
   */
  facts?: Record<string, FactSource<D, C>>;
  /** Cross-file checks (references by id): run on whatever loaded, so one run reports them all. */
  check?(parts: LoadedParts<D, C>, report: Report): void;
  /** Content warnings on the loaded site (stale dates, samples still in use). */
  warnings?(site: Site<D, C>, report: Report): void;
  /** The content images the site's pages show (they are encoded and published; a missing one is an error). */
  images?(site: Site<D, C>): readonly ImageRef[];
  /** The image shared as every page's preview (og:image). */
  socialImage?(site: Site<D, C>): string | undefined;
  /** True when text `key` of `lang` is read by every language's pages (watch then re-renders all of them). */
  sharedText?(key: string, lang: string, site: Site<D, C>): boolean;
  /** `site new <kind>` commands for the site's own data. */
  scaffolds?: Record<string, Scaffold>;
}

/** One kind of fact (declared as a method, so a model typed for its own data is still a SiteModel). */
export type FactSource<D = SiteData, C = ConfigExtension> = { collect(parts: LoadedParts<D, C>): Record<string, Fact> | undefined }['collect'];

/** Declare a site's model (an identity function that checks the shape and carries the types). */
export function defineModel<D extends SiteData, C extends ConfigExtension = ConfigExtension>(model: SiteModel<D, C>): SiteModel<D, C> {
  return model;
}
