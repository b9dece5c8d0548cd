/** Stage "load": read every content file, validate it, and assemble the Site model. */
import { promises as fs, readdirSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { type Diagnostics } from '../diagnostics.ts';
import * as S from './schema.ts';
import type { Post, Site } from './model.ts';
import { parseYaml, type YamlFile } from './yaml.ts';
import { validate } from './validate.ts';
import { flattenTexts } from './texts.ts';
import { checkReferences } from './references.ts';
import { readContentText, readContentTextSync } from './read.ts';
import { collectFacts, unavailableKinds } from './facts.ts';
import { checkMessages } from './message-checks.ts';
import { takeUntranslated } from './untranslated.ts';

export interface LoadOptions {
  contentDir: string;
  /** Overrides site.yaml's baseUrl (`--base-url`). */
  baseUrl?: string;
  /** Include drafts and posts dated after `today`. */
  drafts: boolean;
  /** YYYY-MM-DD. */
  today: string;
  /** Parse results of the previous load (watch mode): unchanged files are not parsed again. */
  cache?: ParseCache;
  /**
   * Called when other files have errors but the site's routes can still be worked out (config,
   * pages, blog, redirects, directories, cities loaded): the build checks references then, so one run
   * reports them with the schema errors. `site` is partial: only those parts are set.
   */
  onRoutable?: (site: Site) => void;
  /** Called with every published post as it is loaded (the build hands bodies to its markdown helper). */
  onPost?: (post: Post) => void;
}

/** Per content file: the source last parsed and what parsing it gave. */
export type ParseCache = Map<string, { source: string; value: unknown }>;

/** Parse `source` of `rel` once per distinct text; failures are never cached (they report again). */
function memo<T>(cache: ParseCache | undefined, rel: string, source: string, parse: () => T | undefined): T | undefined {
  const hit = cache?.get(rel);
  if (hit && hit.source === source) return hit.value as T;
  const value = parse();
  if (value !== undefined) cache?.set(rel, { source, value });
  return value;
}

/** The data files and their schemas; each must exist. */
export const DATA_FILES = {
  blog: ['data/blog.yaml', S.blogSchema],
  redirects: ['data/redirects.yaml', S.redirectsSchema],
  directories: ['data/directories.yaml', S.directoriesSchema],
  services: ['data/services.yaml', S.servicesSchema],
  rates: ['data/rates.yaml', S.ratesSchema],
  booking: ['data/booking.yaml', S.bookingSchema],
  venues: ['data/venues.yaml', S.venuesSchema],
  gallery: ['data/gallery.yaml', S.gallerySchema],
  reviews: ['data/reviews.yaml', S.reviewsSchema],
  cta: ['data/cta.yaml', S.ctaSchema],
  cities: ['data/cities.yaml', S.citiesSchema],
  health: ['data/health.yaml', S.healthSchema],
  business: ['data/business.yaml', S.businessSchema],
  legal: ['data/legal.yaml', S.legalSchema],
  tracking: ['data/tracking.yaml', S.trackingSchema],
} as const;

type DataKey = keyof typeof DATA_FILES;
type DataModel = { [K in DataKey]: z.output<(typeof DATA_FILES)[K][1]> };

function readText(contentDir: string, rel: string, diags: Diagnostics): Promise<string | undefined> {
  return readContentText(path.join(contentDir, rel), rel, diags);
}

async function loadYaml<Sc extends z.ZodType>(
  contentDir: string,
  rel: string,
  schema: Sc,
  diags: Diagnostics,
  cache?: ParseCache,
): Promise<{ value: z.output<Sc>; file: YamlFile } | undefined> {
  const source = await readText(contentDir, rel, diags);
  if (source === undefined) return undefined;
  const file = memo(cache, rel, source, () => parseYaml(rel, source, diags));
  if (!file) return undefined;
  const value = validate(file, schema, diags);
  return value === undefined ? undefined : { value, file };
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).sort();
  } catch {
    return [];
  }
}

function listDirSync(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** Read and validate everything; returns undefined when any error was reported. */
export async function loadSite(opts: LoadOptions, diags: Diagnostics): Promise<Site | undefined> {
  const { contentDir } = opts;
  const [siteFile, pagesFile, ...data] = await Promise.all([
    loadYaml(contentDir, 'site.yaml', S.siteSchema, diags, opts.cache),
    loadYaml(contentDir, 'pages.yaml', S.pagesSchema, diags, opts.cache),
    ...Object.values(DATA_FILES).map(([rel, schema]) => loadYaml(contentDir, rel, schema as z.ZodType, diags, opts.cache)),
  ]);
  const model = Object.fromEntries(Object.keys(DATA_FILES).map((k, i) => [k, data[i]?.value])) as DataModel;
  const files = Object.fromEntries(Object.keys(DATA_FILES).map((k, i) => [k, data[i]?.file])) as Record<
    DataKey,
    YamlFile | undefined
  >;

  const config = siteFile?.value;
  const texts: Record<string, Record<string, string>> = {};
  const textFiles: Record<string, YamlFile> = {};
  const untranslated: Record<string, string[]> = {};
  if (config) {
    const at = (field: string) => ({ file: 'site.yaml', ...siteFile.file.locate(field.split('.')), field });
    if (!config.languages.includes(config.defaultLanguage)) {
      diags.error({
        code: 'language',
        ...at('defaultLanguage'),
        message: `default language "${config.defaultLanguage}" is not in languages (${config.languages.join(', ')})`,
      });
    }
    const seen = new Set<string>();
    config.languages.forEach((lang, i) => {
      if (seen.has(lang))
        diags.error({ code: 'language', ...at(`languages.${i}`), field: `languages[${i}]`, message: `duplicate language "${lang}"` });
      seen.add(lang);
    });
    const available = (await listDir(path.join(contentDir, 'i18n'))).filter((f) => f.endsWith('.yaml'));
    await Promise.all(
      config.languages.map(async (lang, i) => {
        const rel = `i18n/${lang}.yaml`;
        if (!available.includes(`${lang}.yaml`)) {
          diags.error({
            code: 'language',
            ...at(`languages.${i}`),
            field: `languages[${i}]`,
            message: `unknown language code "${lang}": there is no text table ${rel} (available: ${available.map((f) => f.replace('.yaml', '')).join(', ') || 'none'})`,
          });
          return;
        }
        const source = await readText(contentDir, rel, diags);
        const file = source === undefined ? undefined : memo(opts.cache, rel, source, () => parseYaml(rel, source, diags));
        if (!file) return;
        textFiles[lang] = file;
        texts[lang] = flattenTexts(file.data, (key, value) => {
          const pos = file.locate(key.split('.'));
          diags.error({ code: 'schema', file: rel, ...pos, field: key, message: `expected a text or a group of texts, found ${JSON.stringify(value)}` });
        });
        checkLocale(file, texts[lang]['lang.locale'], diags);
        untranslated[lang] = takeUntranslated(texts[lang]);
      }),
    );
    if (opts.baseUrl) config.baseUrl = opts.baseUrl;
    config.baseUrl = config.baseUrl.replace(/\/+$/, '');
  }

  const posts = config && model.blog ? await loadPosts(opts, config.languages, model.blog.categories, diags) : [];
  crossCheck(model, files, config, pagesFile?.value, pagesFile?.file, diags);
  const byPath = new Map([...Object.values(files), pagesFile?.file].filter((f): f is YamlFile => !!f).map((f) => [f.file, f]));
  checkReferences({ ...model, pages: pagesFile?.value, texts, files: byPath }, diags);
  if (config) {
    const sources = { rates: model.rates, booking: model.booking, health: model.health, tracking: model.tracking, contact: config.contact };
    checkMessages({ texts, files: textFiles, defaultLanguage: config.defaultLanguage, facts: collectFacts(sources), unavailable: unavailableKinds(sources) }, diags);
  }

  if (diags.hasErrors() && config && pagesFile && model.blog && model.redirects && model.directories && model.cities && siteFile) {
    const locate = (file: string, p: readonly PropertyKey[]) => (file === 'pages.yaml' ? pagesFile.file : Object.values(files).find((f) => f?.file === file))?.locate(p);
    const { blog, redirects, directories, cities } = model;
    opts.onRoutable?.({ config, languages: config.languages, defaultLanguage: config.defaultLanguage, pages: pagesFile.value, posts, blog, redirects, directories, cities, locate } as unknown as Site);
  }
  if (diags.hasErrors() || !config || !pagesFile) return undefined;
  const located = new Map<string, YamlFile>([[siteFile.file.file, siteFile.file], [pagesFile.file.file, pagesFile.file]]);
  for (const f of Object.values(files)) if (f) located.set(f.file, f);
  return deepFreeze({
    locate: (file: string, p: readonly PropertyKey[]) => located.get(file)?.locate(p),
    config,
    languages: config.languages,
    defaultLanguage: config.defaultLanguage,
    texts,
    untranslated,
    pages: pagesFile.value,
    posts,
    today: opts.today,
    ...model,
  }) as Site;
}

/**
 * `lang.locale` of a text table must be a locale tag Intl accepts: checked here, once, naming the
 * file and line, instead of failing every page's number and date formatting at render.
 */
function checkLocale(file: YamlFile, locale: string | undefined, diags: Diagnostics): void {
  const where = { file: file.file, ...file.locate(['lang', 'locale']), field: 'lang.locale' };
  if (locale === undefined) {
    diags.error({ code: 'locale', ...where, message: 'missing: each text table names its locale (lang.locale), such as en-GB or es-ES' });
    return;
  }
  try {
    Intl.getCanonicalLocales(locale);
    new Intl.NumberFormat(locale);
  } catch (err) {
    diags.error({ code: 'locale', ...where, message: `"${locale}" is not a locale tag (${(err as Error).message}): write one such as en-GB or es-ES` });
  }
}

/** Checks between files that no single schema can see. */
function crossCheck(
  model: Partial<DataModel>,
  files: Record<DataKey, YamlFile | undefined>,
  config: z.output<typeof S.siteSchema> | undefined,
  pages: z.output<typeof S.pagesSchema> | undefined,
  pagesFile: YamlFile | undefined,
  diags: Diagnostics,
): void {
  const dup = (list: readonly { id?: string; slug?: string }[] | undefined, file: YamlFile | undefined, key: 'id' | 'slug') => {
    if (!list || !file) return;
    const seen = new Map<string, number>();
    list.forEach((item, i) => {
      const v = item[key];
      if (v === undefined) return;
      if (seen.has(v)) {
        diags.error({
          code: 'duplicate',
          file: file.file,
          ...file.locate([i, key]),
          field: `[${i}].${key}`,
          message: `duplicate ${key} "${v}" (first used at [${seen.get(v)}])`,
        });
      } else seen.set(v, i);
    });
  };
  dup(pages, pagesFile, 'id');
  dup(model.directories, files.directories, 'slug');
  dup(model.venues, files.venues, 'id');
  dup(model.reviews, files.reviews, 'id');
  dup(model.cities, files.cities, 'id');
  if (model.cta && files.cta && config && !config.languages.includes(model.cta.messageLanguage))
    diags.error({ code: 'language', file: files.cta.file, ...files.cta.locate(['messageLanguage']), field: 'messageLanguage', message: `"${model.cta.messageLanguage}" is not one of the site's languages (${config.languages.join(', ')})` });
  if (model.rates && files.rates) {
    const tierIds = new Set(model.rates.tiers.map((t) => t.id));
    model.business?.offers.forEach((offer, i) => {
      if (!tierIds.has(offer) && files.business)
        diags.error({
          code: 'reference',
          file: files.business.file,
          ...files.business.locate(['offers', i]),
          field: `offers[${i}]`,
          message: `"${offer}" is not a rate tier id in data/rates.yaml (${[...tierIds].join(', ')})`,
        });
    });
  }
  if (pages && pagesFile) {
    const ids = new Set(pages.map((p) => p.id));
    pages.forEach((p, i) => {
      for (const key of ['canonical', 'parent'] as const) {
        const ref = p[key];
        if (ref && !ids.has(ref))
          diags.error({ code: 'reference', file: pagesFile.file, ...pagesFile.locate([i, key]), field: `[${i}].${key}`, message: `"${ref}" is not a page id` });
      }
    });
  }
}

const POST_FILE = /^([a-z]{2,3}(?:-[A-Z]{2})?)\.md$/;

/** Blog posts: `blog/<slug>/<lang>.md`, markdown with front matter. */
async function loadPosts(
  opts: LoadOptions,
  languages: readonly string[],
  categories: readonly string[],
  diags: Diagnostics,
): Promise<Post[]> {
  const blogDir = path.join(opts.contentDir, 'blog');
  let entries: Dirent[] = [];
  try {
    entries = readdirSync(blogDir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    // no blog folder: no posts
  }
  const posts: Post[] = [];
  // Synchronous reads: thousands of small files come out of the page cache faster one after the
  // other than through the promise API's thread-pool round trips (see output/writer.ts).
  for (const entry of entries) {
    const slug = entry.name;
    // The folder entry's type, without a stat per post (a symlink is followed).
    if (!(entry.isDirectory() || (entry.isSymbolicLink() && statSync(path.join(blogDir, slug), { throwIfNoEntry: false })?.isDirectory()))) {
      diags.error({ code: 'blog', file: `blog/${slug}`, message: 'expected a folder blog/<slug>/ holding <lang>.md files' });
      continue;
    }
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug)) {
      diags.error({ code: 'blog', file: `blog/${slug}`, field: 'slug', message: 'a post folder name is its URL slug: lowercase letters, digits and single hyphens' });
      continue;
    }
    for (const name of listDirSync(path.join(blogDir, slug))) {
      const rel = `blog/${slug}/${name}`;
      const m = POST_FILE.exec(name);
      if (!m) {
        diags.error({ code: 'blog', file: rel, message: 'expected a file named <lang>.md, such as en.md' });
        continue;
      }
      const lang = m[1]!;
      if (!languages.includes(lang)) {
        diags.error({ code: 'language', file: rel, field: 'language', message: `unknown language code "${lang}" (site.yaml languages: ${languages.join(', ')})` });
        continue;
      }
      const source = readContentTextSync(path.join(blogDir, slug, name), rel, diags);
      if (source === undefined) continue;
      const post = memo(opts.cache, rel, source, () => parsePost(rel, source, diags));
      if (!post) continue;
      if (!categories.includes(post.category)) {
        diags.error({ code: 'reference', file: rel, line: 1 + lineOf(source, /^category:/m), field: 'category', message: `unknown category "${post.category}" (data/blog.yaml categories: ${categories.join(', ')})` });
        continue;
      }
      const scheduled = post.date > opts.today;
      if (scheduled) {
        diags.warn({ code: 'scheduled', file: rel, field: 'date', message: `dated ${post.date}, after today (${opts.today}): left out until then${opts.drafts ? ' (included: --drafts)' : ' (use --drafts to preview)'}` });
      }
      if ((post.draft || scheduled) && !opts.drafts) continue;
      const loaded = { ...post, slug, lang, file: rel };
      opts.onPost?.(loaded);
      posts.push(loaded);
    }
  }
  return posts.sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug) || a.lang.localeCompare(b.lang));
}

function lineOf(source: string, re: RegExp): number {
  const idx = source.search(re);
  return idx < 0 ? 0 : source.slice(0, idx).split('\n').length;
}

/** Front matter between a first line `---` and the next line `---`, then the markdown body. */
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)^---[ \t]*\r?$\n?/my;

/**
 * Split a post into its front matter (YAML, starting on line 2) and markdown body; undefined when
 * the front matter is not closed. Page workers use it to read the bodies of the posts they render.
 */
export function splitFrontMatter(source: string): { matter: string; body: string } | undefined {
  if (source.charCodeAt(0) === 0xfeff) source = source.slice(1); // a BOM before the first ---
  FRONT_MATTER.lastIndex = 0;
  const m = FRONT_MATTER.exec(source);
  return m ? { matter: m[1]!, body: source.slice(m[0].length) } : undefined;
}

function parsePost(rel: string, source: string, diags: Diagnostics) {
  if (!/^---\r?\n/.test(source)) {
    diags.error({ code: 'front-matter', file: rel, line: 1, message: 'a post starts with front matter between --- lines (title, excerpt, date, category, author, tags)' });
    return undefined;
  }
  const parts = splitFrontMatter(source);
  if (!parts) {
    diags.error({ code: 'front-matter', file: rel, line: 1, message: 'the front matter is not closed: add a line --- after it' });
    return undefined;
  }
  const file = parseYaml(rel, parts.matter, diags, 1);
  if (!file) return undefined;
  const fm = validate(file, S.postSchema, diags);
  return fm ? { ...fm, body: parts.body } : undefined;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
