/**
 * The build, one straight line: load → check → route → assets → render → write → swap.
 * Each stage's failure says which stage it came from; a failed build never touches `dist/`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import path from 'node:path';
import type { BuildConfig } from './config.ts';
import { BuildError, Diagnostics, type Diagnostic } from './diagnostics.ts';
import { isPostFile, loadSite, postCache, siteReport } from './content/load.ts';
import { bodyDigest, ContentChanged, isUnread } from './content/post-body.ts';
import { KeptMarkdown } from './content/markdown-cache.ts';
import { checkContent } from './content/checks.ts';
import type { ImageRef, Post, PostImage, Site, SiteModel } from './content/model.ts';
import { buildRoutes, type Route, type RouteTable } from './routes/table.ts';
import { bundleAssets, bundleServiceWorker, type BundledAssets, type OutputFile } from './assets/bundle.ts';
import { ENCLOSING_LINK, NOT_CONVERTIBLE, processImages, unconvertible, usedKey, type ProcessedImages } from './assets/images.ts';
import { listFilesWithin, writeFileAtomic } from './files.ts';
import { OUTSIDE_CONTENT } from './content/read.ts';
import { checkPostRefs, type PostImageUse } from './render/post-refs.ts';
import type { ParseCache, Unchanged } from './content/load.ts';
import { compileModel, compileTemplates, evaluateModel, evaluateTemplates, forgetRequired, keepCodeCaches, MODEL_ENTRY, requiredByTemplates, type CompiledTemplates, type TemplateModule } from './render/templates.ts';
import { createTranslate, siteMessages, splitMissing } from './content/texts.ts';
import { contentHash, hashedName } from './hash.ts';
import { boundHeapGrowth, createTally, MarkdownHelper, PagePool, postFolders, renderClaimed, renderEnv, routeCounter, type MadePiece, type RenderTally } from './render/parallel.ts';
import type { TextList } from './render/reads.ts';
import { splicePages } from './render/splice.ts';
import { piecesMade, renderRoute } from './render/page.ts';
import type { Assets, ImageAsset } from './render/context.ts';
import { basePathOf, withBase } from './routes/paths.ts';
import { DiskWriter, IncrementalWriter, MemoryWriter, OutputWriteError, type Writer } from './output/writer.ts';
import { WriteThread } from './output/write-thread.ts';
import { changedFiles, codeInputs, hostStamps, inputStamps, outputStamps, outsideFiles, outsideInputs, outsideInputsHold, readRecord, recordedCodeKey, recordFile, unchangedResult, writeRecord, type BuildRecord, type InputStamps } from './output/carry.ts';
import { listOf, placedOf, readReads, ReadsWriter, writeReads, type ReadsRecord } from './output/pieces.ts';
import { assetsKey, InputKeys, readsAfterRender } from './routes/inputs.ts';
import { robotsTxt, sitemapInput, sitemapNames, sitemapOf } from './output/sitemap.ts';
import { hostRules } from './output/hosts/rules.ts';
import { inlineHashesOf } from './output/hosting.ts';
import { DEFAULT_HOST, hostFiles } from './output/hosts/index.ts';
import type { HostName } from './output/hosts/names.ts';
import { writeHostFolder } from './output/host-folder.ts';
import { faviconIco } from './assets/favicon.ts';
import { manifestFile } from './output/manifest.ts';
import { buildsDir, liveBuild, pauseAsync, WEB } from './output/publish.ts';
import { startProgress, type Progress } from './progress.ts';
import type { BuildStats } from './stats.ts';

export type { BuildStats } from './stats.ts';


/**
 * What a long-running session (watch) keeps between builds. A stage whose entry is set reuses it;
 * the session clears an entry when its sources change. One-shot builds use none of it.
 */
export interface BuildCache {
  parsed: ParseCache;
  templates?: TemplateModule;
  /** The site's model (templates/model/): reloaded with the templates. */
  model?: SiteModel;
  /** The files esbuild read for the model (`CompiledTemplates.inputs`). */
  modelInputs?: string[];
  bundled?: BundledAssets;
  images?: ProcessedImages;
  /** Watch: what has not changed since the last load (content/load.ts LoadOptions.unchanged). */
  unchanged?: Unchanged;
}

export interface BuildOptions {
  cache?: BuildCache;
  /** The CLI bundle, which runs a page worker when loaded in one: large builds render on every core. */
  workerEntry?: URL;
  /** Which routes to render, decided once the site is loaded (watch: what a change affects); default all. */
  plan?: (site: Site, routes: RouteTable, model: SiteModel) => ((route: Route) => boolean) | undefined;
  /** Called as each route starts rendering on this thread, then with `undefined` when none is left (watch reports it to its watchdog). */
  onRoute?: (route: Route | undefined) => void;
  /** The input stamps and last build record, when the caller read them (and found changes); `outputs`: the live build's files stamped when the build started (output/survey.ts). */
  inputs?: { stamps: InputStamps; last?: BuildRecord; ms: number; outputs?: ReadonlyMap<string, string> };
  /**
   * The resident process: the build returns once published, and its record is written after
   * (`finish`, resolving with a message when it could not be); the caller holds the lock until then.
   */
  deferRecord?: (finish: Promise<string | undefined>) => void;
}

export interface BuildResult {
  /** Absent when nothing changed and the last build's files were carried over. */
  site?: Site;
  routes?: RouteTable;
  diagnostics: Diagnostic[];
  stats: BuildStats;
  /** Output files of the pages rendered that read the list of posts (src/routes/inputs.ts). */
  readsPosts?: string[];
  /** What the pages rendered read (a build given `opts.plan`: watch keys pages on it). */
  read?: PagesRead;
}

/** What the pages a build rendered read (render/reads.ts). */
export interface PagesRead {
  /** By output file: its texts (undefined: every text of its language) and the ids of the pieces placed in it. */
  pages: Map<string, { texts: TextList | undefined; pieces: string[] }>;
  /** What each piece made by this build read. */
  pieces: Map<string, MadePiece>;
}

/** Run every stage; throws BuildError (with all diagnostics) when the build must not be published. */
export async function build(config: BuildConfig, writer: Writer = new DiskWriter(config.outDir), opts: BuildOptions = {}): Promise<BuildResult> {
  // The input stamps the caller took count as this build's first stage ("key").
  const started = performance.now() - (opts.inputs?.ms ?? 0);
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
  } catch (err) {
    // A post's file changed under the build (its body read on demand: content/post-body.ts).
    if (err instanceof ContentChanged) throw new BuildError('load', [{ severity: 'error', code: 'changed', file: err.file, message: err.message }]);
    // A file of the new build the disk refused (full, read-only): named, the previous output kept.
    if (err instanceof OutputWriteError) throw new BuildError('write', [{ severity: 'error', code: 'write', file: err.file, message: err.message }]);
    throw err;
  } finally {
    await Promise.all([state.pool?.terminate(), state.helper?.terminate(), state.writeThread?.terminate()]);
    state.markdown?.close();
  }
}

interface BuildState {
  started: number;
  stages: Record<string, number>;
  lap(stage: string): void;
  diags: Diagnostics;
  pool?: PagePool;
  helper?: MarkdownHelper;
  /** Posts' HTML kept between one-shot builds, where this build renders many posts (content/markdown-cache.ts). */
  markdown?: KeptMarkdown;
  /** Its file, for a build on disk (opened when the build turns out to render many posts). */
  markdownFile?: string;
  /** Posts whose HTML page workers took from it. */
  keptByWorkers?: number;
  /** Writes the pages this thread renders, when it renders many (output/write-thread.ts). */
  writeThread?: WriteThread;
  /** Output files of the pages rendered that read the list of posts. */
  readsPosts?: string[];
  /** What the rendered pages read, for a build given `opts.plan` (watch). */
  read?: PagesRead;
}

/**
 * The stages in order. Each stage function below does one step and reports into `state.diags`;
 * this function only decides, after each, whether the build goes on (`fail` drops everything
 * written and names the stage).
 */
async function buildSite(config: BuildConfig, writer: Writer, opts: BuildOptions, state: BuildState): Promise<BuildResult> {
  const { cache } = opts;
  const { lap, diags } = state;
  // key: nothing changed since the last good build of this folder? Then it stays as it is. (The
  // CLI checks that first, without loading the build, and passes what it read in `inputs`.)
  const last = opts.inputs ? opts.inputs.last : !cache && writer instanceof DiskWriter ? await readRecord(config) : undefined;
  // One-shot builds with many posts render markdown on the second core: the helper starts first,
  // so its start-up overlaps the input key and the data files. Not when the last build is recorded:
  // an incremental build renders few posts, and the helper would render every one.
  // (A large site's build also bounds its heap's growth, before it loads: parallel.ts boundHeapGrowth.)
  const postCount = cache ? 0 : postFolders(config.contentDir);
  boundHeapGrowth(postCount);
  if (opts.workerEntry && !opts.plan && !cache && !last?.routes) state.helper = MarkdownHelper.start(opts.workerEntry, postCount);
  const record = !cache && writer instanceof DiskWriter ? { stamps: opts.inputs?.stamps ?? (await inputStamps(config, last)), last } : undefined;
  if (record && writer instanceof DiskWriter && !opts.inputs) {
    const same = await unchangedResult(config, record.stamps, last, state.started);
    if (same) {
      await writer.abort();
      return same;
    }
  }
  if (record) {
    state.markdownFile = KeptMarkdown.fileOf(config.cacheDir, config.contentDir, record.stamps.generator);
    // (A helper started: every post is rendered. Its bodies kept as HTML are neither read nor sent to it.)
    if (state.helper) state.markdown = KeptMarkdown.open(state.markdownFile);
    lap('key');
  }

  const fail = async (stage: string): Promise<never> => {
    await writer.abort();
    throw new BuildError(stage, diags.items.filter((d) => d.severity === 'error' || (config.strict && d.severity === 'warning')));
  };
  if (!cache) forgetRequired();
  // Builds without a record (in memory: tests, `site check`) key their compiled code the same way.
  const compiling = compileCode(config, cache, record?.stamps.compiled ?? (cache ? undefined : (await codeInputs(config)).compiled), record?.stamps.outside);

  const model = await compiling.model.catch((err: unknown) => {
    if (err instanceof BuildError) for (const d of err.diagnostics) diags.add(d);
    else throw err;
  });
  if (!model) return fail('templates');
  // One-shot builds to disk keep the posts' parsed front matter between runs.
  const posts = record ? postCache.read(postCache.file(config.cacheDir, config.contentDir, record.stamps.kept), (extras) => outsideInputsHold(extras, record.stamps.outside)) : undefined;
  const loaded = await loadStage(config, model, cache, state, posts, record?.stamps);
  if (!loaded) return fail('load');
  lap('load');
  await pauseAsync('loaded');

  const { routes, uses, site } = checkAndRoute(config, model, loaded, diags);
  if (diags.hasErrors()) return fail('route');
  // An incremental build: the routes whose inputs changed since the recorded build (undefined: all).
  const plan = record && writer instanceof DiskWriter ? planRoutes(config, record.stamps, record.last, site, routes, model) : undefined;
  lap('check+route');

  // A build that renders many posts takes their kept HTML (content/markdown-cache.ts).
  keepMarkdownFor(plan?.selected ?? routes.routes, state);
  // Large one-shot builds render on every core: workers start now and join the rendering when
  // loaded (this thread does not wait for them).
  if (opts.workerEntry && !opts.plan && !cache && writer instanceof DiskWriter) await startRenderThreads(opts.workerEntry, plan?.selected ?? routes.routes, state, config, writer);

  const { templates, bundled, images, renamed } = await assetsStage(config, cache, site, routes, uses, compiling, writer, diags);
  if (diags.hasErrors()) return fail('templates');
  lap('templates+assets');

  const derived = derivedAssets(templates, site, diags);
  if (diags.hasErrors()) return fail('templates');
  const assets = assetUrls(site, bundled, images, derived);
  if (plan) {
    plan.assets = assetsKey(templates.compiled.code, assets, images.table());
    carryUnchanged(config, writer as DiskWriter, plan, record!.last, routes, state, opts.inputs?.outputs);
  }
  await Promise.all(assetsToWrite(writer, plan, [...bundled.files, ...derived, ...images.files]).map((f) => writer.write(f.file, f.content)));
  const pages = await renderStage(config, opts, writer, { site, routes, assets, templates, images, model, renamed, plan }, state);
  if (diags.hasErrors()) return fail('render');
  lap('render+write');
  await pauseAsync('rendered');

  // host: the flag, then site.yaml, then the default
  const hostName = config.host ?? site.config.deploy?.host ?? DEFAULT_HOST;
  const host = await derivedFiles(config, writer, hostName, { site, routes, assets, templates, model }, diags, plan, record?.last);
  if (!host) return fail('host');
  if (config.strict && diags.warnings.length) return fail('strict');

  // The files no host may serve go beside the web root: in the build's own folder, published with
  // its pages in one rename (a kill never leaves one build's pages with another's host rules).
  if (writer instanceof DiskWriter) for (const f of host.beside) writer.writeBeside(f.file, f.content);
  await writer.commit();
  if (writer instanceof IncrementalWriter) await writeHostFolder(config.outDir, host.beside);
  else if (writer instanceof MemoryWriter) for (const f of host.beside) writer.beside.set(f.file, f.content);
  lap('swap');
  const stats: BuildStats = { pages, files: writer.files, bytes: writer.bytes, ms: performance.now() - state.started, scriptGzipBytes: bundled.jsBytes, stages: state.stages, images: images.stats, languages: site.languages, carried: 0, host: hostName, threads: 1 + (state.pool?.size ?? 0), markdownHelped: state.helper?.taken ?? 0, markdownKept: (state.markdown?.hits ?? 0) + (state.keptByWorkers ?? 0), ...(state.writeThread && { writtenOnThread: state.writeThread.written }) };
  if (plan?.rendered !== undefined) stats.incremental = { rendered: plan.rendered, reused: (writer as DiskWriter).carried, spliced: plan.spliced?.size ?? 0, pieces: splicedPieces(plan), why: plan.why };
  // The record and caches: awaited here, or (the resident process) once the summary is out.
  const finish = async (): Promise<string | undefined> => {
    let unrecorded: string | undefined;
    if (record && plan && writer instanceof DiskWriter) unrecorded = await recordBuild(config, record, plan, writer, stats, diags, posts, site.today, await compiling.extras, requiredPackages(config, record.stamps, Date.now() - (performance.now() - state.started)));
    // Posts' HTML this build made, kept for the next (after the record: a build that renders every post is already done).
    state.markdown?.save(new Set(site.posts.map(bodyDigest)));
    if (writer instanceof DiskWriter) await writer.settled();
    return unrecorded;
  };
  if (opts.deferRecord && record && plan) opts.deferRecord(new Promise<void>((go) => setImmediate(go)).then(finish));
  else {
    const unrecorded = await finish();
    if (unrecorded) diags.warn({ code: 'record', message: unrecorded });
  }
  return { site, routes, diagnostics: diags.items, stats, readsPosts: state.readsPosts, read: state.read };
}

/**
 * The packages the templates required at run time (not bundled: esbuild's metafile does not name
 * them) from outside the generator's node_modules, by their entry file and package.json: an update
 * of one renders every page again (carry.ts codeInputs, as the compiled code's outside inputs).
 */
function requiredPackages(config: BuildConfig, stamps: InputStamps, since: number): Record<string, string> {
  const files: string[] = [];
  for (const file of outsideFiles(config, requiredByTemplates().values())) {
    files.push(file);
    for (let dir = path.dirname(file); path.basename(dir) !== 'node_modules' && path.dirname(dir) !== dir; dir = path.dirname(dir)) {
      if (existsSync(path.join(dir, 'package.json'))) {
        files.push(path.join(dir, 'package.json'));
        break;
      }
    }
  }
  return outsideInputs(config, files, since, stamps.outside);
}

/** Write the build's record and reads (what the next build carries over by) and the kept caches; a message if the record could not be written. */
async function recordBuild(config: BuildConfig, record: { stamps: InputStamps; last?: BuildRecord }, plan: RoutePlan, writer: DiskWriter, stats: BuildStats, diags: Diagnostics, posts: ReturnType<typeof postCache.read> | undefined, today: string, compiledFrom: Record<string, string> | undefined, packages: Record<string, string>): Promise<string | undefined> {
  const { stamps } = record;
  // What the code was compiled from, and the packages the templates required from a site's own node_modules.
  const extras = compiledFrom && { ...compiledFrom, ...packages };
  // Before the record: a kill between the two leaves reads of another build, which are ignored.
  if (plan.next) await writeReads(recordFile(config), plan.next.record(writer.buildId, (id, made) => plan.keyer.piece(id, made))).catch(() => undefined);
  const unrecorded = await writeRecord(config, {
    key: stamps.key,
    // By the outside inputs this build's code was made from (its list may differ from the last one's).
    code: extras ? recordedCodeKey(stamps, extras) : stamps.code,
    ...(extras && Object.keys(extras).length && { codeExtras: extras }),
    compiled: stamps.compiled,
    codeStamps: stamps.codeStamps,
    content: stamps.content,
    dirs: stamps.dirs,
    idsKey: stamps.idsKey,
    today,
    routes: Object.fromEntries(plan.keys!), // taken by the render stage at the latest
    metas: plan.metas ?? plan.keyer.metaDigests(),
    assets: plan.assets,
    missingTexts: plan.missingTexts,
    readsPosts: [...(plan.readsPosts ?? [])].sort(),
    ...(plan.sitemap && { sitemap: plan.sitemap }),
    outputs: outputStamps(config.outDir, writer.paths(), writer.carriedStamps),
    hostOutputs: hostStamps(config.outDir),
    build: writer.buildId,
    files: writer.paths(),
    diagnostics: diags.items,
    stats,
  });
  if (posts && compiledFrom) postCache.write(postCache.file(config.cacheDir, config.contentDir, stamps.kept), posts, (rel) => rel in stamps.content, compiledFrom);
  keepCodeCaches();
  return unrecorded;
}

/** An incremental build's plan: each route's input key, which routes to render and why. */
interface RoutePlan {
  /** Undefined until taken: a plan that renders every route takes them once, after rendering. */
  keys?: Map<string, string>;
  /** Routes to render; undefined: every route (`why` says why). */
  selected?: Route[];
  why: string;
  /** Set once the assets are known: their key (a change renders every route). */
  assets?: string;
  /** Set after rendering: pages rendered (the rest were carried over or spliced). */
  rendered?: number;
  missingTexts?: boolean;
  /** Pages that read the list of posts: as the last build recorded them (what `keys` assumed), then as of this build. */
  readsPosts?: Set<string>;
  /** This build's route and piece keys. */
  keyer: InputKeys;
  /** The posts' metadata digests, when the recorded ones hold (only post bodies changed); else taken for the record. */
  metas?: Record<string, string>;
  /** What the recorded build's pages read and where their pieces are (output/pieces.ts), when recorded with it. */
  reads?: ReadsRecord;
  /**
   * Pages whose own inputs are unchanged but that show a changed piece (`changed`, numbers in
   * `reads.pieces`): spliced, not rendered; `placed`, where their pieces are.
   */
  splice?: { routes: Route[]; placed: Map<string, number[]>; changed: Set<number> };
  /** Set after rendering: pages spliced, with where their pieces now sit. */
  spliced?: Map<string, number[]>;
  /** The recorded build's web root, its files' stamps as published and as taken at this build's start (output/survey.ts): set when carrying. */
  from?: string;
  expected?: Readonly<Record<string, string>>;
  now?: ReadonlyMap<string, string>;
  /** Set after rendering: what this build's pages read, for its reads record. */
  next?: ReadsWriter;
  /** Set with the derived files: what its sitemap shows (output/sitemap.ts `SitemapInput.key`). */
  sitemap?: string;
}

/** Why a build renders when no content file's text changed (their stamps did: saved, touched, copied). */
const SAVED_UNCHANGED = 'files were saved unchanged';

/**
 * Which routes this build renders: those whose input key (routes/inputs.ts) differs from the
 * recorded build's, when that record can vouch for the output in place, and which it splices:
 * those whose key is the same but that show a piece whose key is not. Anything it cannot vouch
 * for renders everything, and `why` says so.
 */
function planRoutes(config: BuildConfig, stamps: InputStamps, last: BuildRecord | undefined, site: Site, routes: RouteTable, model: SiteModel): RoutePlan {
  const readsPosts = last?.readsPosts && new Set(last.readsPosts);
  const keyer = new InputKeys(site, routes, model, stamps.code);
  // Rendering everything needs no keys first: they are taken once, after rendering, with what the
  // pages read (hashing every route's inputs is ~50 ms at 4,700 routes).
  const all = (why: string): RoutePlan => ({ why, readsPosts, keyer });
  if (!last) return all('no earlier build of this output folder is recorded');
  if (!last.routes || !last.content) return all('the last build was recorded by an earlier version');
  if (last.build === undefined || last.build !== liveBuild(config.outDir)) return all('the build in place is not the one recorded (an interrupted build, or a replaced folder)');
  if (last.code !== stamps.code) return all('the templates, client script, generator or build options changed');
  if (last.missingTexts) return all('the last build showed missing texts as their keys');
  const changed = changedFiles(last.content, stamps.content);
  const shown = changed.length ? `${changed.slice(0, 3).join(', ')}${changed.length > 3 ? ` and ${changed.length - 3} more` : ''} changed` : SAVED_UNCHANGED;
  const dated = last.today !== site.today ? `; the build date changed (${last.today} → ${site.today})` : '';
  const reads = readReads(recordFile(config), last.build);
  const readsList = (file: string) => readsPosts?.has(file) ?? true;
  const textsOf = reads && ((file: string) => listOf(reads, file));
  // Post files edited (none added or removed) on the same date, nothing else: if every edited post
  // looks the same from the other pages, only the edited posts' own pages are keyed again.
  const bodies = !dated && changed.length > 0 && last.metas && changed.every((f) => isPostFile(f) && f in last.content! && f in stamps.content);
  // Edited: the files whose stamps changed, and every post read from its file (one whose stamp held
  // but whose inode or change time did not, a swap by mv, is read: content/load.ts).
  const edited = new Set(changed);
  if (bodies) for (const p of site.posts) if (!isUnread(p)) edited.add(p.file);
  const kept = bodies ? keyer.afterBodyEdits(last.routes, (f) => last.metas![f], edited, readsList, textsOf) : undefined;
  const keys = kept ?? keyer.all(readsPosts && readsList, textsOf);
  const selected: Route[] = [];
  const splice: Route[] = [];
  const placed = new Map<string, number[]>();
  const pieces = new Set<number>();
  // (Pieces read texts and the list of posts, neither changed when `kept`.)
  if (reads && !kept) reads.pieces.forEach(([id, texts, posts, key], n) => keyer.piece(id, { texts: texts < 0 ? undefined : reads.textSets[texts], posts }) !== key && pieces.add(n));
  for (const r of routes.routes) {
    if (keys.get(r.file) !== last.routes[r.file]) selected.push(r);
    else if (pieces.size && listOf(reads!, r.file)) {
      // Where its pieces are; not known (a damaged record): rendered, as it may show a changed one.
      const at = placedOf(reads!, r.file);
      if (!at) selected.push(r);
      else if (at.some((n, i) => i % 3 === 0 && pieces.has(n))) {
        splice.push(r);
        placed.set(r.file, at);
      }
    }
  }
  return { keys, readsPosts, keyer, reads, selected, ...(kept && { metas: last.metas }), ...(splice.length && { splice: { routes: splice, placed, changed: pieces } }), why: `${shown}${dated}` };
}

/** The names of the pieces spliced into pages (`footer`), for the summary. */
function splicedPieces(plan: RoutePlan): string[] {
  if (!plan.spliced?.size || !plan.splice || !plan.reads) return [];
  const names = new Set<string>();
  for (const n of plan.splice.changed) {
    const id = plan.reads.pieces[n]![0];
    names.add(id.slice(id.indexOf('\0') + 1).split(/[:\0]/)[0]!);
  }
  return [...names].sort();
}

/** What the pages each thread rendered read, by output file, with their pieces by id. */
function pagesRead(tallies: readonly RenderTally[]): PagesRead {
  const read: PagesRead = { pages: new Map(), pieces: new Map() };
  for (const t of tallies) {
    const ids = t.pieces.map(([id]) => id);
    for (const [id, made] of t.pieces) if (!read.pieces.has(id)) read.pieces.set(id, made);
    const { files, texts, placed } = t.read;
    for (let i = 0; i < files.length; i++) {
      const pieces = placed[i] ? placed[i]!.split(',').flatMap((n, j) => (j % 3 === 0 ? [ids[Number(n)]!] : [])) : [];
      read.pages.set(files[i]!, { texts: texts[i]! < 0 ? undefined : t.textSets.lists[texts[i]!], pieces });
    }
  }
  return read;
}

/**
 * This build's reads record (output/pieces.ts): rendered pages as they read now, spliced and
 * carried pages as recorded (a spliced page's pieces where they now sit); pieces as made now, or
 * as recorded when no page rendered now made them. Numbered as the recorded one, unless every
 * page was rendered; a thread's pieces are renumbered only where its numbers differ.
 */
function nextReads(routes: RouteTable, plan: RoutePlan, rendered: (route: Route) => boolean, tallies: readonly RenderTally[]): ReadsWriter {
  const w = new ReadsWriter(plan.selected ? plan.reads : undefined);
  for (const t of tallies) {
    const numbers = t.pieces.map(([id, m]) => w.piece(id, { texts: m.all ? undefined : m.texts, posts: m.posts }));
    const same = numbers.every((n, i) => n === i);
    // The thread's text lists numbered once each, not once a page (74,000 pages share a few dozen).
    const lists = t.textSets.lists.map((list) => w.list(list));
    const { files, texts, placed } = t.read;
    for (let i = 0; i < files.length; i++) w.rendered(files[i]!, texts[i]! < 0 ? undefined : lists[texts[i]!], placed[i]!, same ? undefined : numbers);
  }
  if (plan.selected) for (const r of routes.routes) if (!rendered(r)) w.kept(r.file, plan.spliced?.get(r.file));
  return w;
}

/**
 * Routes left out of the plan: their files taken from the recorded build (hard links), once the
 * assets every page links are known to be the same. A file it lacks, or one changed since it was
 * published, is rendered instead.
 */
function carryUnchanged(config: BuildConfig, writer: DiskWriter, plan: RoutePlan, last: BuildRecord | undefined, routes: RouteTable, state: BuildState, now?: ReadonlyMap<string, string>): void {
  if (!plan.selected) return;
  if (plan.assets !== last?.assets) {
    plan.selected = undefined;
    plan.splice = undefined;
    plan.why = 'a file every page links changed (the styles, the client script, the client data made from the content, or the images)';
    return;
  }
  const chosen = new Set([...plan.selected, ...(plan.splice?.routes ?? [])]);
  // From the recorded build's own folder, not through the live link: a build of other options
  // published meanwhile must not lend its pages (a file that is gone is rendered instead).
  const from = path.join(buildsDir(config.outDir), last!.build!, WEB);
  Object.assign(plan, { from, expected: last?.outputs, now });
  const missing = new Set(writer.carry(from, routes.routes.filter((r) => !chosen.has(r)).map((r) => r.file), last?.outputs, now));
  if (missing.size) {
    const selected = new Set(plan.selected);
    plan.selected = routes.routes.filter((r) => selected.has(r) || missing.has(r.file));
    // Said as it is: pages changed or removed in the output since the last build (not content saved unchanged).
    const again = `${missing.size} page(s) changed or removed in the output since the last build, written again`;
    plan.why = plan.why === SAVED_UNCHANGED ? again : `${plan.why}; ${again}`;
  }
  state.lap('carry');
}

interface Compiling {
  templates: Promise<TemplateModule>;
  model: Promise<SiteModel>;
  bundled: Promise<BundledAssets>;
  /** The files outside the stamped folders the code was made from (carry.ts `outsideInputs`); none for a watch session's. */
  extras: Promise<Record<string, string> | undefined>;
}

/**
 * Templates and the client script compile in esbuild's own process while this thread loads the
 * content (awaited by the assets stage; their errors are reported there, never unhandled). A
 * one-shot build takes them from the last build's compiled code when the templates, client,
 * generator and options are unchanged (`codeKey`) and so are the files they import from elsewhere
 * (`extras`): no esbuild run at all.
 */
function compileCode(config: BuildConfig, cache: BuildCache | undefined, codeKey?: string, outside?: Readonly<Record<string, string>>): Compiling {
  const file = codeKey && !cache ? path.join(config.cacheDir, `code-${codeKey.slice(0, 16)}.v8`) : undefined;
  const kept = file ? readCompiled(file, outside) : undefined;
  if (kept) touch(file!); // in use: kept by the pruning of older entries
  const started = Date.now();
  const model = cache?.model ? Promise.resolve(cache.model) : kept ? Promise.resolve(kept.model) : compileModel(config.templatesDir);
  const templates = cache?.templates ? Promise.resolve(cache.templates.compiled) : kept ? Promise.resolve(kept.templates) : compileTemplates(config.templatesDir);
  const bundled = cache?.bundled ? Promise.resolve(cache.bundled) : kept ? Promise.resolve(kept.bundled) : bundleAssets(config.clientDir, config.templatesDir);
  // One-shot builds keep V8's code cache of the evaluated templates and model, named by the code's
  // own hash: V8 checks a cache against its source's length only.
  const v8 = (part: string, code: string) => (codeKey && !cache ? path.join(config.cacheDir, `v8-${createHash('sha256').update(code).digest('hex').slice(0, 16)}-${part}.bin`) : undefined);
  const compiling = {
    model: cache?.model
      ? Promise.resolve(cache.model)
      : (model as Promise<CompiledTemplates | undefined>).then((m) => {
          if (cache) cache.modelInputs = m?.inputs;
          return evaluateModel(m, m && v8('model', m.code));
        }),
    templates: cache?.templates ? Promise.resolve(cache.templates) : (templates as Promise<CompiledTemplates>).then((t) => evaluateTemplates(t, v8('templates', t.code))),
    bundled,
    extras: cache
      ? Promise.resolve(undefined)
      : kept
        ? Promise.resolve(kept.extras)
        : Promise.all([model, templates, bundled]).then(([m, t, b]) => outsideInputs(config, [...((m as CompiledTemplates | undefined)?.inputs ?? []), ...((t as CompiledTemplates).inputs ?? []), ...(b.inputs ?? [])], started, outside)),
  };
  for (const p of Object.values(compiling)) p.catch(() => undefined);
  if (file && !kept)
    Promise.all([model, templates, bundled, compiling.extras])
      .then(([m, t, b, extras]) => writeCompiled(file, { model: m as CompiledTemplates | undefined, templates: t as CompiledTemplates, bundled: b, extras: extras! }))
      .catch(() => undefined);
  return compiling;
}

interface CompiledCode {
  model: CompiledTemplates | undefined;
  templates: CompiledTemplates;
  bundled: BundledAssets;
  extras: Record<string, string>;
}

function touch(file: string): void {
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // pruned meanwhile: compiled again next time
  }
}

/**
 * The kept compiled code; none when absent, unreadable, not of this shape, or made from a file
 * outside the stamped folders that changed since (then everything compiles again).
 */
function readCompiled(file: string, outside?: Readonly<Record<string, string>>): CompiledCode | undefined {
  try {
    const kept = deserialize(readFileSync(file)) as Partial<CompiledCode> | undefined;
    const compiled = (c: unknown) => typeof (c as CompiledTemplates)?.code === 'string' && typeof (c as CompiledTemplates).entry === 'string';
    const b = kept?.bundled;
    const ok = compiled(kept?.templates) && (kept!.model === undefined || compiled(kept!.model)) && typeof b?.js === 'string' && typeof b.cssText === 'string' && Array.isArray(b.files);
    if (!ok || typeof kept!.extras !== 'object' || kept!.extras === null || !outsideInputsHold(kept!.extras, outside)) return undefined;
    // A site with a model always had it compiled: a kept entry without one is not this site's.
    return kept!.model !== undefined || !existsSync(path.join(path.dirname(kept!.templates!.entry), MODEL_ENTRY)) ? (kept as CompiledCode) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keep this build's compiled code for the next one. The 8 most recent entries stay (builds with
 * other options or template folders take turns), and none unused for a day.
 */
function writeCompiled(file: string, code: CompiledCode): void {
  try {
    const dir = path.dirname(file);
    writeFileAtomic(file, serialize(code));
    const kept = readdirSync(dir)
      .filter((name) => name.startsWith('code-') && name.endsWith('.v8'))
      .map((name) => ({ p: path.join(dir, name), t: statSync(path.join(dir, name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
      .sort((a, b) => b.t - a.t);
    for (const [i, k] of kept.entries()) if (i >= 8 || Date.now() - k.t > 86_400_000) rmSync(k.p, { force: true });
  } catch {
    // the next build compiles again
  }
}

/**
 * Stage "load": the content folder read, parsed and validated (the markdown helper gets each post's
 * body as it is read). With the kept posts' cache and the input stamps, a post unchanged since the
 * build that kept it is not read (content/post-body.ts).
 */
async function loadStage(config: BuildConfig, model: SiteModel, cache: BuildCache | undefined, state: BuildState, posts?: ParseCache, stamps?: InputStamps): Promise<Site | undefined> {
  const { helper, markdown } = state;
  if (cache) cache.model = model;
  const toHelper = helper && ((p: Post) => (markdown?.has(bodyDigest(p)) ? undefined : helper.add(p.file, p.body)));
  const site = await loadSite({ contentDir: config.contentDir, model, baseUrl: config.baseUrl, drafts: config.drafts, today: config.today, cache: cache?.parsed, posts, stamps: posts && stamps?.content, ids: posts && stamps?.ids, onPost: toHelper, listings: stamps?.listings, unchanged: cache?.unchanged, onRoutable: routeReferences(state.diags) }, state.diags);
  helper?.flush();
  return site;
}

/** What the image stage is asked for: which images, the names their files get, which ones posts are shared with. */
interface ImageUses {
  used: Set<string>;
  names: Map<string, string | undefined>;
  shares: Set<string>;
}

/**
 * Stages "check" and "route": content warnings, the images the model names, the route table, and
 * the images pages use; returns the site with each post's preview image (`postImages`).
 */
function checkAndRoute(config: BuildConfig, model: SiteModel, loaded: Site, diags: Diagnostics): { routes: RouteTable; uses: ImageUses; site: Site } {
  let site = loaded;
  checkContent(site, model, diags);
  const images = model.images?.(site) ?? [];
  const report = siteReport(site, diags);
  // Named images are looked up in the folder as the image stage lists it (links followed inside
  // the content folder): a name that exists only through a link loop, or names a folder, is missing here.
  const listed = listFilesWithin(path.join(config.contentDir, 'images'), config.contentDir);
  const imageFiles = new Set(listed.files);
  // (Behind a link out of the content folder, a name is that link's error, not a missing image.)
  const imageExists = (file: string) => imageFiles.has(file) || listed.outside.some((o) => o === '' || file === o || file.startsWith(`${o}/`));
  for (const img of images) if (!imageExists(img.file)) report.error(img.at, `images/${img.file} does not exist under the content folder`, 'missing-image');
  // A HEIC or RAW file among the images is reported with the missing ones, not in a later run;
  // so is a link out of the content folder (never read: it would publish whatever it points to).
  for (const rel of listed.outside) diags.error({ code: 'outside-content', file: rel ? `images/${rel}` : 'images', message: OUTSIDE_CONTENT });
  for (const rel of listed.enclosing) diags.error({ code: 'image', file: `images/${rel}`, message: ENCLOSING_LINK });
  for (const rel of unconvertible(listed.files, new Set([ICON, TOUCH_ICON]))) diags.error({ code: 'image', file: `images/${rel}`, message: NOT_CONVERTIBLE });
  const routes = buildRoutes(site, diags);
  // Images and links inside posts: checked against the routes, their images encoded with the rest.
  const inPosts = checkPostRefs(site, routes, config.contentDir, diags, imageExists);
  const postImages = sharedPostImages(site, inPosts);
  if (Object.keys(postImages).length) site = Object.freeze({ ...site, postImages: Object.freeze(postImages) });
  const uses: ImageUses = {
    used: new Set([...images.map((img) => img.file), ...(site.socialImage ? [site.socialImage] : []), ...inPosts.map((u) => u.file)]),
    names: imageNames(site, images, inPosts),
    shares: new Set(Object.values(postImages).map((p) => p.file)),
  };
  return { routes, uses, site };
}

/**
 * What each image's files are named after, the most important first: the names the model gives
 * (ids in the site's data), then each post's slug for its images, the oldest post first (a new
 * post never renames an image an older one shows), its default language first, in the order they
 * appear. The image stage makes them URL-safe and unique (`publicNames`).
 */
function imageNames(site: Site, images: readonly ImageRef[], inPosts: readonly PostImageUse[]): Map<string, string | undefined> {
  const names = new Map<string, string | undefined>();
  for (const img of images) if (!names.has(img.file) && img.name !== undefined) names.set(img.file, img.name);
  const rank = (lang: string) => (lang === site.defaultLanguage ? '' : lang);
  const ordered = inPosts
    .map((use, i) => ({ use, i }))
    .sort((a, b) => a.use.post.date.localeCompare(b.use.post.date) || a.use.post.slug.localeCompare(b.use.post.slug) || rank(a.use.post.lang).localeCompare(rank(b.use.post.lang)) || a.i - b.i);
  for (const { use } of ordered) if (!names.has(use.file)) names.set(use.file, use.post.slug);
  return names;
}

/**
 * Each post's preview image, by post file: its first image, else its default-language version's
 * first (a translation that left the photo out is still shared with it; its alt text, in another
 * language, is then left for the post's title), else another language's.
 */
function sharedPostImages(site: Site, inPosts: readonly PostImageUse[]): Record<string, PostImage> {
  const first = new Map<string, PostImageUse>();
  for (const use of inPosts) if (!first.has(use.post.file)) first.set(use.post.file, use);
  const bySlug = new Map<string, PostImageUse>();
  for (const use of first.values()) {
    const had = bySlug.get(use.post.slug);
    if (!had || (use.post.lang === site.defaultLanguage && had.post.lang !== site.defaultLanguage)) bySlug.set(use.post.slug, use);
  }
  const out: Record<string, PostImage> = {};
  for (const post of site.posts) {
    const own = first.get(post.file);
    const other = own ?? bySlug.get(post.slug);
    if (other) out[post.file] = { file: other.file, alt: own ? own.alt : '' };
  }
  return out;
}

/**
 * Threads for what this build renders: page workers for a large build (the markdown helper then
 * stops: page workers render their own markdown and write their own pages); else a write thread
 * for many pages and, for an incremental build that renders many posts after all, a markdown
 * helper handed their bodies (a one-shot build without a record started its helper before loading).
 */
async function startRenderThreads(workerEntry: URL, selected: readonly Route[], state: BuildState, config: BuildConfig, writer: DiskWriter): Promise<void> {
  state.pool = PagePool.start(workerEntry, selected.length);
  if (state.pool && state.helper) {
    await state.helper.terminate();
    state.helper = undefined;
  }
  if (state.pool) return;
  const posts = postsOf(selected);
  const markdown = state.markdown;
  if (!state.helper) state.helper = MarkdownHelper.forPosts(workerEntry, markdown ? posts.filter((p) => !markdown.has(bodyDigest(p))) : posts);
  // (Called again when an incremental build renders everything after all: one thread a build.)
  writer.writeOn((state.writeThread ??= WriteThread.start(workerEntry, config.outDir, writer.staging, selected.length, state.helper?.thread)));
}

const postsOf = (routes: readonly Route[]): Post[] => routes.flatMap((r) => (r.kind === 'post' && r.post ? [r.post] : []));

/** Open the posts' kept HTML when a build on disk renders many posts (a few: markdown costs less than reading the file). */
function keepMarkdownFor(selected: readonly Route[], state: BuildState): void {
  if (state.markdownFile && !state.markdown && MarkdownHelper.many(postsOf(selected).length)) state.markdown = KeptMarkdown.open(state.markdownFile);
}

/** Stage "templates+assets": compiled templates and client script, images (a cold cache shows progress), every route's template checked. */
async function assetsStage(
  config: BuildConfig,
  cache: BuildCache | undefined,
  site: Site,
  routes: RouteTable,
  uses: ImageUses,
  compiling: Compiling,
  writer: Writer,
  diags: Diagnostics,
): Promise<{ templates: TemplateModule; bundled: BundledAssets; images: ProcessedImages; renamed: boolean }> {
  let imageProgress: Progress | undefined;
  const imagesProgress = (done: number, total: number, current?: string) => {
    imageProgress ??= startProgress('images', total, { quiet: config.quiet || Boolean(cache) });
    imageProgress.update(done, current);
  };
  let templates: TemplateModule;
  let bundled: BundledAssets;
  let images: ProcessedImages;
  const before = cache?.images;
  try {
    [templates, bundled, images] = await Promise.all([
      compiling.templates,
      compiling.bundled,
      before && before.usedKey === usedKey(uses)
        ? before
        : processImages(config.contentDir, { cacheDir: config.cacheDir, icons: new Set([ICON, TOUCH_ICON]), social: site.socialImage, ...uses, progress: imagesProgress }),
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
  imageProgress?.end();
  for (const rel of images.unused)
    diags.warn({ code: 'unused-image', file: `images/${rel}`, message: 'no page uses this image (the site\'s data or a post): it is not encoded or published; remove it or use it' });
  // An image that kept its source but not its URL (a post now names it first): pages a watch plan
  // would leave alone may show it, so every route is rendered again.
  const now = images.table();
  const renamed = Boolean(before && before !== images && Object.entries(before.table()).some(([file, a]) => now[file] && now[file]!.src !== a.src));
  return { templates, bundled, images, renamed };
}

/** A file the templates derive from the whole site (TemplateModule.assetFiles), under its hashed name. */
interface DerivedAsset {
  name: string;
  file: string;
  content: string;
}

/** The templates' derived files, each named by its content hash; an error in them names templates/index.tsx. */
function derivedAssets(templates: TemplateModule, site: Site, diags: Diagnostics): DerivedAsset[] {
  if (!templates.assetFiles) return [];
  try {
    const files = templates.assetFiles(site, (lang) => createTranslate(() => undefined, siteMessages(site, lang)));
    return Object.entries(files).map(([name, content]) => ({ name, file: `assets/${hashedName(name, contentHash(content))}`, content }));
  } catch (err) {
    diags.error({ code: 'template', file: 'templates/index.tsx', field: 'assetFiles', message: err instanceof Error ? err.message : String(err) });
    return [];
  }
}

/** Asset URLs as pages link them, under the base path (a GitHub Pages project site serves the output at /site/). */
function assetUrls(site: Site, bundled: BundledAssets, images: ProcessedImages, derived: readonly DerivedAsset[]): Assets {
  const base = basePathOf(site.config.baseUrl);
  const at = (p: string) => withBase(base, p);
  return {
    cssText: bundled.cssText,
    styleHash: bundled.styleHash,
    // A page type with a first screen of its own inlines only that and links the whole stylesheet.
    firstScreen: bundled.firstScreen && { ...bundled.firstScreen, href: at(bundled.firstScreen.href) },
    styleHashes: bundled.styleHashes,
    noscriptCss: at(bundled.noscriptCss),
    js: at(bundled.js),
    ...(bundled.boot && { boot: bundled.boot, scriptHashes: [bundled.boot.hash] }),
    files: Object.fromEntries(derived.map((f) => [f.name, at(`/${f.file}`)])),
    forward: at(bundled.forward),
    icon: at(images.get(ICON).src),
    touchIcon: at(images.get(TOUCH_ICON).src),
    manifest: at('/manifest.webmanifest'),
    image: base ? underBase(images.get, at) : images.get,
  };
}

interface Rendering {
  site: Site;
  routes: RouteTable;
  assets: Assets;
  templates: TemplateModule;
  model: SiteModel;
}

/**
 * Stage "render+write": every thread claims chunks of routes from one counter (render/parallel.ts)
 * and writes its pages; returns the pages by kind and language. Render errors (once each) and
 * missing texts go to the diagnostics.
 */
async function renderStage(config: BuildConfig, opts: BuildOptions, writer: Writer, r: Rendering & { images: ProcessedImages; renamed: boolean; plan?: RoutePlan }, state: BuildState): Promise<BuildStats['pages']> {
  const { site, routes, assets, templates } = r;
  const { diags } = state;
  const only = r.renamed ? undefined : opts.plan?.(site, routes, r.model);
  const selected = r.plan?.selected ?? (only ? routes.routes.filter(only) : routes.routes);
  // An incremental build that renders everything after all (its assets changed) is a large build again.
  if (r.plan && !r.plan.selected) keepMarkdownFor(selected, state);
  if (r.plan && !r.plan.selected && !state.pool && !state.helper && opts.workerEntry && writer instanceof DiskWriter) await startRenderThreads(opts.workerEntry, selected, state, config, writer);
  const { pool } = state;
  const counter = routeCounter();
  const tally = createTally();
  const tallies = [tally];
  if (pool && writer instanceof DiskWriter) pool.send(site, routes, assets, r.images.table(), templates, writer, { ...config, markdown: state.markdown?.file }, counter, r.plan?.selected);
  const pageProgress = startProgress('pages', selected.length, { quiet: config.quiet || Boolean(opts.cache) });
  const env = renderEnv(site, routes, assets, templates, tally, { helper: state.helper, contentDir: config.contentDir, kept: state.markdown });
  await renderClaimed(selected, counter, env, writer, tally, opts.onRoute, (claimed) => pageProgress.update(Math.min(claimed, selected.length)));
  if (writer instanceof DiskWriter) await writer.pagesWritten();
  if (pool && writer instanceof DiskWriter) {
    const done = await pool.finish().catch(async (err: Error) => {
      if (err instanceof OutputWriteError) throw err; // the disk's, as on this thread
      diags.error({ code: 'render', message: err.message });
      return undefined;
    });
    if (done) {
      writer.adopt(done.files, done.bytes);
      tallies.push(...done.tallies);
      state.keptByWorkers = done.markdownKept;
    }
  }
  // Pages whose only change is a piece they show: the new piece spliced in (render/splice.ts).
  const plan = r.plan;
  const splice = plan?.splice;
  const spliced = splice && plan.reads && plan.from && !diags.hasErrors() ? await splicePages(splice.routes, { from: plan.from, reads: plan.reads, placed: splice.placed, changed: splice.changed, expected: plan.expected, now: plan.now, env, writer, tally }) : undefined;
  const pages: BuildStats['pages'] = {};
  const missing = new Map<string, Set<string>>();
  for (const t of tallies) {
    for (const [kind, byLang] of Object.entries(t.pages)) for (const [lang, n] of Object.entries(byLang)) (pages[kind] ??= {})[lang] = (pages[kind]?.[lang] ?? 0) + n;
    for (const [lang, keys] of t.missing) for (const k of keys) (missing.get(lang) ?? missing.set(lang, new Set()).get(lang)!).add(k);
  }
  state.readsPosts = tallies.flatMap((t) => t.readsPosts);
  tally.pieces = piecesMade(env);
  if (opts.plan) state.read = pagesRead(tallies);
  if (plan) {
    // Carried and spliced pages count as built; which texts they miss is only known when rendered.
    const chosen = new Set([...selected, ...(spliced?.rendered ?? [])]);
    for (const route of routes.routes) if (!chosen.has(route)) (pages[route.kind] ??= {})[route.lang] = (pages[route.kind]?.[route.lang] ?? 0) + 1;
    plan.rendered = chosen.size;
    plan.spliced = spliced?.placed;
    plan.missingTexts = missing.size > 0;
    // What the rendered pages read now: the keys are taken again where it is not what they assumed.
    const { reads, changed } = readsAfterRender(routes.routes, (route) => chosen.has(route), plan.readsPosts, state.readsPosts);
    plan.readsPosts = reads;
    const next = (plan.next = nextReads(routes, plan, (route) => chosen.has(route), tallies));
    const textsOf = (file: string) => next.listOf(file);
    if (changed || !plan.keys) plan.keys = plan.keyer.all((file) => reads.has(file), textsOf);
    else for (const route of chosen) plan.keys.set(route.file, plan.keyer.route(route, reads.has(route.file), textsOf(route.file)));
  }
  for (const e of onceEach(tallies.flatMap((t) => t.errors))) diags.add(e);
  for (const [lang, entries] of missing) {
    const file = `i18n/${lang}.yaml`;
    const { keys: absent, args } = splitMissing(entries);
    // A text using an argument the template showing it does not pass would show `{name}` on the page.
    for (const { key, missing: names, passed } of args)
      diags.error({
        code: 'message',
        file,
        ...site.locate(file, key.split('.')),
        field: key,
        message: `uses {${names.join('}, {')}}, which the template showing it does not pass (pages would show "{${names[0]}}" as written; it passes ${passed.length ? `{${passed.join('}, {')}}` : 'no arguments'}): remove it, or write a fact such as {contact:phone}`,
      });
    if (!absent.length) continue;
    const keys = new Set(absent);
    const list = [...keys].sort();
    const shown = `${list.slice(0, 10).join(', ')}${list.length > 10 ? `, … (site check --missing ${lang} lists all)` : ''}`;
    // A published build never shows a raw key: only drafts (--drafts, site watch) show one, for review.
    if (config.drafts) diags.warn({ code: 'missing-translation', file: `i18n/${lang}.yaml`, message: `${keys.size} key(s) used by pages but missing in ${lang} (shown as the key in this draft build): ${shown}` });
    else diags.error({ code: 'missing-translation', file: `i18n/${lang}.yaml`, message: `${keys.size} key(s) used by pages are missing in ${lang}: write them, or make ${lang} a draft (site.yaml draftLanguages) until it is complete: ${shown}` });
  }
  pageProgress.end();
  return pages;
}

/**
 * Stage "host": the files derived from the route table (service worker, sitemap, robots.txt, the
 * chosen host's files, favicon, manifest), written; returns the host's files that go beside the
 * web root, or undefined when the host cannot be served (an error in the diagnostics).
 */
async function derivedFiles(config: BuildConfig, writer: Writer, hostName: HostName, r: Rendering, diags: Diagnostics, plan?: RoutePlan, last?: BuildRecord): Promise<ReturnType<typeof hostFiles> | undefined> {
  const { site, routes, assets, templates } = r;
  const at = (p: string) => withBase(basePathOf(site.config.baseUrl), p);
  const offlineRoutes = routes.routes.filter((route) => route.kind === 'offline');
  const offline = Object.fromEntries(offlineRoutes.map((route) => [route.lang === site.defaultLanguage ? '' : route.lang, at(route.path)]));
  const precache = [assets.js, ...Object.values(assets.files ?? {}), assets.icon, ...Object.values(offline)];
  // The offline pages are cached under fixed names: their bytes go into the worker's version, or a
  // changed phone number would never reach the cache. The writer has them when they were rendered,
  // kept (a watch rebuild) or carried from the live build (an incremental one: read there); else
  // they are rendered here (rendering is pure: the bytes written).
  let offlineEnv: ReturnType<typeof renderEnv> | undefined;
  const offlineBytes = offlineRoutes.map((route) => writer.contentOf?.(route.file) ?? renderRoute(route, (offlineEnv ??= renderEnv(site, routes, assets, templates, createTally()))));
  const sw = await bundleServiceWorker(config.clientDir, precache, offline, offlineBytes, config.cacheDir);
  // the chosen host's files, from the route table
  let host: ReturnType<typeof hostFiles>;
  try {
    host = hostFiles(hostName, hostRules(site, routes, inlineHashesOf(assets)), config.outDir, { contentDir: config.contentDir, siteUrl: site.config.baseUrl, baseUrlFlag: config.baseUrl });
  } catch (err) {
    diags.error(config.host ? { code: 'host', message: `--host ${config.host}: ${(err as Error).message}` } : { code: 'host', file: 'site.yaml', field: 'deploy.host', message: (err as Error).message });
    return undefined;
  }
  const favicon = { file: 'favicon.ico', content: await faviconIco(path.join(config.contentDir, 'images', ICON), config.cacheDir) };
  for (const f of [...sitemapStage(writer, site, routes, plan, last), robotsTxt(site), ...host.web, favicon, manifestFile(site, assets), sw]) await writer.write(f.file, f.content);
  return host;
}

/**
 * The styles, scripts, client data and images to write. Each name carries a hash of its bytes: an
 * incremental build that carries pages takes the live build's files of the same names as they are
 * (~90 files of 1 MB a rebuild of the shipped site wrote again), and writes the rest.
 */
function assetsToWrite<T extends { file: string }>(writer: Writer, plan: RoutePlan | undefined, files: T[]): T[] {
  const taken = takenFromLive(writer, plan, files.map((f) => f.file));
  return files.filter((f) => !taken.has(f.file));
}

/**
 * The sitemap files to write: none when they show what the recorded build's showed and that
 * build's files are intact, else those the output lacks; every one otherwise. Its key goes into
 * the record.
 */
function sitemapStage(writer: Writer, site: Site, routes: RouteTable, plan?: RoutePlan, last?: BuildRecord): OutputFile[] {
  const input = sitemapInput(site, routes);
  if (plan) plan.sitemap = input.key;
  const names = sitemapNames(input);
  const taken = last?.sitemap === input.key ? takenFromLive(writer, plan, names) : new Set<string>();
  return taken.size === names.length ? [] : sitemapOf(input).filter((f) => !taken.has(f.file));
}

/**
 * Derived files an incremental build that carries pages links from the live build, as it links
 * pages: those the recorded build published and that are unchanged since (their stamps checked).
 * Returns the files taken (none for any other build).
 */
function takenFromLive(writer: Writer, plan: RoutePlan | undefined, files: readonly string[]): Set<string> {
  const expected = plan?.expected;
  if (!(plan?.from && expected && writer instanceof DiskWriter)) return new Set();
  const published = files.filter((f) => f in expected);
  const missing = new Set(writer.carry(plan.from, published, expected, plan.now, false));
  return new Set(published.filter((f) => !missing.has(f)));
}

/**
 * The route stage's reference checks (redirect targets and loops, landing-page targets, duplicate
 * paths) on a site whose other files have errors, so one run reports both. A partial site may trip
 * the route builder over a reference the load stage already reported: that adds nothing new.
 */
function routeReferences(diags: Diagnostics): (partial: Site) => void {
  return (partial) => {
    try {
      buildRoutes(partial, diags);
    } catch {
      // an id the load stage already reported as unknown (canonical, parent)
    }
  };
}

/**
 * Render errors once each: one data or template problem fails every page that shows it, so the
 * same message from many routes becomes one error naming the first route and how many more.
 */
function onceEach(errors: readonly Diagnostic[]): Diagnostic[] {
  const groups = new Map<string, Diagnostic[]>();
  for (const e of errors) (groups.get(`${e.code}\0${e.message}`) ?? groups.set(`${e.code}\0${e.message}`, []).get(`${e.code}\0${e.message}`)!).push(e);
  return [...groups.values()].map(([first, ...more]) => (more.length ? { ...first!, message: `${first!.message} (and on ${more.length} more route${more.length > 1 ? 's' : ''})` } : first!));
}

/** An image lookup whose URLs (src and every srcset entry) carry the base path. */
function underBase(get: (file: string) => ImageAsset, at: (p: string) => string): (file: string) => ImageAsset {
  const memo = new Map<string, ImageAsset>();
  return (file) => {
    let hit = memo.get(file);
    if (!hit) {
      const img = get(file);
      const srcset = (s: string) => s.split(/,\s*/).map((entry) => (entry.startsWith('/') ? at(entry) : entry)).join(', ');
      memo.set(file, (hit = { ...img, src: at(img.src), sources: img.sources.map((s) => ({ ...s, srcset: srcset(s.srcset) })), ...(img.share && { share: at(img.share) }) }));
    }
    return hit;
  };
}

/** Icons under content/images, re-encoded in their own format (hashed); every other image is converted. */
const ICON = 'icon.svg';
const TOUCH_ICON = 'touch-icon.png';
