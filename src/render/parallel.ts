/**
 * Rendering on every core, for large one-shot builds.
 *
 * Two kinds of thread, each started only where it pays on 2 cores:
 * - The page pool, once the routes are known and there are at least MIN_ROUTES of them. Each
 *   worker gets the site model, the assets and the compiled templates once (serialised a single
 *   time into shared memory), rebuilds the same route table, and then every thread, the main one
 *   included, claims chunks of routes from one shared counter: whoever is free takes the next
 *   chunk, so uneven pages balance themselves. Each thread renders and writes its pages straight
 *   into the staging folder: no page crosses a thread, and memory does not grow with the pages.
 * - The markdown helper, at the start of a build with at least minHelperPosts() posts: it turns
 *   post bodies into HTML while the main thread loads, checks and routes, and is stopped when the
 *   page pool starts (the workers then render markdown with their own pages).
 * Small sites stay on one thread, where a worker's start-up (about 100 ms of CPU) costs more than it saves.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deserialize, serialize, setFlagsFromString } from 'node:v8';
import { MessageChannel, parentPort, receiveMessageOnPort, Worker, workerData, type MessagePort } from 'node:worker_threads';
import type { Post, Site } from '../content/model.ts';
import { bodyDigest, checkedBody, factsOf, isUnread, splitFrontMatter } from '../content/post-body.ts';
import { createMarkdown, MarkdownLimitError } from '../content/markdown.ts';
import { KeptMarkdown } from '../content/markdown-cache.ts';
import { finishPostHtml, lineInFile } from './post-refs.ts';
import { BuildError, Diagnostics, type Diagnostic } from '../diagnostics.ts';
import { DiskWriter, OutputWriteError, type Writer } from '../output/writer.ts';
import { buildRoutes, type Route, type RouteTable } from '../routes/table.ts';
import type { Assets, ImageAsset } from './context.ts';
import { piecesMade, pieceSource, renderRouteHtml, type RenderEnv } from './page.ts';
import { pageParts } from '../output/pieces.ts';
import { pageWrites, runWriteWorker, WRITE_WORKER_ROLE } from '../output/write-thread.ts';
import { PageReads, TextSets, type PieceReads } from './reads.ts';
import { evaluateTemplates, type CompiledTemplates, type TemplateModule } from './templates.ts';

export const PAGE_WORKER_ROLE = 'site-pages';
export const MARKDOWN_WORKER_ROLE = 'site-markdown';

/** Routes a thread claims at a time: small enough to balance the end, large enough to rarely touch the counter. */
const CHUNK = 16;

/**
 * Below this many routes pages are rendered on one thread. Measured on 2 cores (4,000 posts):
 * 4,704 routes gain nothing (each new thread compiles React and the templates again, and the
 * compiler and the garbage collector already use the second core), 18,774 routes gain 20%,
 * 74,774 routes 35%. Letting the markdown helper render pages too once its markdown is done
 * (tried 2026-11-23) was 1-6% faster at 1,000-4,000 posts for 20% more CPU and 40 MB more memory:
 * each isolate compiles React and the templates with TurboFan again (perf: a quarter of the build's
 * CPU is optimising-compiler threads), and that work competes with both renderers for 2 cores.
 */
const MIN_ROUTES = Number(process.env.SITE_MIN_PARALLEL_ROUTES) || 8000;

/** Posts from which a one-shot build bounds its heap's growth (`boundHeapGrowth`). */
const MIN_BOUNDED_POSTS = 8000;

/**
 * A build of MIN_BOUNDED_POSTS posts or more lets its heap grow by at most half between
 * full collections (V8's --heap-growing-percent, for the process and its workers). V8's own factor
 * (up to 4x) let the main thread's old space reach ~1 GB of mostly garbage at 74,774 pages (16,000
 * posts x 4) before it collected. Measured 2026-11-28 on 2 cores, one build each: peak RSS
 * 968-1,099 MB -> 774 MB (30 %: 758 MB, 15 %: 728 MB and slower), 23.0-26.5 s -> 23.9 s. It is set
 * before the content loads: set when rendering starts, the limit V8 had already raised stood
 * (919-1,040 MB). Smaller builds keep V8's factor: at 1,000 x 4 it cost 4.5 % (8 alternating runs)
 * for ~0 MB. A factor the operator set (NODE_OPTIONS, the command line) is left as it is.
 */
export function boundHeapGrowth(posts: number): void {
  if (posts < MIN_BOUNDED_POSTS) return;
  if ([...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => a.includes('heap-growing-percent') || a.includes('heap_growing_percent'))) return;
  setFlagsFromString('--heap-growing-percent=50');
}

/** The number of post folders in `contentDir`'s blog (0 without one): known before the content loads. */
export function postFolders(contentDir: string): number {
  try {
    return readdirSync(path.join(contentDir, 'blog')).length;
  } catch {
    return 0;
  }
}

/**
 * From this many posts to render, a build below MIN_ROUTES renders markdown on the second core
 * (MarkdownHelper): 4,000 posts save ~150 ms of a 1.2 s build; a few posts would only pay the
 * helper's start-up. An incremental build follows the same two rules for what it renders (a text
 * every page shows renders every page): at 4,704 routes, page workers measured 2.9-3.6 s against
 * 2.4-2.5 s on one thread (2026-11-26, 4,000 posts, a busy 2-core machine).
 */
const minHelperPosts = (): number => Number(process.env.SITE_MIN_MARKDOWN_HELPER_POSTS) || 300;

/** What one thread rendered: pages by kind and language, text keys missing, render errors. */
export interface RenderTally {
  pages: Record<string, Record<string, number>>;
  missing: Map<string, Set<string>>;
  errors: Diagnostic[];
  /** Output files of the rendered routes whose page read the list of posts (src/routes/inputs.ts). */
  readsPosts: string[];
  /**
   * What each rendered page read (render/reads.ts), in the order rendered: its output file, its
   * texts (a number in `textSets`, -1: every text), and its pieces (`n,start,end,…`, numbered in
   * `pieces`). Flat arrays: 74,000 pages' worth stays a few MB.
   */
  read: { files: string[]; texts: number[]; placed: string[] };
  /** The text lists `read.texts` numbers. */
  textSets: TextSets;
  /** The pieces `read.placed` numbers, with what each read: set once the thread is done (`piecesMade`). */
  pieces: [string, MadePiece][];
}

/** What a piece read while it was made. */
export type MadePiece = PieceReads & { posts: boolean };

export function createTally(): RenderTally {
  return { pages: {}, missing: new Map(), errors: [], readsPosts: [], read: { files: [], texts: [], placed: [] }, textSets: new TextSets(), pieces: [] };
}

/** Note what `route`'s page read (env.reads) in `tally`; returns its place in `tally.read.placed`, for where its pieces sit (known once written). */
function tallyReads(tally: RenderTally, env: RenderEnv, route: Route): number {
  const reads = env.reads!;
  const file = route.file;
  if (reads.posts) tally.readsPosts.push(file);
  tally.read.files.push(file);
  tally.read.texts.push(reads.all ? -1 : tally.textSets.addRead(reads, `${route.template}\0${route.lang}`));
  return tally.read.placed.push('') - 1;
}

/**
 * The render environment of one thread: its own markdown parser, missing texts counted in
 * `tally`. `body` gives a post's markdown (the main thread has it in memory; workers read it).
 */
export function renderEnv(
  site: Site,
  routes: RouteTable,
  assets: Assets,
  templates: TemplateModule,
  tally: RenderTally,
  {
    body = (post: Post) => post.body,
    helper,
    contentDir,
    kept,
    digest = bodyDigest,
  }: {
    body?: (post: Post) => string;
    helper?: MarkdownHelper;
    contentDir?: string;
    /** Posts' HTML kept from earlier builds (content/markdown-cache.ts), by `digest` of their bodies; what is rendered here goes in. */
    kept?: KeptMarkdown;
    digest?: (post: Post) => string;
  } = {},
): RenderEnv {
  const markdown = createMarkdown();
  const made = (post: Post) => helper?.take(post.file) ?? recentMarkdown(body(post), markdown);
  const html = kept
    ? (post: Post) => {
        const d = digest(post);
        let out = kept.get(d);
        if (out === undefined) kept.add(d, (out = made(post)));
        return out;
      }
    : made;
  return {
    ...(contentDir !== undefined && { lineOf: (file: string, text: string) => lineInFile(contentDir, file, text) }),
    site,
    routes,
    assets,
    templates,
    onMissingText: (lang, key) => (tally.missing.get(lang) ?? tally.missing.set(lang, new Set()).get(lang)!).add(key),
    reads: new PageReads(),
    // Links and images are resolved here, not in the markdown helper: they need the routes and images.
    postHtml: (post) => finishPostHtml(html(post), post, site, routes, assets.image),
  };
}

/**
 * The HTML of the last few post bodies rendered on this thread, by their text: a watch session
 * that re-renders a post whose front matter changed does not run markdown again (one-shot builds
 * render each body once; the bound keeps their memory flat).
 */
const recent = new Map<string, string>();
const RECENT_BODIES = 64;
function recentMarkdown(source: string, markdown: (source: string) => string): string {
  let html = recent.get(source);
  if (html === undefined) {
    html = markdown(source);
    if (recent.size >= RECENT_BODIES) recent.delete(recent.keys().next().value!);
    recent.set(source, html);
  }
  return html;
}

/**
 * The loop every thread runs: claim the next chunk of `routes` from `counter`, render and write
 * each page, until none is left. A page that fails to render is an error naming its route.
 */
export async function renderClaimed(
  routes: readonly Route[],
  counter: Int32Array,
  env: RenderEnv,
  writer: Writer,
  tally: RenderTally,
  /** Told before each route renders, and `undefined` once this thread has no more (watch: its watchdog names a render that never ends). */
  onRoute?: (route: Route | undefined) => void,
  /** Told how many routes every thread has claimed so far (the progress line). */
  report?: (claimed: number) => void,
): Promise<void> {
  for (;;) {
    const start = Atomics.add(counter, 0, CHUNK);
    // Routes claimed by every thread so far: the progress line (timers cannot fire in this loop).
    report?.(start);
    if (start >= routes.length) {
      onRoute?.(undefined);
      return;
    }
    const end = Math.min(start + CHUNK, routes.length);
    for (let i = start; i < end; i++) {
      const route = routes[i]!;
      let html: string;
      onRoute?.(route);
      try {
        html = renderRouteHtml(route, env);
      } catch (err) {
        // A stage's own error met while rendering (an image no build has) is reported as itself.
        if (err instanceof BuildError) tally.errors.push(...err.diagnostics);
        else {
          // A post's markdown beyond the limits: at the line where that part starts, if it is one part.
          const line = err instanceof MarkdownLimitError && err.at ? env.lineOf?.(route.origin, err.at) : undefined;
          tally.errors.push({ severity: 'error', code: 'render', file: route.origin, ...(line && { line }), field: route.path, message: (err as Error).message });
        }
        continue;
      }
      const slot = env.reads ? tallyReads(tally, env, route) : -1;
      const placed = (at: string) => {
        if (slot >= 0) tally.read.placed[slot] = at;
      };
      // Written from its text and the shared pieces where the writer can (on a write thread, or
      // with one writev: the pieces not copied).
      if (writer.writePage) writer.writePage(route.file, html, pieceSource(env), placed);
      else {
        const at: number[] = [];
        const page = pageParts(html, pieceSource(env), at);
        placed(at.join(','));
        await writer.write(route.file, page.parts.length === 1 ? page.parts[0]! : Buffer.concat(page.parts, page.bytes));
      }
      const byLang = (tally.pages[route.kind] ??= {});
      byLang[route.lang] = (byLang[route.lang] ?? 0) + 1;
    }
  }
}

/** A new shared route counter (one per build). */
export function routeCounter(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4));
}

/** What the main thread sends each worker once the routes are known. */
interface StartMessage {
  site: Omit<Site, 'locate'>;
  routeCount: number;
  assets: Omit<Assets, 'image'> & { images: Record<string, ImageAsset> };
  templates: CompiledTemplates;
  outDir: string;
  contentDir: string;
  staging: string;
  counter: SharedArrayBuffer;
  /** Indexes of the routes to render (an incremental build's share); absent: all of them. */
  only?: number[];
  /** The body digest of each post not read on the main thread, by file: a body a worker reads must be the one the build planned with. */
  digests: Record<string, string>;
  /** The file of the posts' kept HTML (content/markdown-cache.ts), when the build keeps it: each worker reads and adds to it. */
  markdown?: string;
}

type Reply =
  | { ok: true; files: string[]; bytes: number; pages: RenderTally['pages']; missing: [string, string[]][]; errors: Diagnostic[]; readsPosts: string[]; read: RenderTally['read']; textSets: string[][]; pieces: [string, MadePiece][]; markdownKept: number }
  | { ok: false; message: string; write?: { file: string; code: string | undefined; why: string } };

/** What the workers rendered, merged. */
export interface PoolResult {
  files: string[];
  bytes: number;
  tallies: RenderTally[];
  /** Posts whose HTML the workers took from the kept markdown. */
  markdownKept: number;
}

/** The main thread's handle on the page workers of one build. */
export class PagePool {
  private readonly workers: Worker[] = [];
  private readonly replies: Promise<Reply>[] = [];

  /**
   * Start workers when the build is large enough and there is more than one core; else undefined.
   * `SITE_RENDER_THREADS` overrides the core count (1: never start workers).
   * @param entry the module that runs `runPageWorker` when loaded in a worker (the CLI bundle)
   */
  static start(entry: URL, routes: number): PagePool | undefined {
    const threads = Number(process.env.SITE_RENDER_THREADS) || os.availableParallelism();
    if (threads < 2 || routes < MIN_ROUTES) return undefined;
    return new PagePool(entry, Math.min(threads - 1, 7));
  }

  private constructor(entry: URL, count: number) {
    for (let i = 0; i < count; i++) {
      const worker = new Worker(entry, { workerData: { role: PAGE_WORKER_ROLE } });
      this.workers.push(worker);
      this.replies.push(
        new Promise<Reply>((resolve) => {
          worker.once('message', (r: Reply) => resolve(r));
          worker.once('error', (err) => resolve({ ok: false, message: err.stack ?? err.message }));
          worker.once('exit', (code) => resolve({ ok: false, message: `page worker exited (${code}) before finishing` }));
        }),
      );
    }
  }

  get size(): number {
    return this.workers.length;
  }

  /**
   * Hand every worker the build (serialised once) and its share of the routes via `counter`:
   * claims index `selected` (every route when absent), which must be the list this thread renders.
   */
  send(site: Site, routes: RouteTable, assets: Assets, images: Record<string, ImageAsset>, templates: TemplateModule, writer: DiskWriter, dirs: { outDir: string; contentDir: string; markdown?: string }, counter: Int32Array, selected?: readonly Route[]): void {
    const { outDir, contentDir, markdown } = dirs;
    const { image: _image, ...plainAssets } = assets;
    // Post bodies stay behind (workers read the posts they render): the model sent is metadata.
    const { locate: _locate, ...plainSite } = site;
    const message: StartMessage = {
      site: { ...plainSite, posts: site.posts.map(withoutBody) },
      // Only the posts this thread has not read: 64,000 digests cost the build ~35 MB where every post was read.
      digests: Object.fromEntries(site.posts.filter(isUnread).map((p) => [p.file, bodyDigest(p)])),
      routeCount: routes.routes.length,
      assets: { ...plainAssets, images },
      templates: templates.compiled,
      outDir,
      contentDir,
      staging: writer.staging,
      counter: counter.buffer as SharedArrayBuffer,
      ...(selected && { only: indexesOf(routes.routes, selected) }),
      ...(markdown && { markdown }),
    };
    // Serialised once into shared memory: every worker reads the same bytes, none is copied per worker.
    const { counter: shared, ...rest } = message;
    const serialised = serialize(rest);
    const bytes = new Uint8Array(new SharedArrayBuffer(serialised.byteLength));
    bytes.set(serialised);
    for (const w of this.workers) w.postMessage({ bytes, counter: shared });
  }

  /** Wait for every worker; throws when one failed (its routes were not all written). */
  async finish(): Promise<PoolResult> {
    const replies = await Promise.all(this.replies);
    await this.terminate();
    const result: PoolResult = { files: [], bytes: 0, tallies: [], markdownKept: 0 };
    for (const r of replies) {
      // A page the disk refused is named as on this thread; anything else is a defect of the worker.
      if (!r.ok) throw r.write ? new OutputWriteError(r.write.file, r.write.code, r.write.why) : new Error(`a page worker failed: ${r.message}`);
      result.files.push(...r.files);
      result.bytes += r.bytes;
      result.markdownKept += r.markdownKept;
      const textSets = new TextSets();
      for (const list of r.textSets) textSets.add(list);
      result.tallies.push({ pages: r.pages, missing: new Map(r.missing.map(([lang, keys]) => [lang, new Set(keys)])), errors: r.errors, readsPosts: r.readsPosts, read: r.read, textSets, pieces: r.pieces });
    }
    return result;
  }

  async terminate(): Promise<void> {
    await Promise.all(this.workers.map((w) => (w.removeAllListeners(), w.terminate())));
  }
}

/** A post's fields, its body empty (a body not read yet stays unread: content/post-body.ts). */
function withoutBody(post: Post): Post {
  const copy: Record<string, unknown> = {};
  for (const k of Object.keys(post) as (keyof Post)[]) if (k !== 'body') copy[k] = post[k];
  copy.body = '';
  return copy as unknown as Post;
}

/** Positions of `selected` in `all` (both in route table order). */
function indexesOf(all: readonly Route[], selected: readonly Route[]): number[] {
  const at = new Map(all.map((r, i) => [r, i]));
  return selected.map((r) => at.get(r)!);
}

/** Inside a page worker: wait for the build, render claimed routes, report what was written. */
export function runPageWorker(): void {
  parentPort!.once('message', async ({ bytes, counter }: { bytes: Uint8Array; counter: SharedArrayBuffer }) => {
    let reply: Reply;
    try {
      const start = deserialize(bytes) as Omit<StartMessage, 'counter'>;
      const site = { ...start.site, locate: () => undefined } as Site;
      const routes = buildRoutes(site, new Diagnostics());
      if (routes.routes.length !== start.routeCount) throw new Error(`route table differs from the main thread's (${routes.routes.length} vs ${start.routeCount} routes)`);
      const { images, ...rest } = start.assets;
      const assets: Assets = {
        ...rest,
        image: (file) => {
          const asset = images[file];
          if (!asset) throw new Error(`images/${file}: image named in content does not exist under content/images`);
          return asset;
        },
      };
      const tally = createTally();
      const writer = new DiskWriter(start.outDir, { staging: start.staging });
      // The last body read: a post whose HTML is not kept is read for its digest, then for its markdown.
      let last: { post: Post; body: string } | undefined;
      const body = (post: Post) => {
        if (last?.post !== post) last = { post, body: checkedBody(post.file, splitFrontMatter(readFileSync(path.join(start.contentDir, post.file), 'utf8'))?.body, start.digests[post.file]) };
        return last.body;
      };
      const kept = start.markdown === undefined ? undefined : KeptMarkdown.open(start.markdown);
      const digest = (post: Post) => start.digests[post.file] ?? factsOf(body(post)).digest;
      const env = renderEnv(site, routes, assets, evaluateTemplates(start.templates), tally, { body, contentDir: start.contentDir, kept, digest });
      const list = start.only ? start.only.map((i) => routes.routes[i]!) : routes.routes;
      try {
        await renderClaimed(list, new Int32Array(counter), env, writer, tally);
      } finally {
        kept?.flush();
        kept?.close();
      }
      reply = {
        ok: true,
        files: writer.paths(),
        bytes: writer.bytes,
        pages: tally.pages,
        missing: [...tally.missing].map(([lang, keys]) => [lang, [...keys]]),
        errors: tally.errors,
        readsPosts: tally.readsPosts,
        read: tally.read,
        textSets: tally.textSets.lists as string[][],
        pieces: piecesMade(env),
        markdownKept: kept?.hits ?? 0,
      };
    } catch (err) {
      reply = { ok: false, message: (err as Error).stack ?? String(err), ...(err instanceof OutputWriteError && { write: { file: err.file, code: err.code, why: err.message } }) };
    }
    parentPort!.postMessage(reply);
  });
}

/** Run this thread as the worker its role names (page worker, markdown helper or write thread); false if it has none. */
export function runWorkerRole(): boolean {
  const role = (workerData as { role?: string } | null)?.role;
  if (role === PAGE_WORKER_ROLE) runPageWorker();
  else if (role === MARKDOWN_WORKER_ROLE) runMarkdownWorker();
  else if (role === WRITE_WORKER_ROLE) runWriteWorker();
  else return false;
  return true;
}

type BodyBatch = { files: string[]; bodies: string[] };
type HtmlBatch = { files: string[]; html: string[] };

/**
 * Markdown on the second core for builds that render pages on one thread. The main thread hands
 * each post's body to the helper as it loads it; the helper renders them while the main thread
 * checks, routes and renders the list pages, and sends the HTML back on a port the main thread
 * reads synchronously when it renders a post. A body whose HTML is not back yet is rendered in
 * place: the main thread never waits for the helper, and output does not depend on timing.
 */
export class MarkdownHelper {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private batch: BodyBatch = { files: [], bodies: [] };
  private readonly ready = new Map<string, string>();
  /** Posts whose HTML came from the helper. */
  taken = 0;

  /** Start the helper when the content folder has enough posts and there is a second core; else undefined. */
  /** A helper for a one-shot build of `posts` post folders (`postFolders`), or undefined for a few. */
  static start(entry: URL, posts: number): MarkdownHelper | undefined {
    return MarkdownHelper.worthIt(posts) ? new MarkdownHelper(entry) : undefined;
  }

  /** A helper for the posts an incremental build renders, handed their bodies now; undefined for a few. */
  static forPosts(entry: URL, posts: readonly Post[]): MarkdownHelper | undefined {
    if (!MarkdownHelper.worthIt(posts.length)) return undefined;
    // Read (unread posts: from their files) before the thread starts: a read that fails leaves no thread behind.
    const bodies = posts.map((p) => [p.file, p.body] as const);
    const helper = new MarkdownHelper(entry);
    for (const [file, body] of bodies) helper.add(file, body);
    helper.flush();
    return helper;
  }

  /** Whether `posts` posts to render are enough for a helper (and for reading the posts' kept HTML). */
  static many(posts: number): boolean {
    return posts >= minHelperPosts();
  }

  private static worthIt(posts: number): boolean {
    const threads = Number(process.env.SITE_RENDER_THREADS) || os.availableParallelism();
    return threads >= 2 && posts >= minHelperPosts();
  }

  private constructor(entry: URL) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(entry, { workerData: { role: MARKDOWN_WORKER_ROLE, port: port2 }, transferList: [port2] });
    this.worker.on('error', () => undefined); // a failed helper only means markdown is rendered in place
    this.worker.once('exit', () => (this.ended = true));
  }

  private ended = false;

  /** Queue a post's body (sent in batches). */
  add(file: string, body: string): void {
    this.batch.files.push(file);
    this.batch.bodies.push(body);
    if (this.batch.files.length >= 64) this.flush();
  }

  flush(): void {
    if (this.batch.files.length) this.worker.postMessage(this.batch);
    this.batch = { files: [], bodies: [] };
  }

  /** The HTML of `file` if the helper has sent it (each is taken once), else undefined. */
  take(file: string): string | undefined {
    let html = this.ready.get(file);
    if (html === undefined) {
      for (let m = receiveMessageOnPort(this.port); m; m = receiveMessageOnPort(this.port)) {
        const { files, html: out } = m.message as HtmlBatch;
        files.forEach((f, i) => this.ready.set(f, out[i]!));
      }
      html = this.ready.get(file);
    }
    if (html !== undefined) {
      this.ready.delete(file);
      this.taken++;
    }
    return html;
  }

  async terminate(): Promise<void> {
    this.port.close();
    await this.worker.terminate();
  }

  /**
   * Its thread, which also writes pages when the build has it do so (output/write-thread.ts);
   * undefined once it has ended (its end would not be told again to a write thread on it).
   */
  get thread(): Worker | undefined {
    return this.ended ? undefined : this.worker;
  }
}

function runMarkdownWorker(): void {
  const port = (workerData as { port: MessagePort }).port;
  const markdown = createMarkdown();
  // The write thread's messages too, when the build writes its pages here (output/write-thread.ts).
  let write: ReturnType<typeof pageWrites> | undefined;
  parentPort!.on('message', (m: BodyBatch | Parameters<ReturnType<typeof pageWrites>>[0]) => {
    if ('bodies' in m) {
      // A body beyond the markdown limits is left to the main thread, which reports it with its
      // post and line: thrown here, it would end this thread and the page writes it runs.
      const out: HtmlBatch = { files: [], html: [] };
      m.bodies.forEach((body, i) => {
        try {
          out.html.push(markdown(body));
          out.files.push(m.files[i]!);
        } catch {
          // (rendered in place)
        }
      });
      port.postMessage(out);
    } else (write ??= pageWrites())(m);
  });
}
