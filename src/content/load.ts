/** Stage "load": read every content file, validate it, and assemble the Site model. */
import { createHash } from 'node:crypto';
import { existsSync, promises as fs, lstatSync, readdirSync, readFileSync, statSync, type Dirent, type Stats } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import path from 'node:path';
import { looseObject, type z } from 'zod';
import { Diagnostics } from '../diagnostics.ts';
import * as S from './schema.ts';
import type { ContentRef, LoadedParts, Post, Report, Routing, Site, SiteConfig, SiteModel } from './model.ts';
import { parseYaml, quoteHint, yamlFile, type YamlFile } from './yaml.ts';
import { fieldPath, validate } from './validate.ts';
import { flattenTexts } from './texts.ts';
import { readContentText, readContentTextSync, type ContentRoot } from './read.ts';
import type { Fact } from './facts.ts';
import { checkMessages } from './message-checks.ts';
import { takeUntranslated } from './untranslated.ts';
import { dropSiblings, ignoredName, writeFileAtomic } from '../files.ts';
import { factsOf, noteBody, soundFacts, splitFrontMatter, unreadPost, type BodyFacts } from './post-body.ts';

export interface LoadOptions {
  contentDir: string;
  /** The site's model: its data kinds and checks (an empty model: generic content only). */
  model: SiteModel;
  /** Overrides site.yaml's baseUrl (`--base-url`). */
  baseUrl?: string;
  /** Include drafts and posts dated after `today`. */
  drafts: boolean;
  /** YYYY-MM-DD. */
  today: string;
  /** Parse results of the previous load (watch mode): unchanged files are not parsed again. */
  cache?: ParseCache;
  /** Posts' parsed front matter from earlier builds (one-shot builds: `postCache`), used and filled when `cache` is not given. */
  posts?: ParseCache;
  /**
   * Called when other files have errors but the site's routes can still be worked out (config,
   * pages, blog, redirects and the data the model makes routes from loaded): the build checks references then, so one run
   * reports them with the schema errors. `site` is partial: only those parts are set.
   */
  onRoutable?: (site: Site) => void;
  /** Called with every published post as it is loaded (the build hands bodies to its markdown helper). */
  onPost?: (post: Post) => void;
  /** Folder entries the caller listed already (the input stamps), by path: taken instead of listing them again. */
  listings?: ReadonlyMap<string, Dirent[]>;
  /**
   * Each content file's stamp (one-shot builds, with `posts`): a post whose file has the stamp kept
   * with its front matter is not read; its body is read when a page needs it (`unreadPost`).
   */
  stamps?: Readonly<Record<string, string>>;
  /** Each content file's inode and change time, with `stamps`: kept with a post, and compared with it too. */
  ids?: Readonly<Record<string, string>>;
  /** Watch mode, with `cache`: what the session knows has not changed since the last load. */
  unchanged?: Unchanged;
}

/**
 * What a watch session knows has not changed since its last load. `listed`: the blog's folders as
 * listed then (the session drops those a change touched; filled by the load); `stale(rel)`: whether
 * a file may have changed since (the watcher's events). A post that has not, and is no link, is
 * taken as that load made it: its folder not listed, its file not read.
 */
export interface Unchanged {
  listed: Map<string, Dirent[]>;
  stale(rel: string): boolean;
}

/**
 * Per content file: the source last parsed and what parsing it gave. A post's entry in the kept
 * cache also holds its file's stamp and what loading knows of its body (`BodyFacts`).
 */
export type ParseCache = Map<string, CacheEntry>;
interface CacheEntry {
  source: string;
  value: unknown;
  post?: BodyFacts & { stamp: string; id: string };
  /**
   * Watch mode: the post's body and what loading knew of it, when its file was last read
   * (`LoadOptions.unchanged`), and the post made from them (taken again as it is: frozen already).
   */
  read?: { body: string; facts: BodyFacts; post?: Post };
}

/** Parse `source` of `rel` once per distinct text; failures are never cached (they report again). */
function memo<T>(cache: ParseCache | undefined, rel: string, source: string, parse: () => T | undefined): T | undefined {
  const hit = cache?.get(rel);
  // (Every parse result is an object: another value is a damaged kept cache, parsed again.)
  if (hit && hit.source === source && typeof hit.value === 'object' && hit.value !== null) return hit.value as T;
  const value = parse();
  if (value !== undefined) cache?.set(rel, { source, value });
  return value;
}

/** A Report on a loaded site (the build's later stages): fields named by id from the site's data. */
export function siteReport(site: Site, diags: Diagnostics): Report {
  const kinds = new Map(Object.entries(site.routing.files ?? {}).map(([kind, file]) => [file, kind]));
  const dataOf = (file: string) => (file === 'site.yaml' ? site.config : file === 'pages.yaml' ? site.pages : kinds.has(file) ? site.data[kinds.get(file)!] : undefined);
  return modelReport(diags, site.locate, dataOf);
}

/** The generator's own data files (a site's model adds its kinds). */
const CORE_FILES = {
  blog: ['data/blog.yaml', S.blogSchema],
  redirects: ['data/redirects.yaml', S.redirectsSchema],
} as const;

/** Every YAML file the site's content is made of: the generator's and the model's, with their schemas. */
export function dataFiles(model: SiteModel): { key: string; file: string; schema: z.ZodType; unique?: string; texts?: readonly string[]; core: boolean }[] {
  return [
    ...Object.entries(CORE_FILES).map(([key, [file, schema]]) => ({ key, file, schema: schema as z.ZodType, core: true })),
    ...Object.entries(model.data).map(([key, kind]) => ({ key, file: kind.file, schema: kind.schema as z.ZodType, unique: kind.unique, texts: kind.texts, core: false })),
  ];
}

/** A Report for a model's hooks: fills in line, column and a readable field from the parsed files. */
export function modelReport(diags: Diagnostics, locate: (file: string, p: readonly PropertyKey[]) => { line: number; column: number } | undefined, dataOf: (file: string) => unknown = () => undefined): Report {
  const at = (ref: ContentRef) => ({
    file: ref.file,
    ...(ref.path && { ...locate(ref.file, ref.path), field: fieldPath(ref.path, dataOf(ref.file)) }),
  });
  return {
    error: (ref, message, code = 'reference') => diags.error({ code, ...at(ref), message }),
    warn: (ref, message, code = 'content', details) => diags.warn({ code, ...at(ref), message, ...(details && { details }) }),
  };
}

function readText(contentDir: string, rel: string, diags: Diagnostics): Promise<string | undefined> {
  return readContentText(path.join(contentDir, rel), rel, diags);
}

async function loadYaml<Sc extends z.ZodType>(
  contentDir: string,
  rel: string,
  schema: Sc,
  diags: Diagnostics,
  cache?: ParseCache,
  kept?: ParseCache,
): Promise<{ value: z.output<Sc> | undefined; file: YamlFile } | undefined> {
  const source = await readText(contentDir, rel, diags);
  if (source === undefined) return undefined;
  const file = memo(cache, rel, source, () => parseKept(rel, source, diags, kept));
  if (!file) return undefined;
  // The parsed file even when the schema fails: later checks (unique ids) still read it. A valid
  // file's value is kept between one-shot builds (`kept`, the posts' cache: the schemas are part of
  // its name): validating the data files cost every build ~25 ms. An invalid one is checked again.
  // A watch session keeps them in its parse cache, by schema too (a model edit brings new schemas).
  const key = kept ? `${VALID}${rel}` : `${VALID}${schemaId(schema)}:${rel}`;
  return { value: keptValid(kept ?? cache, key, source, () => validate(file, schema, diags)), file };
}

/** A number per schema object in this thread (a watch session's kept values name their schema). */
function schemaId(schema: object): number {
  let id = schemaIds.get(schema);
  if (id === undefined) schemaIds.set(schema, (id = ++lastSchemaId));
  return id;
}
const schemaIds = new WeakMap<object, number>();
let lastSchemaId = 0;

/**
 * What `kept` holds under `key` for this very `source`, as a copy of its own (the entry holds
 * serialized bytes); undefined when it holds nothing for it or the bytes are damaged.
 */
function keptCopy(kept: ParseCache | undefined, key: string, source: string): { value: unknown } | undefined {
  const hit = kept?.get(key);
  if (!hit || hit.source !== source || !(hit.value instanceof Uint8Array)) return undefined;
  try {
    return { value: deserialize(hit.value) };
  } catch {
    return undefined; // damaged bytes: made again (and kept anew)
  }
}

/** Keep `value` under `key` for `source`, as its bytes now (the load changes some values afterwards). */
function keepCopy(kept: ParseCache | undefined, key: string, source: string, value: unknown): void {
  try {
    kept?.set(key, { source, value: serialize(value) });
  } catch {
    // not plain data: made again next time
  }
}

/** A data file's valid value from `kept` (same source text), else `validate`'s, kept. */
function keptValid<T>(kept: ParseCache | undefined, key: string, source: string, validate: () => T | undefined): T | undefined {
  const hit = keptCopy(kept, key, source);
  if (hit) return hit.value as T;
  const value = validate();
  if (value !== undefined) keepCopy(kept, key, source, value);
  return value;
}

/** Prefix of the kept cache's entries that are a data file's valid value (the others are posts' front matter). */
const VALID = 'valid:';
/** Prefix of the kept cache's entries that are a YAML file's parsed data (text tables, data files). */
const PARSED = 'parsed:';

/**
 * `source` of `rel` parsed, or its data as an earlier one-shot build parsed it from the same text
 * (`kept`: the posts' cache). Parsing the five text tables and the data files cost every build
 * ~35 ms; reading their kept data back costs a few.
 */
function parseKept(rel: string, source: string, diags: Diagnostics, kept: ParseCache | undefined): YamlFile | undefined {
  const key = `${PARSED}${rel}`;
  const hit = keptCopy(kept, key, source);
  if (hit) return yamlFile(rel, source, hit.value);
  const file = parseYaml(rel, source, diags);
  if (file) keepCopy(kept, key, source, file.data);
  return file;
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).sort();
  } catch {
    return [];
  }
}

/** The entries of a folder that exists, by name; one that cannot be read is an error naming it (a post would vanish silently). */
function listDirSync(dir: string, rel: string, diags: Diagnostics, listings?: ReadonlyMap<string, Dirent[]>, unchanged?: Unchanged): Dirent[] {
  try {
    return [...(listings?.get(dir) ?? listedNow(dir, unchanged))].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    diags.error({ code: 'blog', file: rel, message: `cannot read this folder (${code}): its posts would be left out of every language; make it readable (for example chmod u+rx) or remove it` });
    return [];
  }
}

/** The entries of `dir` but the names no build reads (files.ts `ignoredName`): as a watch session kept them, else listed now (and kept). */
function listedNow(dir: string, unchanged?: Unchanged): Dirent[] {
  const kept = unchanged?.listed.get(dir);
  if (kept) return kept;
  const entries = readdirSync(dir, { withFileTypes: true }).filter((e) => !ignoredName(e.name));
  unchanged?.listed.set(dir, entries);
  return entries;
}

/** Read and validate everything; returns undefined when any error was reported. */
export async function loadSite(opts: LoadOptions, diags: Diagnostics): Promise<Site | undefined> {
  const { contentDir, model } = opts;
  const kinds = dataFiles(model);
  const [siteFile, pagesFile, ...loaded] = await Promise.all([
    loadYaml(contentDir, 'site.yaml', siteSchemaOf(model), diags, opts.cache, opts.posts),
    loadYaml(contentDir, 'pages.yaml', S.pagesSchema, diags, opts.cache, opts.posts),
    ...kinds.map((k) => loadYaml(contentDir, k.file, k.schema, diags, opts.cache, opts.posts)),
  ]);
  const values: Record<string, unknown> = {};
  const files = new Map<string, YamlFile>();
  kinds.forEach((k, i) => {
    values[k.key] = loaded[i]?.value;
    if (loaded[i]) files.set(k.file, loaded[i].file);
  });
  const blog = values.blog as z.output<typeof S.blogSchema> | undefined;
  const redirects = values.redirects as z.output<typeof S.redirectsSchema> | undefined;
  const data = Object.fromEntries(kinds.filter((k) => !k.core).map((k) => [k.key, values[k.key]]));

  const config = siteFile?.value;
  // site.yaml with an error elsewhere (a currency, a phone number): its languages, when those fields
  // are sound, still load the text tables and the posts, so their errors show in the same run.
  const langs: LanguageFields | undefined = config ?? languagesOf(siteFile?.file.data);
  const pages = pagesFile?.value;
  const texts: Record<string, Record<string, string>> = {};
  const textFiles: Record<string, YamlFile> = {};
  const untranslated: Record<string, string[]> = {};
  if (langs && siteFile) {
    const config = langs;
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
    const available = (await listDir(path.join(contentDir, 'i18n'))).filter((f) => f.endsWith('.yaml') && !ignoredName(f));
    // Published languages, then draft ones (site.yaml draftLanguages): every table is loaded and checked.
    config.draftLanguages.forEach((lang, i) => {
      if (config.languages.includes(lang)) diags.error({ code: 'language', ...at(`draftLanguages.${i}`), field: `draftLanguages[${i}]`, message: `"${lang}" is in languages too: a language is either published (languages) or a draft (draftLanguages)` });
    });
    const lists = [...config.languages.map((lang, i) => ({ lang, field: `languages.${i}` })), ...config.draftLanguages.filter((l) => !config.languages.includes(l)).map((lang) => ({ lang, field: `draftLanguages.${config.draftLanguages.indexOf(lang)}` }))];
    config.languages = lists.map((l) => l.lang);
    await Promise.all(
      lists.map(async ({ lang, field: listed }) => {
        const rel = `i18n/${lang}.yaml`;
        if (!available.includes(`${lang}.yaml`)) {
          diags.error({
            code: 'language',
            ...at(listed),
            field: listed.replace(/\.(\d+)$/, '[$1]'),
            message: `unknown language code "${lang}": there is no text table ${rel} (available: ${available.map((f) => f.replace('.yaml', '')).join(', ') || 'none'})`,
          });
          return;
        }
        const source = await readText(contentDir, rel, diags);
        const file = source === undefined ? undefined : memo(opts.cache, rel, source, () => parseKept(rel, source, diags, opts.posts));
        if (!file) return;
        textFiles[lang] = file;
        const table = flatTable(file);
        for (const [key, value] of table.bad) {
          const pos = file.locate(key.split('.'));
          diags.error({ code: 'schema', file: rel, ...pos, field: key, message: notText(value, file, pos) });
        }
        // Only one of the two would show, chosen by the order of the file.
        for (const [key, path] of table.twice)
          diags.error({ code: 'duplicate', file: rel, ...file.locate(path), field: key, message: `the text "${key}" is written twice, in a group and as a dotted key: keep one` });
        texts[lang] = table.texts;
        checkLocale(file, table.texts['lang.locale'], diags);
        untranslated[lang] = [...table.untranslated];
      }),
    );
    // The tables finish loading in any order: keyed in the languages' order, so the site is the same on every build.
    for (const table of [texts, textFiles, untranslated] as Record<string, unknown>[]) {
      for (const { lang } of lists) {
        if (!(lang in table)) continue;
        const value = table[lang];
        delete table[lang];
        table[lang] = value;
      }
    }
    if (siteFile.value) {
      if (opts.baseUrl) siteFile.value.baseUrl = opts.baseUrl;
      siteFile.value.baseUrl = siteFile.value.baseUrl.replace(/\/+$/, '');
    }
    leaveOutDraftLanguages(config, { texts, textFiles, untranslated }, opts.drafts, at, diags);
  }

  const posts = langs && blog ? await loadPosts(opts, langs.languages, blog.categories, diags, langs.draftLanguages) : [];
  // A left-out entry's texts (the groups its kind owns: `city.<id>.…`) are left out with it (the
  // checks leave their translation warnings out: content/checks.ts).
  const leftOutTexts = opts.drafts ? [] : leaveOutDraftEntries(kinds, data, diags);
  if (siteFile) files.set('site.yaml', siteFile.file);
  for (const f of Object.values(textFiles)) files.set(f.file, f); // a model's checks of texts name their line
  if (pagesFile) files.set('pages.yaml', pagesFile.file);
  const locate = (file: string, p: readonly PropertyKey[]) => files.get(file)?.locate(p);
  const report = modelReport(diags, locate, (file) => files.get(file)?.data);
  // Unique ids are checked on what was parsed even when the schema failed (a duplicate id and a bad
  // rating show in the same run, not one after the other).
  crossCheck(kinds, Object.fromEntries(kinds.map((k) => [k.key, values[k.key] ?? files.get(k.file)?.data])), pages ?? (files.get('pages.yaml')?.data as never), report);
  const parts: LoadedParts = { config, pages, data, texts };
  checkModel(model, parts, kinds.filter((k) => !k.core && data[k.key] === undefined && files.get(k.file)?.data != null), files, diags, (ds) => modelReport(ds, locate, (file) => files.get(file)?.data));
  const { facts, unavailable } = collectFacts(model, parts);
  if (config) checkMessages({ texts, files: textFiles, defaultLanguage: config.defaultLanguage, facts: new Map(Object.entries(facts)), kinds: Object.keys(model.facts ?? {}), unavailable }, diags);

  // Errors elsewhere, but the routes can be worked out: the build checks them in the same run.
  const routeKinds = [...(model.entryPages ?? []).map((p) => p.data), ...(model.landings ? [model.landings.data] : [])];
  if (diags.hasErrors() && config && pages && blog && redirects && routeKinds.every((k) => data[k] !== undefined)) {
    opts.onRoutable?.({ config, languages: config.languages, defaultLanguage: config.defaultLanguage, pages, posts, blog, redirects, data, routing: routingOf(model, config), locate } as unknown as Site);
  }
  if (diags.hasErrors() || !config || !pages || !blog || !redirects) return undefined;
  const site: Site = deepFreeze({
    locate,
    config,
    languages: config.languages,
    defaultLanguage: config.defaultLanguage,
    texts,
    untranslated,
    ...(leftOutTexts.length && { leftOutTexts }),
    pages,
    posts,
    blog,
    redirects,
    data,
    facts,
    routing: routingOf(model, config),
    today: opts.today,
  } satisfies Omit<Site, 'socialImage'>);
  const socialImage = model.socialImage?.(site);
  return socialImage === undefined ? site : deepFreeze({ ...site, socialImage });
}

/**
 * The model's checks (references between files) on what loaded. A data file whose schema failed
 * is checked as parsed: its broken references show in the same run as its schema errors (a
 * review's unknown city beside another review's bad rating), and what refers to it finds its ids.
 * A check written for valid data may throw on a file's raw shape: then they run again without
 * it. A reference error at a field the schema already reported is left out (one error a field).
 */
function checkModel(model: SiteModel, parts: LoadedParts, failed: ReturnType<typeof dataFiles>, files: Map<string, YamlFile>, diags: Diagnostics, reportTo: (diags: Diagnostics) => Report): void {
  if (!model.check) return;
  if (failed.length) {
    const trial = new Diagnostics();
    const loose: LoadedParts = { ...parts, data: { ...parts.data, ...Object.fromEntries(failed.map((k) => [k.key, files.get(k.file)!.data])) } };
    try {
      model.check(loose, reportTo(trial));
      const reported = new Set(diags.items.map((d) => `${d.file}\0${d.field}`));
      for (const d of trial.items) if (!reported.has(`${d.file}\0${d.field}`)) diags.add(d);
      return;
    } catch {
      // as before: without the failed files
    }
  }
  model.check(parts, reportTo(diags));
}

/** The fields of site.yaml that say which text tables and post files there are. */
type LanguageFields = Pick<SiteConfig, 'languages' | 'defaultLanguage' | 'draftLanguages'>;
const languageFields = looseObject({ languages: S.siteSchema.shape.languages, defaultLanguage: S.siteSchema.shape.defaultLanguage, draftLanguages: S.siteSchema.shape.draftLanguages });

/** site.yaml's language fields from its parsed data, when they are sound (the file's own errors are reported by its schema). */
function languagesOf(data: unknown): LanguageFields | undefined {
  const r = languageFields.safeParse(data);
  return r.success ? r.data : undefined;
}

function routingOf(model: SiteModel, config: SiteConfig): Routing {
  const files = Object.fromEntries(Object.entries(model.data).map(([kind, k]) => [kind, k.file]));
  return { entryPages: model.entryPages ?? [], landings: model.landings, params: model.pathParams?.(config) ?? {}, files };
}

/**
 * `lang.locale` of a text table must be a locale tag Intl accepts: checked here, once, naming the
 * file and line, instead of failing every page's number and date formatting at render.
 */
function checkLocale(file: YamlFile, locale: string | undefined, diags: Diagnostics): void {
  // Located only for an error: locating parses the whole table again with the positioned parser
  // (~15 ms a language, on every build).
  const where = () => ({ file: file.file, ...file.locate(['lang', 'locale']), field: 'lang.locale' });
  if (locale === undefined) {
    diags.error({ code: 'locale', ...where(), message: 'missing: each text table names its locale (lang.locale), such as en-GB or es-ES' });
    return;
  }
  // The tag's syntax only: a formatter made here for each language (~4 ms each, ICU's locale data)
  // rejects no tag this accepts, and a one-page rebuild formats in one language.
  try {
    Intl.getCanonicalLocales(locale);
  } catch (err) {
    diags.error({ code: 'locale', ...where(), message: `"${locale}" is not a locale tag (${(err as Error).message}): write one such as en-GB or es-ES` });
  }
}

/**
 * A published build leaves draft languages out (site.yaml draftLanguages): their pages, sitemap
 * entries, hreflang links and menu entries; the build notes each with what it still misses.
 * `--drafts` (and `site watch`) build them, showing a missing text as its key.
 */
function leaveOutDraftLanguages(
  config: LanguageFields,
  tables: { texts: Record<string, unknown>; textFiles: Record<string, unknown>; untranslated: Record<string, string[]> },
  drafts: boolean,
  at: (field: string) => { file: string; field: string },
  diags: Diagnostics,
): void {
  const left: string[] = [];
  config.draftLanguages.forEach((lang, i) => {
    if (lang === config.defaultLanguage) diags.error({ code: 'language', ...at(`draftLanguages.${i}`), field: `draftLanguages[${i}]`, message: `the default language (${lang}) cannot be a draft` });
    else if (!drafts) left.push(lang);
  });
  const reference = Object.keys((tables.texts[config.defaultLanguage] as Record<string, string> | undefined) ?? {});
  for (const lang of left) {
    const table = (tables.texts[lang] as Record<string, string> | undefined) ?? {};
    const missing = reference.filter((k) => table[k] === undefined).length;
    const untranslated = tables.untranslated[lang]?.length ?? 0;
    diags.note({
      code: 'draft',
      file: `i18n/${lang}.yaml`,
      message:
        missing + untranslated
          ? `${lang} is a draft language (site.yaml draftLanguages): left out of this build, its pages, sitemap and links; ${missing} text(s) missing and ${untranslated} untranslated (npx site check --drafts --missing ${lang} lists them). Preview with --drafts`
          : `${lang} is a draft language (site.yaml draftLanguages): left out of this build, its pages, sitemap and links. Its texts are complete: move it to languages to publish it (preview with --drafts)`,
    });
    delete tables.texts[lang];
    delete tables.textFiles[lang];
    delete tables.untranslated[lang];
  }
  config.languages = config.languages.filter((l) => !left.includes(l));
}

/** Entries of the model's lists marked `draft: true` (a city being prepared) are left out of a published build, with a note; returns the prefixes of the texts they own. */
function leaveOutDraftEntries(kinds: ReturnType<typeof dataFiles>, data: Record<string, unknown>, diags: Diagnostics): string[] {
  const left: string[] = [];
  for (const k of kinds) {
    const list = data[k.key];
    if (k.core || !Array.isArray(list) || !list.some((e) => (e as { draft?: unknown })?.draft === true)) continue;
    const drafts = list.filter((e) => (e as { draft?: unknown }).draft === true) as { id?: string; slug?: string }[];
    data[k.key] = list.filter((e) => (e as { draft?: unknown }).draft !== true);
    diags.note({ code: 'draft', file: k.file, message: `${drafts.map((d) => d.id ?? d.slug ?? '?').join(', ')}: draft (draft: true), left out of this build with everything made from it; preview with --drafts` });
    for (const d of drafts) for (const group of k.texts ?? []) if (d.id ?? d.slug) left.push(`${group}.${d.id ?? d.slug}.`);
  }
  return left;
}

/** Checks between files that no single schema can see: unique ids in lists, page references. */
function crossCheck(kinds: ReturnType<typeof dataFiles>, values: Record<string, unknown>, pages: z.output<typeof S.pagesSchema> | undefined, report: Report): void {
  const unique = (list: unknown, file: string, key: string) => {
    if (!Array.isArray(list)) return;
    const seen = new Map<string, number>();
    list.forEach((item: Record<string, unknown>, i) => {
      const v = item?.[key];
      if (typeof v !== 'string') return;
      if (seen.has(v)) report.error({ file, path: [i, key] }, `duplicate ${key} "${v}" (first used at [${seen.get(v)}])`, 'duplicate');
      else seen.set(v, i);
    });
  };
  unique(pages, 'pages.yaml', 'id');
  for (const k of kinds) if (k.unique) unique(values[k.key], k.file, k.unique);
  if (Array.isArray(pages)) {
    const ids = new Set(pages.map((p) => p?.id));
    pages.forEach((p, i) => {
      if (!p || typeof p !== 'object') return;
      for (const key of ['canonical', 'parent'] as const) {
        const ref = p[key];
        if (ref && !ids.has(ref)) report.error({ file: 'pages.yaml', path: [i, key] }, `"${ref}" is not a page id`);
      }
    });
  }
}

/** The model's facts by reference name (`price:hour`), and the kinds whose source did not load. */
export function collectFacts(model: SiteModel, parts: LoadedParts): { facts: Record<string, Fact>; unavailable: Set<string> } {
  const facts: Record<string, Fact> = {};
  const unavailable = new Set<string>();
  for (const [kind, collect] of Object.entries(model.facts ?? {})) {
    const found = collect(parts);
    if (!found) unavailable.add(kind);
    else for (const [id, fact] of Object.entries(found)) facts[`${kind}:${id}`] = fact;
  }
  return { facts, unavailable };
}

const siteSchemas = new WeakMap<SiteModel, z.ZodType>();
/** site.yaml's schema: the generic fields plus the model's (made once per model). */
function siteSchemaOf(model: SiteModel): typeof S.siteSchema {
  let schema = siteSchemas.get(model);
  if (!schema) siteSchemas.set(model, (schema = S.siteSchemaWith(model.config)));
  return schema as typeof S.siteSchema;
}

const POST_FILE = /^([a-z]{2,3}(?:-[A-Z]{2})?)\.md$/;

/** A content-relative path of a post's file (`blog/<slug>/<lang>.md`). */
export const isPostFile = (rel: string): boolean => {
  const parts = rel.split('/');
  return parts.length === 3 && parts[0] === 'blog' && POST_FILE.test(parts[2]!);
};

/** Blog posts: `blog/<slug>/<lang>.md`, markdown with front matter. */
async function loadPosts(
  opts: LoadOptions,
  languages: readonly string[],
  categories: readonly string[],
  diags: Diagnostics,
  /** Languages of the site left out of this build (drafts): their posts are skipped, not errors. */
  leftOut: readonly string[] = [],
): Promise<Post[]> {
  const blogDir = path.join(opts.contentDir, 'blog');
  const blogLinked = lstatSync(blogDir, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
  // A linked folder's changes are named at its target by the watcher: listed anew every time.
  const kept = blogLinked ? undefined : opts.unchanged;
  let entries: Dirent[] = [];
  try {
    entries = [...(opts.listings?.get(blogDir) ?? listedNow(blogDir, kept))].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (err) {
    // No blog folder: no posts. One that cannot be read is an error, not an empty journal.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') diags.error({ code: 'blog', file: 'blog', message: `cannot read the blog folder (${(err as NodeJS.ErrnoException).code}): make it readable` });
  }
  const posts: Post[] = [];
  const root: ContentRoot = { dir: opts.contentDir };
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
    for (const file of listDirSync(path.join(blogDir, slug), `blog/${slug}`, diags, opts.listings, entry.isSymbolicLink() ? undefined : kept)) {
      const name = file.name;
      const rel = `blog/${slug}/${name}`;
      const m = POST_FILE.exec(name);
      if (!m) {
        diags.error({ code: 'blog', file: rel, message: 'expected a file named <lang>.md, such as en.md' });
        continue;
      }
      const lang = m[1]!;
      if (!languages.includes(lang) && leftOut.includes(lang)) continue;
      if (!languages.includes(lang)) {
        diags.error({ code: 'language', file: rel, field: 'language', message: `unknown language code "${lang}" (site.yaml languages: ${languages.join(', ')})` });
        continue;
      }
      // Only a linked post (its folder or file a symlink, or the blog folder itself) is checked to lie inside the content folder.
      const linked = blogLinked || entry.isSymbolicLink() || file.isSymbolicLink();
      const abs = `${blogDir}/${slug}/${name}`;
      const cache = opts.cache ?? opts.posts;
      // Kept from an earlier build for this very file (its stamp): neither read nor parsed.
      // Its size and times and its inode: see InputStamps.ids.
      const stamp = linked ? undefined : opts.stamps?.[rel];
      const id = opts.ids?.[rel];
      const kept = stamp === undefined || id === undefined ? undefined : cache?.get(rel);
      // (Of the shape this version writes: a damaged cache entry only costs a read.)
      const facts = kept?.post;
      const unread = facts !== undefined && facts.stamp === stamp && facts.id === id && soundFacts(facts) && typeof kept!.value === 'object' && kept!.value !== null;
      // Watch mode: as the last load read it, when no event said it changed since.
      const watched = opts.unchanged && !linked && !opts.unchanged.stale(rel) ? opts.cache?.get(rel) : undefined;
      let source: string | undefined;
      let matter: NonNullable<ReturnType<typeof parseMatter>>;
      let body: string | undefined;
      let known: BodyFacts;
      let made: Post | undefined;
      if (unread) {
        matter = kept!.value as typeof matter;
        known = facts;
      } else if (watched?.read && typeof watched.value === 'object' && watched.value !== null) {
        matter = watched.value as typeof matter;
        ({ body, facts: known } = watched.read);
        made = watched.read.post;
      } else {
        source = readContentTextSync(abs, rel, diags, root, { linked });
        if (source === undefined) continue;
        const parts = splitPost(rel, source, diags);
        if (!parts) continue;
        // Parsed once per distinct front matter (the body is not parsed here): the cache outlives a
        // one-shot build on disk (postCache below), so an unchanged post is not parsed again.
        const parsed = memo(cache, rel, parts.matter, () => parseMatter(rel, parts.matter, diags));
        if (!parsed) continue;
        matter = parsed;
        body = parts.body;
        known = factsOf(body, true);
        if (stamp !== undefined && id !== undefined && cache instanceof KeptCache) cache.restamp(rel, { stamp, id, ...known });
        if (opts.unchanged) cache!.get(rel)!.read = { body, facts: known };
      }
      if (!categories.includes(matter.category)) {
        source ??= readContentTextSync(abs, rel, diags, root, { linked }) ?? '';
        diags.error({ code: 'reference', file: rel, line: 1 + lineOf(source, /^category:/m), field: 'category', message: `unknown category "${matter.category}" (data/blog.yaml categories: ${categories.join(', ')})` });
        continue;
      }
      const scheduled = matter.date > opts.today;
      if (scheduled) {
        diags.warn({ code: 'scheduled', file: rel, field: 'date', message: `dated ${matter.date}, after today (${opts.today}): left out until then${opts.drafts ? ' (included: --drafts)' : ' (use --drafts to preview)'}` });
      }
      if ((matter.draft || scheduled) && !opts.drafts) continue;
      // A post read now holds its body; one not read gets it from its file on first use (frozen
      // now: deepFreeze, reading every value, would read every body).
      const loaded: Post =
        made ?? (body !== undefined ? { ...matter, body, slug, lang, file: rel } : Object.freeze(Object.assign(unreadPost(abs, rel), matter, { tags: Object.freeze(matter.tags) as string[], slug, lang, file: rel })));
      noteBody(loaded, known);
      if (opts.unchanged && !linked) cache!.get(rel)!.read!.post = loaded;
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

/** A post's front matter and body, or undefined (an error reported) when it has no closed front matter. */
function splitPost(rel: string, source: string, diags: Diagnostics): { matter: string; body: string } | undefined {
  if (!/^---[ \t]*\r?\n/.test(source)) {
    diags.error({ code: 'front-matter', file: rel, line: 1, message: 'a post starts with front matter between --- lines (title, excerpt, date, category, author, tags)' });
    return undefined;
  }
  const parts = splitFrontMatter(source);
  if (!parts) diags.error({ code: 'front-matter', file: rel, line: 1, message: 'the front matter is not closed: add a line --- after it' });
  return parts;
}

function parseMatter(rel: string, matter: string, diags: Diagnostics) {
  const file = parseYaml(rel, matter, diags, 1);
  return file && validate(file, S.postSchema, diags);
}

/** A parse cache read from disk that knows whether anything was added or replaced since. */
let lastPosts: { file: string; id: string; cache: KeptCache; extras: Readonly<Record<string, string>> } | undefined;
const fileId = (st: Stats) => `${st.ino}:${st.size}:${st.mtimeMs}`;

class KeptCache extends Map<string, CacheEntry> {
  private replaced = false;
  /** Taken again for another build: as if just read (its entries as the file has them, or newer). */
  reused(): this {
    this.replaced = false;
    this.restamped = 0;
    this.dropped = false;
    return this;
  }
  /** Entries whose post facts alone were updated (`restamp`). */
  restamped = 0;
  /** Entries of another shape were dropped when read: the file is written anew. */
  dropped = false;
  override set(key: string, value: CacheEntry): this {
    this.replaced = true;
    return super.set(key, value);
  }
  /**
   * Whether the cache on disk is worth rewriting: a parsed value changed, or many posts' stamps did.
   * A few posts' new stamps alone are not (their files are read again by the next build, a few
   * microseconds each, where rewriting 4,000 posts' entries costs ~20 ms).
   */
  get changed(): boolean {
    return this.replaced || this.dropped || this.restamped > 64;
  }
  /** Record a post's file stamp and body facts with its parsed front matter (the entry `memo` made or found). */
  restamp(rel: string, post: NonNullable<CacheEntry['post']>): void {
    this.restamped++;
    super.set(rel, { ...this.get(rel)!, post });
  }
}

/**
 * Posts' parsed front matter kept between one-shot builds (a file in the build cache): loading
 * 4,000 posts spends most of its time parsing and validating YAML. Keyed by each post's front
 * matter text, so an edited post is parsed again whatever its file's time says. Plain data only.
 */
export const postCache = {
  /** One file per content folder; `code` (the generator's and the model's sources) is part of its name: their schemas made the values. */
  file: (cacheDir: string, contentDir: string, code: string) => path.join(cacheDir, `posts-${createHash('sha256').update(contentDir).digest('hex').slice(0, 12)}-${code.slice(0, 12)}.v8`),
  /**
   * `holds`: whether the files outside the templates' folders that the code which made the cache
   * was compiled from are as they were (carry.ts outsideInputsHold): the model's schemas may import
   * one, and the cache's name counts them only when the build is recorded.
   */
  read(file: string, holds: (extras: Readonly<Record<string, string>>) => boolean): ParseCache {
    try {
      // The cache this process last read or wrote, while the file is as it left it: a resident
      // build process deserialized 4,000 posts' entries for every build (~8 ms). Each entry is
      // still checked against its post's stamp and front matter when used.
      const st = statSync(file);
      if (lastPosts?.file === file && lastPosts.id === fileId(st)) return holds(lastPosts.extras) ? lastPosts.cache.reused() : new KeptCache();
      const kept = deserialize(readFileSync(file)) as { extras?: unknown; entries?: unknown };
      const extras = kept.extras as Record<string, string>;
      if (!Array.isArray(kept.entries) || typeof extras !== 'object' || extras === null || !holds(extras)) return new KeptCache();
      const entries = kept.entries as unknown[];
      // Entries of another shape (a damaged file) are dropped, and the cache is written anew.
      const valid = entries.filter((e): e is [string, CacheEntry] => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'object' && e[1] !== null && typeof (e[1] as CacheEntry).source === 'string');
      const cache = new KeptCache(valid);
      cache.dropped = valid.length !== entries.length;
      lastPosts = { file, id: fileId(st), cache, extras };
      return cache;
    } catch {
      return new KeptCache();
    }
  },
  /**
   * Written after a good build, the posts that still exist only; a cache that cannot be written
   * costs the next build a parse. Not written again when nothing in it changed (a one-post rebuild
   * of 4,000 posts would rewrite ~2 MB for one entry, or for none).
   */
  write(file: string, cache: ParseCache, exists: (rel: string) => boolean, extras: Readonly<Record<string, string>>): void {
    // An entry is kept while its file exists: a post's front matter, a YAML file's data or valid value.
    const live = (key: string) => (key.startsWith(VALID) ? exists(key.slice(VALID.length)) : key.startsWith(PARSED) ? exists(key.slice(PARSED.length)) : key.startsWith('blog/') && exists(key));
    if (cache instanceof KeptCache && !cache.changed && [...cache.keys()].every(live) && existsSync(file)) return;
    try {
      writeFileAtomic(file, serialize({ extras, entries: [...cache].filter(([key]) => live(key)) }));
      if (cache instanceof KeptCache) {
        for (const key of [...cache.keys()]) if (!live(key)) cache.delete(key);
        lastPosts = { file, id: fileId(statSync(file)), cache: cache.reused(), extras };
      }
      dropSiblings(file, 'posts-', '.v8');
    } catch {
      // the next build parses again
    }
  },
};

/** Why a text table's value is not a text, with the fix: a number or true/false as YAML read it, with the quotes it needs. */
function notText(value: unknown, file: YamlFile, pos: { line: number; column: number }): string {
  if (typeof value === 'number' || typeof value === 'boolean') return quoteHint(value, file, pos, true);
  return `expected a text or a group of texts, found ${JSON.stringify(value) ?? 'nothing'}`;
}

/**
 * A text file's flat table (markers taken out: takeUntranslated) and its values that are not
 * texts, once per parsed file: a watch session's parse cache gives an unchanged file's parsed
 * object again, so its table is the same frozen object on every rebuild, and what is keyed on a
 * table (its hash, its messages' checks) is kept with it.
 */
function flatTable(file: YamlFile): FlatTable {
  let hit = flatTables.get(file);
  if (!hit) {
    const bad: [string, unknown][] = [];
    const twice: [string, readonly string[]][] = [];
    const texts = flattenTexts(file.data, (key, value) => bad.push([key, value]), (key, path) => twice.push([key, path]));
    const untranslated = Object.freeze(takeUntranslated(texts));
    flatTables.set(file, (hit = { texts: Object.freeze(texts), untranslated, bad, twice }));
  }
  return hit;
}
interface FlatTable {
  texts: Record<string, string>;
  untranslated: readonly string[];
  /** Values that are not texts, by key. */
  bad: readonly [string, unknown][];
  /** Keys written twice (nested and dotted), with the YAML path of the later one. */
  twice: readonly [string, readonly string[]][];
}
const flatTables = new WeakMap<YamlFile, FlatTable>();

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
