/**
 * A watch session's build state, kept between rebuilds: parsed content, templates, bundles,
 * images and the hash of every file on disk. No module-level state: all of it lives here.
 */
import path from 'node:path';
import type { BuildConfig } from '../config.ts';
import { build, type BuildCache, type BuildResult, type PagesRead } from '../build.ts';
import { BuildError, formatDiagnostic } from '../diagnostics.ts';
import type { Route } from '../routes/table.ts';
import { fileForPath } from '../routes/paths.ts';
import { IncrementalWriter, hashTree } from '../output/writer.ts';
import { InputKeys, readsAfterRender, type PieceInputs } from '../routes/inputs.ts';
import type { TextList } from '../render/reads.ts';
import { isPostFile } from '../content/load.ts';
import { failPoint } from '../output/publish.ts';
import { outsideFiles } from '../output/carry.ts';

/** Two records of what a piece read: the same texts (or all of them), the list of posts or not. */
function sameMade(a: PieceInputs, b: PieceInputs): boolean {
  if (a.posts !== b.posts || (a.texts === undefined) !== (b.texts === undefined)) return false;
  return a.texts === undefined || (a.texts.length === b.texts!.length && a.texts.every((t, i) => t === b.texts![i]));
}

export interface RebuildReport {
  ok: boolean;
  /** What triggered it, for the one-line log. */
  cause: string;
  /** Pages rendered. */
  rendered: number;
  /** Output files whose bytes changed, and removed ones. */
  changed: string[];
  removed: string[];
  ms: number;
  warnings: number;
  /** The build's warnings and notes, one formatted line each (terminal and overlay). */
  warningList?: string[];
  /** Formatted errors when !ok. */
  error?: string;
  /** Files the templates, model or client import from outside their folders: the watcher watches them too. */
  outside?: string[];
}

export class WatchSession {
  private readonly cache: BuildCache = { parsed: new Map() };
  private hashes?: Map<string, string>;
  private routeFiles = new Set<string>();
  /**
   * Each route's input key (routes/inputs.ts, the graph `site build` uses too) for the files on disk;
   * undefined when templates, client or images changed since: then every route is rendered.
   */
  private keys?: Map<string, string>;
  /** Files of the pages on disk that read the list of posts when rendered. */
  private readsPosts = new Set<string>();
  /**
   * What each page on disk read when rendered (render/reads.ts), by file: its texts (undefined:
   * every text of its language) and the pieces in it; and what each piece read, with its key.
   * A page is rendered again when its texts changed or a piece it shows did (watch renders it;
   * `site build` splices the piece in: build.ts).
   */
  private pages = new Map<string, { texts: TextList | undefined; pieces: string[] }>();
  private pieces = new Map<string, { made: PieceInputs; key: string }>();
  /** The keyer of the rebuild `keys` come from: each post's digest as other pages saw it then (`afterBodyEdits`). */
  private keyer?: InputKeys;
  /**
   * Content changed since the last good rebuild (the watcher's events), by content-relative path;
   * a changed folder counts for everything under it. `all`: nothing known (the first rebuild, a
   * replaced folder). Posts outside it are taken from the last load (content/load.ts `unchanged`).
   */
  private stale = { all: true, paths: new Set<string>() };
  /** The outside files of the code the cache holds, by the input lists they came from (a content edit compiles nothing). */
  private outside?: { from: readonly (readonly string[] | undefined)[]; files: string[] };

  private outsideFiles(): string[] {
    const from = [this.cache.templates?.compiled.inputs, this.cache.modelInputs, this.cache.bundled?.inputs];
    if (!this.outside || from.some((list, i) => list !== this.outside!.from[i])) this.outside = { from, files: outsideFiles(this.config, from.flatMap((list) => list ?? [])) };
    return this.outside.files;
  }

  constructor(private readonly config: BuildConfig) {}

  /**
   * Rebuild after `changes` (absolute paths; empty: everything; a watched folder itself: it was
   * replaced, everything is read again). `onRoute` is told as each route starts rendering.
   */
  async rebuild(changes: readonly string[], onRoute?: (route: Route | undefined) => void): Promise<RebuildReport> {
    const started = performance.now();
    const shown = (c: string) => path.relative(path.dirname(c.startsWith(this.config.contentDir) ? this.config.contentDir : this.config.templatesDir), c);
    const cause = changes.length ? [...new Set(changes.map(shown))].slice(0, 3).join(', ') + (changes.length > 3 ? ` (+${changes.length - 3} more)` : '') : 'start';
    // Test-only: a failure no content can cause (a folder taken away in the middle of a rebuild),
    // in a session that has built before (watch-safety.test: the watcher replaces the thread).
    if (this.routeFiles.size) failPoint('watch-rebuild');
    this.hashes ??= await hashTree(this.config.outDir);
    const { contentDir } = this.config;
    // Drop what the changes make stale.
    const under = (c: string, ...dir: string[]) => c.startsWith(path.join(...dir) + path.sep);
    const roots = [contentDir, this.config.templatesDir, this.config.clientDir];
    // An image or images folder may be a link: the watcher names a change at the link's target (a
    // folder beside the images), so any content path but the posts, texts and data may be an image.
    const images = (c: string) =>
      under(c, contentDir, 'images') || (under(c, contentDir) && !/\.ya?ml$/.test(c) && !['blog', 'i18n', 'data'].some((d) => c === path.join(contentDir, d) || under(c, contentDir, d)));
    for (const c of changes) {
      if (roots.includes(c)) {
        // A folder was removed and came back (or was replaced): nothing cached from it holds.
        Object.assign(this.cache, { templates: undefined, model: undefined, bundled: undefined, images: undefined });
      }
      if (under(c, this.config.templatesDir, 'styles')) this.cache.bundled = undefined;
      // Templates import a client module (client/names.ts): a client change rebuilds both.
      else if (under(c, this.config.clientDir)) Object.assign(this.cache, { bundled: undefined, templates: undefined });
      else if (under(c, this.config.templatesDir, 'model')) Object.assign(this.cache, { templates: undefined, model: undefined });
      else if (under(c, this.config.templatesDir)) this.cache.templates = undefined;
      // A file the code imports from elsewhere (RebuildReport.outside): everything compiles again.
      else if (!roots.some((r) => c === r || under(c, r))) Object.assign(this.cache, { templates: undefined, model: undefined, bundled: undefined });
      if (images(c)) this.cache.images = undefined;
      // Route keys cover content; what every page is made with (templates, styles, script, images) renders them all.
      if (roots.includes(c) || !under(c, contentDir) || images(c)) this.keys = undefined;
    }
    if (!changes.length) this.keys = undefined;
    this.noteStale(changes);
    // Post files alone changed since the last good rebuild (a failed one keeps its changes stale):
    // only their own pages' keys can change (InputKeys.afterBodyEdits checks it). Any other change
    // outside the content folder has dropped the keys already.
    const edited = this.keys && !this.stale.all && [...this.stale.paths].every(isPostFile) ? this.stale.paths : undefined;
    const lastKeyer = this.keyer;
    let rendered = 0;
    const before = this.keys;
    let after: ((readNow: readonly string[], read: PagesRead | undefined) => Map<string, string>) | undefined;
    const keep = new Set<string>();
    const writer = new IncrementalWriter(this.config.outDir, this.hashes, keep);
    let result: BuildResult;
    try {
      result = await build(this.config, writer, {
        cache: this.cache,
        onRoute,
        plan: (site, routes, model) => {
          const reads = this.readsPosts;
          const keyer = new InputKeys(site, routes, model, '');
          const textsOf = (file: string) => this.pages.get(file)?.texts;
          // After post edits that change no post as other pages see it, every other key holds, and
          // so does every piece's (texts and the list of posts are as they were): O(edits), not
          // O(routes) (~70 ms at 4,700 routes).
          const quick = before && edited && lastKeyer ? keyer.afterBodyEdits(before, (f) => lastKeyer.metaDigest(f), edited, (file) => reads.has(file), textsOf) : undefined;
          const keys = quick ?? keyer.all(before && ((file) => reads.has(file)), before && textsOf);
          const changed = new Set<string>();
          if (before && !quick) for (const [id, p] of this.pieces) if (keyer.piece(id, p.made) !== p.key) changed.add(id);
          const only = before && ((r: Route) => keys.get(r.file) !== before.get(r.file) || (changed.size > 0 && (this.pages.get(r.file)?.pieces.some((id) => changed.has(id)) ?? true)));
          // Files of routes not rendered now stay on disk as they are.
          for (const r of routes.routes) if (only && !only(r)) keep.add(r.file);
          // Once rendered, the keys are taken with what the rendered pages read this time.
          after = (readNow, read) => {
            if (!before) {
              this.pages.clear();
              this.pieces.clear();
            }
            this.keyer = keyer;
            for (const [file, p] of read?.pages ?? []) this.pages.set(file, p);
            for (const [id, m] of read?.pieces ?? []) {
              const made = { texts: m.all ? undefined : m.texts, posts: m.posts };
              // Made as before, after edits that left every piece's inputs as they were: its key holds.
              const was = this.pieces.get(id);
              this.pieces.set(id, { made, key: quick && was && sameMade(was.made, made) ? was.key : '' });
            }
            for (const [id, p] of this.pieces) if (!quick || p.key === '') p.key = keyer.piece(id, p.made);
            const now = readsAfterRender(routes.routes, (r) => !only || only(r), before && reads, readNow);
            this.readsPosts = now.reads;
            if (now.changed || !only) return keyer.all((file) => now.reads.has(file), textsOf);
            for (const r of routes.routes) if (only(r)) keys.set(r.file, keyer.route(r, now.reads.has(r.file), textsOf(r.file)));
            return keys;
          };
          return only;
        },
      });
    } catch (err) {
      if (!(err instanceof BuildError)) throw err;
      // What failed may come from a listing that missed a change (an event the watcher lost, on a
      // network drive or an overflowing queue): every folder is listed again. Cheap, as failures are rare.
      this.cache.unchanged?.listed.clear();
      return { ok: false, cause, rendered: 0, changed: [], removed: [], ms: performance.now() - started, warnings: 0, error: `${err.stage}: ${err.diagnostics.map((d) => formatDiagnostic(d)).join('\n\n')}` };
    }
    this.keys = after?.(result.readsPosts ?? [], result.read);
    // Every file a change named was read by this good rebuild. (A failed one may have stopped before
    // reading the posts: its changes stay stale for the next.)
    this.stale = { all: false, paths: new Set() };
    this.routeFiles = new Set(result.routes!.routes.map((r) => r.file));
    for (const byLang of Object.values(result.stats.pages)) for (const n of Object.values(byLang)) rendered += n;
    return {
      ok: true,
      cause,
      rendered,
      changed: writer.changed,
      removed: writer.removed,
      ms: performance.now() - started,
      warnings: result.diagnostics.filter((d) => d.severity === 'warning').length,
      warningList: result.diagnostics.filter((d) => d.severity !== 'error').map((d) => formatDiagnostic(d)),
      outside: this.outsideFiles(),
    };
  }

  /** Mark what `changes` may have changed as stale, and drop the folder listings they touched. */
  private noteStale(changes: readonly string[]): void {
    const { contentDir } = this.config;
    const unchanged = (this.cache.unchanged ??= { listed: new Map(), stale: (rel) => this.isStale(rel) });
    for (const c of changes) {
      if (c === contentDir || !c.startsWith(contentDir + path.sep)) {
        // The content folder replaced: nothing is known. (Templates, client: the posts are as they were.)
        if (c === contentDir) {
          this.stale.all = true;
          unchanged.listed.clear();
        }
        continue;
      }
      this.stale.paths.add(path.relative(contentDir, c).split(path.sep).join('/'));
      // The folder holding it, and the path itself and everything under it if it is (or was) a folder.
      unchanged.listed.delete(path.dirname(c));
      for (const dir of unchanged.listed.keys()) if (dir === c || dir.startsWith(c + path.sep)) unchanged.listed.delete(dir);
    }
    if (!changes.length) {
      this.stale.all = true;
      unchanged.listed.clear();
    }
  }

  private isStale(rel: string): boolean {
    if (this.stale.all) return true;
    for (let i = rel.length; i > 0; i = rel.lastIndexOf('/', i - 1)) if (this.stale.paths.has(rel.slice(0, i))) return true;
    return false;
  }

  /** The output file a URL path is served from (for tests and logs). */
  fileFor(urlPath: string): string | undefined {
    const f = fileForPath(urlPath);
    return this.routeFiles.has(f) ? f : undefined;
  }
}
