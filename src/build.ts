/**
 * The build, one straight line: load → check → route → assets → render → write → swap.
 * Each stage's failure says which stage it came from; a failed build never touches `dist/`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BuildConfig } from './config.ts';
import { BuildError, Diagnostics, type Diagnostic } from './diagnostics.ts';
import { loadSite } from './content/load.ts';
import { checkContent } from './content/checks.ts';
import type { Site } from './content/model.ts';
import { buildRoutes, type Route, type RouteTable } from './routes/table.ts';
import { bundleAssets, bundleServiceWorker, type BundledAssets } from './assets/bundle.ts';
import { processImages, type ImageStats, type ProcessedImages } from './assets/images.ts';
import type { ParseCache } from './content/load.ts';
import { loadTemplates, type TemplateModule } from './render/templates.ts';
import { createTally, MarkdownHelper, PagePool, renderClaimed, renderEnv, routeCounter } from './render/parallel.ts';
import type { Assets } from './render/context.ts';
import { DiskWriter, type Writer } from './output/writer.ts';
import { inputKey, outputIntact, readRecord, writeRecord } from './output/carry.ts';
import { robotsTxt, sitemapFiles } from './output/sitemap.ts';
import { headersFile, redirectsFile } from './output/hosting.ts';
import { nginxFiles } from './output/nginx.ts';
import { manifestFile } from './output/manifest.ts';

export interface BuildStats {
  /** kind → language → count. */
  pages: Record<string, Record<string, number>>;
  files: number;
  bytes: number;
  ms: number;
  scriptGzipBytes: number;
  /** Milliseconds per stage, in order. */
  stages: Record<string, number>;
  /** Image sources, files written for them, and how many came from the cache or were encoded. */
  images: ImageStats;
  languages: readonly string[];
  /** Files carried over unchanged from the last build (nothing rendered); 0 for a real build. */
  carried: number;
  /** Threads that rendered pages: 1, or 1 + the page workers of a large build (render/parallel.ts). */
  threads: number;
  /** Posts whose markdown the helper thread rendered (builds on one render thread with many posts). */
  markdownHelped: number;
}

/**
 * What a long-running session (watch) keeps between builds. A stage whose entry is set reuses it;
 * the session clears an entry when its sources change. One-shot builds use none of it.
 */
export interface BuildCache {
  parsed: ParseCache;
  templates?: TemplateModule;
  bundled?: BundledAssets;
  images?: ProcessedImages;
}

export interface BuildOptions {
  cache?: BuildCache;
  /** The CLI bundle, which runs a page worker when loaded in one: large builds render on every core. */
  workerEntry?: URL;
  /** Which routes to render, decided once the site is loaded (watch: what a change affects); default all. */
  plan?: (site: Site, routes: RouteTable) => ((route: Route) => boolean) | undefined;
}

export interface BuildResult {
  /** Absent when nothing changed and the last build's files were carried over. */
  site?: Site;
  routes?: RouteTable;
  diagnostics: Diagnostic[];
  stats: BuildStats;
}

/** Run every stage; throws BuildError (with all diagnostics) when the build must not be published. */
export async function build(config: BuildConfig, writer: Writer = new DiskWriter(config.outDir), opts: BuildOptions = {}): Promise<BuildResult> {
  const started = performance.now();
  const stages: Record<string, number> = {};
  let mark = started;
  const lap = (stage: string) => {
    const now = performance.now();
    stages[stage] = now - mark;
    mark = now;
  };
  const diags = new Diagnostics();
  const state: BuildState = { started, stages, lap, diags };
  try {
    return await buildSite(config, writer, opts, state);
  } finally {
    await Promise.all([state.pool?.terminate(), state.helper?.terminate()]);
  }
}

interface BuildState {
  started: number;
  stages: Record<string, number>;
  lap(stage: string): void;
  diags: Diagnostics;
  pool?: PagePool;
  helper?: MarkdownHelper;
}

async function buildSite(config: BuildConfig, writer: Writer, opts: BuildOptions, state: BuildState): Promise<BuildResult> {
  const { cache } = opts;
  const { started, stages, lap, diags } = state;
  // One-shot builds with many posts render markdown on the second core: the helper starts first,
  // so its start-up overlaps the input key and the data files.
  if (opts.workerEntry && !opts.plan && !cache) state.helper = MarkdownHelper.start(opts.workerEntry, config.contentDir);

  // Nothing changed since the last good build of this folder: carry its files over (hard links),
  // render nothing. Only one-shot builds to disk do this; watch keeps its own state.
  const record = !cache && writer instanceof DiskWriter ? { key: await inputKey(config), last: await readRecord(config) } : undefined;
  if (record?.last && writer instanceof DiskWriter && record.last.key === record.key && (await outputIntact(config, record.last))) {
    const last = record.last;
    await writer.carry(config.outDir, last.files);
    await writer.commit();
    lap('carry');
    return {
      diagnostics: last.diagnostics,
      stats: {
        ...last.stats,
        files: last.files.length,
        bytes: 0,
        ms: performance.now() - started,
        stages,
        images: { ...last.stats.images, cached: last.stats.images.sources, encoded: 0 },
        carried: last.files.length,
      },
    };
  }
  if (record) lap('key');

  const fail = async (stage: string): Promise<never> => {
    await writer.abort();
    throw new BuildError(stage, diags.items.filter((d) => d.severity === 'error' || config.strict));
  };

  // Templates and the client script compile in esbuild's own process while this thread loads the
  // content (awaited after routing; their errors are reported there, never unhandled).
  const compiling = {
    templates: cache?.templates ? Promise.resolve(cache.templates) : loadTemplates(config.templatesDir),
    bundled: cache?.bundled ? Promise.resolve(cache.bundled) : bundleAssets(config.clientDir, config.templatesDir),
  };
  for (const p of Object.values(compiling)) p.catch(() => undefined);

  // load (the markdown helper gets each post's body as it is read)
  const helper = state.helper;
  const site = await loadSite({ contentDir: config.contentDir, baseUrl: config.baseUrl, drafts: config.drafts, today: config.today, cache: cache?.parsed, onPost: helper && ((p) => helper.add(p.file, p.body)) }, diags);
  helper?.flush();
  if (!site) return fail('load');
  lap('load');

  // check
  checkContent(site, diags);
  for (const [kind, list] of [['images', site.gallery.images], ['featured', site.gallery.featured], ['portraits', site.gallery.portraits], ['socialImage', [site.gallery.socialImage]]] as const) {
    list.forEach((img, i) => {
      if (!existsSync(path.join(config.contentDir, 'images', img.file))) {
        const at = kind === 'socialImage' ? [kind, 'file'] : [kind, i, 'file'];
        diags.error({ code: 'missing-image', file: 'data/gallery.yaml', ...site.locate('data/gallery.yaml', at), field: at.join('.'), message: `images/${img.file} does not exist under the content folder` });
      }
    });
  }

  // route
  const routes = buildRoutes(site, diags);
  if (diags.hasErrors()) return fail('route');
  lap('check+route');

  // Large one-shot builds render on every core: workers start now and join the rendering when
  // loaded (this thread does not wait for them).
  const pool = opts.workerEntry && !opts.plan && !cache && writer instanceof DiskWriter ? PagePool.start(opts.workerEntry, routes.routes.length) : undefined;
  state.pool = pool;
  if (pool && helper) {
    // Page workers render their own markdown: the helper would only take a core from them.
    await helper.terminate();
    state.helper = undefined;
  }

  // templates and assets
  let templates: TemplateModule;
  let bundled: Awaited<ReturnType<typeof bundleAssets>>;
  let images: Awaited<ReturnType<typeof processImages>>;
  try {
    [templates, bundled, images] = await Promise.all([
      compiling.templates,
      compiling.bundled,
      cache?.images ?? processImages(config.contentDir, { cacheDir: config.cacheDir, copy: new Set([ICON, TOUCH_ICON]), social: site.gallery.socialImage.file }),
    ]);
    if (cache) Object.assign(cache, { templates, bundled, images });
  } catch (err) {
    await writer.abort();
    throw err;
  }
  for (const r of routes.routes) {
    if (!templates.pages[r.template])
      diags.error({ code: 'template', file: r.origin, field: 'template', message: `no template "${r.template}"; templates/index.tsx exports: ${Object.keys(templates.pages).sort().join(', ')}` });
  }
  if (diags.hasErrors()) return fail('templates');
  checkImageSizes(site, images, diags);
  if (diags.hasErrors()) return fail('images');
  lap('templates+assets');

  const assets: Assets = {
    cssText: bundled.cssText,
    styleHash: bundled.styleHash,
    noscriptCss: bundled.noscriptCss,
    js: bundled.js,
    forward: bundled.forward,
    icon: images.get(ICON).src,
    touchIcon: images.get(TOUCH_ICON).src,
    manifest: '/manifest.webmanifest',
    image: images.get,
  };

  // render and write: every thread claims chunks of routes from one counter (render/parallel.ts)
  await Promise.all([...bundled.files, ...images.files].map((f) => writer.write(f.file, f.content)));
  const only = opts.plan?.(site, routes);
  const selected = only ? routes.routes.filter(only) : routes.routes;
  const counter = routeCounter();
  const tally = createTally();
  const tallies = [tally];
  if (pool && writer instanceof DiskWriter) pool.send(site, routes, assets, images.table(), templates, writer, config, counter);
  await renderClaimed(selected, counter, renderEnv(site, routes, assets, templates, tally, { helper: state.helper }), writer, tally);
  if (pool && writer instanceof DiskWriter) {
    const done = await pool.finish().catch(async (err: Error) => {
      diags.error({ code: 'render', message: err.message });
      return undefined;
    });
    if (done) {
      writer.adopt(done.files, done.bytes);
      tallies.push(...done.tallies);
    }
  }
  const pages: BuildStats['pages'] = {};
  const missing = new Map<string, Set<string>>();
  for (const t of tallies) {
    for (const [kind, byLang] of Object.entries(t.pages)) for (const [lang, n] of Object.entries(byLang)) (pages[kind] ??= {})[lang] = (pages[kind]?.[lang] ?? 0) + n;
    for (const [lang, keys] of t.missing) for (const k of keys) (missing.get(lang) ?? missing.set(lang, new Set()).get(lang)!).add(k);
    for (const e of t.errors) diags.add(e);
  }
  for (const [lang, keys] of missing) {
    diags.warn({ code: 'missing-translation', file: `i18n/${lang}.yaml`, message: `${keys.size} key(s) used by templates but missing in ${lang} (the key is shown instead): ${[...keys].sort().slice(0, 10).join(', ')}` });
  }
  if (diags.hasErrors()) return fail('render');
  lap('render+write');

  const offline = Object.fromEntries(routes.routes.filter((r) => r.kind === 'offline').map((r) => [r.lang === site.defaultLanguage ? '' : r.lang, r.path]));
  const precache = [assets.js, assets.icon, ...Object.values(offline)];
  const sw = await bundleServiceWorker(config.clientDir, precache, offline);
  for (const f of [...sitemapFiles(site, routes), robotsTxt(site), redirectsFile(site, routes), headersFile(site, [assets.styleHash]), ...nginxFiles(site, routes, [assets.styleHash]), manifestFile(site, assets), sw])
    await writer.write(f.file, f.content);

  if (config.strict && diags.warnings.length) return fail('strict');
  await writer.commit();
  lap('swap');
  const stats: BuildStats = { pages, files: writer.files, bytes: writer.bytes, ms: performance.now() - started, scriptGzipBytes: bundled.jsBytes, stages, images: images.stats, languages: site.languages, carried: 0, threads: 1 + (pool?.size ?? 0), markdownHelped: state.helper?.taken ?? 0 };
  if (record && writer instanceof DiskWriter) await writeRecord(config, { key: record.key, files: writer.paths(), diagnostics: diags.items, stats });
  return { site, routes, diagnostics: diags.items, stats };
}

/** Icons under content/images, copied as they are (hashed); every other image is converted. */
const ICON = 'icon.svg';
const TOUCH_ICON = 'touch-icon.png';

/** gallery.yaml's width/height (used by JSON-LD) must be the size the image is served at. */
function checkImageSizes(site: Site, images: ProcessedImages, diags: Diagnostics): void {
  const g = site.gallery;
  for (const [kind, list] of [['images', g.images], ['featured', g.featured], ['portraits', g.portraits], ['socialImage', [g.socialImage]]] as const) {
    list.forEach((img, i) => {
      const real = images.info(img.file);
      if (!real) return;
      for (const dim of ['width', 'height'] as const) {
        if (img[dim] === real[dim]) continue;
        const at = kind === 'socialImage' ? [kind, dim] : [kind, i, dim];
        const how =
          kind === 'socialImage'
            ? 'the social image is served cropped to 1200x630'
            : real.width === real.sourceWidth && real.height === real.sourceHeight
              ? `the file is ${real.sourceWidth}x${real.sourceHeight}`
              : `the file is ${real.sourceWidth}x${real.sourceHeight}, served fitted inside 1920x1080 as ${real.width}x${real.height}`;
        diags.error({
          code: 'image-size',
          file: 'data/gallery.yaml',
          ...site.locate('data/gallery.yaml', at),
          field: at.join('.'),
          message: `${dim} of images/${img.file} is ${img[dim]}, expected ${real[dim]} (${how})`,
        });
      }
    });
  }
}
