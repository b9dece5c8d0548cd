/**
 * Stage "write": output goes to a new versioned folder beside the target and is published only
 * when the whole build succeeded, so a failed or interrupted build leaves the last good `dist/`.
 */
import { closeSync, existsSync, mkdirSync, openSync, promises as fs, readFileSync, rmSync, writeFileSync, writeSync, writevSync } from 'node:fs';
import path from 'node:path';
import { mapLimit } from '../limit.ts';
import { listFiles } from '../files.ts';
import { carriedStamp, carryOver } from './carry.ts';
import type { IoThread } from './io-thread.ts';
import { pageParts, type PieceSource } from './pieces.ts';
import { writing } from './write-error.ts';
import { hostFolder } from './host-folder.ts';
import { buildsDir, failPoint, HOST, inspectOutput, newBuildDir, pauseAsync, pausePoint, removeLeftovers, removeTree, swapIn, WEB, writeMarker } from './publish.ts';

export { OutputWriteError } from './write-error.ts';

/** Where rendered files go: the disk with an atomic swap (build) or in place by changes (watch). */
export interface Writer {
  write(file: string, content: string | Uint8Array): Promise<void>;
  /**
   * Write `parts` in order as one file of `bytes` bytes, before returning (the parts may be reused
   * after): a spliced page (render/splice.ts) without joining it first. Writers that keep what they
   * are given lack it (the caller joins the parts).
   */
  writeParts?(file: string, parts: readonly Uint8Array[], bytes: number): void;
  /**
   * Write a rendered page from its text, each layout piece a marker (render/page.ts), now or on a
   * write thread (`placed` is told where its pieces sit, as `pageParts` gives them, once written).
   * Writers that keep what they are given lack it (the caller assembles the page).
   */
  writePage?(file: string, html: string, pieces: PieceSource, placed: (at: string) => void): void;
  /** Make the output visible (disk: swap the staging folder in). */
  commit(): Promise<void>;
  /** Drop everything written (the previous output stays). */
  abort(): Promise<void>;
  /**
   * The bytes this build has for `file` (written now, or kept from the last build), when the
   * writer knows them without rendering again; undefined otherwise.
   */
  contentOf?(file: string): string | Uint8Array | undefined;
  readonly files: number;
  readonly bytes: number;
}

/** Another thread that writes pages for a DiskWriter (output/write-thread.ts). */
export interface PageHandoff {
  /** Take a page (false: the caller writes it); `placed` is told where its pieces sit once it is written. */
  offer(file: string, html: string, pieces: PieceSource, placed: (at: string) => void): boolean;
  /** Wait until every page taken is written: the files and bytes written; throws if one was not. */
  finish(): Promise<{ files: string[]; bytes: number }>;
  /** Stop writing (a failed build). */
  terminate(): Promise<void>;
  /** Write no more pages, at once (from a signal handler, which cannot wait). */
  stop(): void;
}

/** Writers with a staging folder not yet published (removed on SIGINT/SIGTERM). */
const unpublished = new Set<DiskWriter>();
/** The removal the last commit of this process started (DiskWriter.settled). */
let removing: Promise<void> = Promise.resolve();

/**
 * Remove the build folder of every unfinished build, synchronously (from a signal handler:
 * the published output is never touched, a swap is never half done since it is synchronous).
 * Whether a build was published before the stop is its writer's `published`.
 */
export function abortUnpublished(): void {
  for (const w of unpublished) {
    // Its write thread and file thread first: they may be writing into the folder (each ends the
    // file it is on, which the retries wait for). A folder that still cannot go is the next
    // build's to remove: a stop must not end in a stack trace.
    w.stopWrites();
    try {
      rmSync(w.build, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
    } catch {
      // (removed by the next build: output/publish.ts removeLeftovers)
    }
  }
  unpublished.clear();
}

/**
 * Writes into a new versioned folder beside the output (`.dist.builds/<id>/web`, the host files
 * into `<id>/host`) and, on commit, makes it the live build with one rename (output/publish.ts).
 */
export class DiskWriter implements Writer {
  files = 0;
  bytes = 0;
  /** The build folder (`.dist.builds/<id>`): its `web/` and `host/` are published together. */
  readonly build: string;
  /** The folder files go to until commit, the build's web root (page workers write into the same one). */
  readonly staging: string;
  /** True once this build is the live one: nothing of it may be removed any more. */
  published = false;
  private readonly dirs = new Set<string>();
  private readonly written = new Set<string>();

  /**
   * @param outDir the output path (a symlink to the live build once published)
   * @param opts.staging the folder of a build already started (page workers write into the main thread's)
   * @param opts.known files the last build record lists for the output (recognises an earlier tool's folder)
   */
  constructor(
    private readonly outDir: string,
    opts: { staging?: string; known?: readonly string[] } = {},
  ) {
    this.known = opts.known;
    // A builds folder this build makes is marked ours at once: its links, if left pointing at
    // nothing when the folder was deleted by hand, are then known as ours when it publishes.
    if (!opts.staging && !existsSync(buildsDir(outDir))) writeMarker(outDir);
    this.build = opts.staging ? path.dirname(opts.staging) : newBuildDir(outDir);
    this.staging = opts.staging ?? path.join(this.build, WEB);
    if (!opts.staging) unpublished.add(this);
  }

  /** The build's id (its folder's name), recorded with the build. */
  get buildId(): string {
    return path.basename(this.build);
  }

  /** Write a host file (never served): published with the pages, in `<out>.host`. */
  writeBeside(file: string, content: string | Uint8Array): void {
    const target = path.join(this.build, HOST, file);
    writing(hostFolder(this.outDir), file, () => {
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, content);
    });
  }

  private readonly known?: readonly string[];

  // Synchronous on purpose: a fresh file in the page cache is written in ~10 µs, while the promise
  // API's open/write/close round trips through the thread pool cost 2-3x the CPU (measured with
  // 4,800 pages of 26 KB: 43 ms sync vs 116 ms with fs.promises on tmpfs, 55 vs 126 ms on ext4).
  async write(file: string, content: string | Uint8Array): Promise<void> {
    writing(this.outDir, file, () => writeFileSync(this.target(file), content));
    this.files++;
    this.bytes += typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
  }

  writeParts(file: string, parts: readonly Uint8Array[], bytes: number): void {
    writing(this.outDir, file, () => {
      const fd = openSync(this.target(file), 'w');
      try {
        const done = writevSync(fd, parts as Uint8Array[]);
        // A short write (a full disk, a signal) finishes with the rest joined.
        if (done < bytes) {
          const rest = Buffer.concat(parts).subarray(done);
          for (let at = 0; at < rest.length; ) at += writeSync(fd, rest, at);
        }
      } finally {
        closeSync(fd);
      }
    });
    this.files++;
    this.bytes += bytes;
  }

  private thread?: PageHandoff;

  /** Its write thread writes no more pages, its file thread links no more (a signal: abortUnpublished). */
  stopWrites(): void {
    this.thread?.stop();
    Atomics.store(this.stop, 0, 1);
  }

  /** Pages from now on may go to `thread` (output/write-thread.ts) until `pagesWritten`. */
  writeOn(thread: PageHandoff | undefined): void {
    this.thread = thread;
  }

  writePage(file: string, html: string, pieces: PieceSource, placed: (at: string) => void): void {
    if (this.thread?.offer(file, html, pieces, placed)) return;
    const at: number[] = [];
    const page = pageParts(html, pieces, at);
    this.writeParts(file, page.parts, page.bytes);
    placed(at.join(','));
  }

  /** Wait for the pages handed to a write thread, counted as written here; throws if one was not written. */
  async pagesWritten(): Promise<void> {
    const thread = this.thread;
    if (!thread) return;
    // Kept until it has finished: a stop signal meanwhile must reach it (stopWrites).
    try {
      const done = await thread.finish();
      this.adopt(done.files, done.bytes);
    } finally {
      if (this.thread === thread) this.thread = undefined;
    }
  }

  /** The staging path of `file`, its folder made (once), the file recorded as written (once). */
  private target(file: string): string {
    if (this.written.has(file)) throw new Error(`${file} written twice`);
    this.written.add(file);
    const target = path.join(this.staging, file);
    const dir = path.dirname(target);
    if (!this.dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.dirs.add(dir);
    }
    return target;
  }

  /** Count files another thread wrote into the staging folder as written here. */
  adopt(files: readonly string[], bytes: number): void {
    for (const file of files) {
      if (this.written.has(file)) throw new Error(`${file} written twice`);
      this.written.add(file);
    }
    this.files += files.length;
    this.bytes += bytes;
  }

  /** Every file written, sorted (for the build record). */
  paths(): string[] {
    return [...this.written].sort();
  }

  /** Files taken from the live build unchanged (hard links), not written by this one. */
  carried = 0;
  /** Their output stamps, checked when they were taken (outputStamps need not stat them again). */
  readonly carriedStamps = new Map<string, string>();

  /**
   * Take these files of the live output into this build as they are (hard links): routes whose
   * inputs did not change. Returns the ones the output no longer has (the caller renders them).
   * `now`: the files' stamps taken at the build's start (output/survey.ts), else each is stat-ed here.
   * With those stamps and a file thread (the resident process's), the links are made there while
   * this build goes on, and `commit` waits for them. `pages`: they count as pages carried (the
   * summary's); not the derived files a build takes the same way (assets, the sitemap).
   */
  carry(outDir: string, files: readonly string[], expected?: Readonly<Record<string, string>>, now?: ReadonlyMap<string, string>, pages = true): string[] {
    let missing: string[];
    if (now && this.io?.alive) {
      // The stamps are known: which files changed or went is decided here, at once.
      const take: string[] = [];
      missing = [];
      for (const f of files) {
        const stamp = carriedStamp(f, `${outDir}/${f}`, expected, now);
        if (stamp === false) missing.push(f);
        else {
          take.push(f);
          if (stamp !== undefined) this.carriedStamps.set(f, stamp);
        }
      }
      const linking = this.io
        .carry(outDir, this.staging, this.outDir, take, this.stop)
        .then((c) => {
          // A copy has a stamp of its own (taken when the record is written).
          for (const f of c.copied) this.carriedStamps.delete(f);
          // Removed from the live build while this build ran (by hand: builds never change a build's files).
          if (c.missing.length) throw new Error(`${path.join(this.outDir, c.missing[0]!)}${c.missing.length > 1 ? ` and ${c.missing.length - 1} other file(s)` : ''} went from the output while this build ran: nothing was published; build again`);
        });
      // (After the links of an earlier call: commit waits for all of them.)
      this.linking = this.linking ? Promise.all([this.linking, linking]).then(() => undefined) : linking;
      this.linking.catch(() => undefined); // reported by commit, never unhandled meanwhile
      // (A file gone between the survey and its link fails this build, where a build on one
      // thread renders it instead: only a hand in the live build's folder does that, while it runs.)
    } else missing = carryOver(outDir, this.staging, files, { expected, stamps: this.carriedStamps, now, shownDir: this.outDir });
    const gone = new Set(missing);
    this.carriedFrom.push({ from: outDir, files, gone });
    for (const f of files) {
      if (gone.has(f)) continue;
      if (this.written.has(f)) throw new Error(`${f} written twice`);
      this.written.add(f);
      if (pages) this.carried++;
    }
    return missing;
  }

  /** What `carry` took, by call (`contentOf`). */
  private readonly carriedFrom: { from: string; files: readonly string[]; gone: ReadonlySet<string> }[] = [];

  /**
   * The bytes of a file this build carried from the live build, read there (they are the bytes
   * it links; the offline pages go into the service worker's version); undefined for any other.
   */
  contentOf(file: string): Uint8Array | undefined {
    // (Asked for a few files a build: searched, not indexed.)
    const c = this.carriedFrom.find((c) => !c.gone.has(file) && c.files.includes(file));
    return c && readFileSync(`${c.from}/${file}`);
  }

  /** The resident process's file thread (output/io-thread.ts), given by the CLI. */
  io?: IoThread;
  /** The links `carry` left to the file thread, until made. */
  private linking?: Promise<void>;
  /** [0] = 1: the file thread links no more (a stop signal: stopWrites). */
  private readonly stop = new Int32Array(new SharedArrayBuffer(4));

  async commit(): Promise<void> {
    await this.pagesWritten();
    await this.linking;
    // An earlier build of this process may still be removing what it replaced: it ends first, so
    // its sweep never sees this build live (or the live link change under it).
    await removing;
    // Checked again at publish time: the folder may have changed while the build ran.
    const state = inspectOutput(this.outDir, this.known);
    await fs.mkdir(this.staging, { recursive: true });
    await fs.mkdir(path.join(this.build, HOST), { recursive: true });
    pausePoint('before-swap');
    writeMarker(this.outDir);
    const old = swapIn(this.outDir, this.build, state);
    unpublished.delete(this);
    this.published = true;
    await pauseAsync('published');
    failPoint('published');
    // The replaced build goes while the caller writes its record (`settled` awaits it).
    this.removing = (async () => {
      // (On the resident process's file thread, else by a process of its own.)
      for (const p of old) await (this.io?.alive ? this.io.remove(p).catch(() => removeTree(p)) : removeTree(p));
      removeLeftovers(this.outDir, (build) => [...unpublished].some((w) => w.build === build));
    })();
    removing = this.removing.catch(() => undefined); // reported by settled(), never unhandled meanwhile
  }

  private removing: Promise<void> = Promise.resolve();

  /** Resolves once the builds this one replaced are removed (commit starts that). */
  settled(): Promise<void> {
    return this.removing;
  }

  /** Drop this build's folder, unless it was published: a live build is never removed. */
  async abort(): Promise<void> {
    // The write thread stops first: nothing is written into the folder after it is removed.
    await this.thread?.terminate();
    this.thread = undefined;
    // The file thread is the process's: it is stopped from linking, then waited for.
    Atomics.store(this.stop, 0, 1);
    await this.linking?.catch(() => undefined);
    unpublished.delete(this);
    if (!this.published) await removeTree(this.build);
  }
}

/**
 * Watch mode: output stays in memory until commit, then only files whose bytes changed are
 * written (each to a temporary name renamed into place, so the server never sends half a file),
 * and files no longer produced are removed. A failed rebuild commits nothing: the last good
 * pages stay served.
 */
/** Byte arrays committed by watch sessions, with the file each went to (never mutated: caches hand out the same objects). */
const committedObjects = new WeakMap<Uint8Array, string>();

export class IncrementalWriter implements Writer {
  files = 0;
  bytes = 0;
  private pending = new Map<string, string | Uint8Array>();
  /** Files written (changed) by the last commit. */
  changed: string[] = [];
  removed: string[] = [];

  /**
   * @param outDir the folder served
   * @param hashes content hash of every file this session has on disk (shared across runs)
   * @param keep files that stay although not written in this run (routes not re-rendered)
   */
  constructor(
    private readonly outDir: string,
    private readonly hashes: Map<string, string>,
    private readonly keep: ReadonlySet<string> = new Set(),
  ) {}

  async write(file: string, content: string | Uint8Array): Promise<void> {
    if (this.pending.has(file)) throw new Error(`${file} written twice`);
    this.pending.set(file, content);
    this.files++;
    this.bytes += typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
  }

  async commit(): Promise<void> {
    const { createHash } = await import('node:crypto');
    this.changed = [];
    await mapLimit(
      [...this.pending],
      64,
      async ([file, content]) => {
        // The very object last committed (a cached image or bundle written again): its bytes are on disk.
        if (typeof content !== 'string' && committedObjects.get(content) === file && this.hashes.has(file)) return;
        const hash = createHash('sha256').update(content).digest('hex');
        if (typeof content !== 'string') committedObjects.set(content, file);
        if (this.hashes.get(file) === hash) return;
        const target = path.join(this.outDir, file);
        await fs.mkdir(path.dirname(target), { recursive: true });
        const tmp = `${target}.${process.pid}.tmp`;
        await fs.writeFile(tmp, content);
        await fs.rename(tmp, target);
        this.hashes.set(file, hash);
        this.changed.push(file);
      },
    );
    this.removed = [...this.hashes.keys()].filter((f) => !this.pending.has(f) && !this.keep.has(f));
    await Promise.all(this.removed.map((f) => fs.rm(path.join(this.outDir, f), { force: true })));
    for (const f of this.removed) this.hashes.delete(f);
    // Folders the removals left empty go too (a listing's `page/` once its posts are gone), deepest
    // first, up to the output folder; a folder that still holds anything stays (rmdir refuses).
    const folders = new Set(this.removed.map((f) => path.dirname(f)).filter((d) => d !== '.'));
    for (const start of [...folders].sort((a, b) => b.length - a.length)) {
      for (let dir = start; dir !== '.'; dir = path.dirname(dir)) {
        try {
          await fs.rmdir(path.join(this.outDir, dir));
        } catch {
          break;
        }
      }
    }
    this.changed.sort();
    this.pending = new Map();
  }

  async abort(): Promise<void> {
    this.pending = new Map();
  }

  contentOf(file: string): string | Uint8Array | undefined {
    const now = this.pending.get(file);
    if (now !== undefined || !this.keep.has(file) || !this.hashes.has(file)) return now;
    return readFileSync(path.join(this.outDir, file));
  }
}

/**
 * Keeps every file in memory and publishes nothing: tests build fixture sites through it in
 * milliseconds instead of writing them to disk (architecture rule 9). `site check` keeps nothing.
 */
export class MemoryWriter implements Writer {
  files = 0;
  bytes = 0;
  /** Every file written, by output path; empty after `abort`. */
  readonly output = new Map<string, string | Uint8Array>();
  /** The host's files that go beside the web root (`<out>.host/` on disk), by name. */
  readonly beside = new Map<string, string | Uint8Array>();

  async write(file: string, content: string | Uint8Array): Promise<void> {
    if (this.output.has(file)) throw new Error(`${file} written twice`);
    this.output.set(file, content);
    this.files++;
    this.bytes += typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
  }

  async commit(): Promise<void> {}

  contentOf(file: string): string | Uint8Array | undefined {
    return this.output.get(file);
  }

  async abort(): Promise<void> {
    this.output.clear();
    this.beside.clear();
  }
}

/** Hash every file under `dir` (what is on disk when a watch session starts). */
export async function hashTree(dir: string): Promise<Map<string, string>> {
  const { createHash } = await import('node:crypto');
  const out = new Map<string, string>();
  await mapLimit(await listFiles(dir), 64, async (rel) => {
    out.set(rel, createHash('sha256').update(await fs.readFile(path.join(dir, rel))).digest('hex'));
  });
  return out;
}
