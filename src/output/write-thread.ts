/**
 * Pages written on the second core, for large builds that render on one thread.
 *
 * A profile of a cold build of 4,774 pages (2026-11-27) put ~550 ms of the main thread's ~2.1 s in
 * turning each page's text into bytes and writing it (open, writev, close), while the markdown
 * helper's thread sat idle for 1.4 s. This thread takes most of that over: the main thread hands
 * it each page's text (a marker where a layout piece goes: render/page.ts) in batches, and each
 * piece's bytes once; the thread encodes, assembles and writes each page into the staging folder
 * as DiskWriter would on the main thread, and reports the files, their bytes and where the pieces
 * sit.
 *
 * The main thread never waits for it while rendering: a page it cannot take (the thread is
 * MAX_BEHIND pages behind, or the page comes from another set of pieces) is written in place.
 * It runs on the markdown helper's thread when the build has one (its markdown comes first, as it
 * was asked for first), else on a thread of its own. Smaller builds write in place: the thread's
 * start-up (~130 ms of CPU, loading the CLI) would cost more than it saves.
 */
import os from 'node:os';
import { parentPort, Worker } from 'node:worker_threads';
import { pageParts, type PieceSource } from './pieces.ts';
import { OutputWriteError } from './write-error.ts';
import { DiskWriter, type PageHandoff } from './writer.ts';

export const WRITE_WORKER_ROLE = 'site-writer';

/**
 * From this many pages to render, a build that renders on one thread writes on a second
 * (`SITE_MIN_WRITE_THREAD_PAGES`); half as many when the markdown helper's thread does it (no thread
 * to start). Measured on 2 cores, cold builds (2026-11-27), medians of 6-8 alternating runs: on a
 * thread of its own, 1,204 pages 0.87 against 0.86 s without it, 2,204 pages 1.24 against 1.28 s,
 * 4,774 pages 2.12 against 2.28 s; on the helper's, 1,204 pages 0.875 against 0.93 s without it,
 * and 4,774 pages 2.24 s against 2.36 s on a thread of its own.
 */
const MIN_PAGES = Number(process.env.SITE_MIN_WRITE_THREAD_PAGES) || 2000;
/** Pages per message: fewer messages, and the thread starts on a batch while the next renders. */
const BATCH = 16;
/** Pages handed over and not yet written beyond which the main thread writes in place (~60 MB of text at ~30 KB a page). */
const MAX_BEHIND = Math.max(2 * BATCH, Number(process.env.SITE_WRITE_THREAD_BEHIND) || 2048);

type Start = { write: { outDir: string; staging: string; done: SharedArrayBuffer } };
type Batch = { open?: string; pieces: Uint8Array[]; files: string[]; html: string[] };
type Reply = { ok: true; files: string[]; bytes: number; placed: string[] } | { ok: false; message: string; write?: { file: string; code: string | undefined; why: string } };

export class WriteThread implements PageHandoff {
  private readonly worker: Worker;
  /**
   * [0]: pages the thread has finished (written, or skipped after a failure or a stop), counted by
   * the thread; [1]: 1 once told to stop (`stop`).
   */
  private readonly done = new Int32Array(new SharedArrayBuffer(8));
  private readonly reply: Promise<Reply>;
  private source?: PieceSource;
  private piecesSent = 0;
  private batch: Batch = { pieces: [], files: [], html: [] };
  /** Where each page handed over gets its pieces' places, in the order handed over (one a page). */
  private readonly placedTo: ((placed: string) => void)[] = [];
  /** Pages it wrote, once finished. */
  written = 0;

  /**
   * A thread for `pages` pages written into `staging` (the build's web root; `outDir` names files
   * in errors), when there are that many and a second core; else undefined. On `helper`'s thread
   * when given (the markdown helper's: render/parallel.ts), else on a thread of its own.
   * @param entry the module that runs `runWriteWorker` when loaded in a worker (the CLI bundle)
   */
  static start(entry: URL, outDir: string, staging: string, pages: number, helper?: Worker): WriteThread | undefined {
    const threads = Number(process.env.SITE_RENDER_THREADS) || os.availableParallelism();
    return threads >= 2 && pages >= (helper ? MIN_PAGES / 2 : MIN_PAGES) ? new WriteThread(helper ?? new Worker(entry, { workerData: { role: WRITE_WORKER_ROLE } }), outDir, staging) : undefined;
  }

  /**
   * @param worker a thread of its own, or the markdown helper's (render/parallel.ts: its markdown
   * comes first, as it was asked for first; one thread less to start, ~130 ms of CPU and 30 MB)
   */
  private constructor(worker: Worker, outDir: string, staging: string) {
    this.worker = worker;
    worker.postMessage({ write: { outDir, staging, done: this.done.buffer } } satisfies Start);
    this.reply = new Promise<Reply>((resolve) => {
      worker.once('message', (r: Reply) => resolve(r));
      worker.once('error', (err) => resolve({ ok: false, message: err.stack ?? err.message }));
      worker.once('exit', (code) => resolve({ ok: false, message: `the write thread exited (${code}) before finishing` }));
    });
  }

  /**
   * Hand over a page: its text and the pieces its markers name. False when the thread cannot take
   * it (the caller writes it); else `placed` is told where its pieces sit once it is written.
   */
  offer(file: string, html: string, pieces: PieceSource, placed: (at: string) => void): boolean {
    if ((this.source ??= pieces) !== pieces) return false;
    if (this.placedTo.length - Atomics.load(this.done, 0) >= MAX_BEHIND) return false;
    // As text: copying it into the message cost this thread less than encoding it and moving the
    // bytes (193 against 296 ms for 4,774 pages), and as much as encoding it into memory both
    // threads share (202 ms: most of either is flattening the text React built in small pieces).
    this.batch.files.push(file);
    this.batch.html.push(html);
    this.placedTo.push(placed);
    if (this.batch.files.length >= BATCH) this.flush();
    return true;
  }

  private flush(): void {
    if (!this.batch.files.length) return;
    // The pieces made since the last batch: a page names only pieces made before it was rendered.
    const { open, bytes } = this.source!;
    this.batch.pieces = bytes.slice(this.piecesSent);
    if (this.piecesSent === 0) this.batch.open = open;
    this.piecesSent = bytes.length;
    this.worker.postMessage(this.batch);
    this.batch = { pieces: [], files: [], html: [] };
  }

  /** Wait until every page handed over is written: the files and bytes written; throws if one was not. */
  async finish(): Promise<{ files: string[]; bytes: number }> {
    this.flush();
    this.worker.postMessage({ finish: true });
    const r = await this.reply;
    await this.terminate();
    // A page the disk refused is named as on the main thread; anything else is a defect of the thread.
    if (!r.ok) throw r.write ? new OutputWriteError(r.write.file, r.write.code, r.write.why) : new Error(`the write thread failed: ${r.message}`);
    r.placed.forEach((at, i) => this.placedTo[i]!(at));
    this.written = r.files.length;
    return { files: r.files, bytes: r.bytes };
  }

  /**
   * Write no more pages, at once (a stop signal: the build's folder is removed next, synchronously):
   * the thread finishes at most the page it is writing.
   */
  stop(): void {
    Atomics.store(this.done, 1, 1);
  }

  /** Stop the thread (a failed build: nothing more is written into its folder once this resolves). */
  async terminate(): Promise<void> {
    this.worker.removeAllListeners();
    await this.worker.terminate();
  }
}

/** Inside the write thread: assemble and write each page handed over, report when told to finish. */
export function runWriteWorker(): void {
  const write = pageWrites();
  parentPort!.on('message', (m: Start | Batch | { finish: true }) => write(m));
}

/**
 * What the thread does with each message of a WriteThread: the first says where pages go; a batch
 * is written; `finish` is answered with what was written. (The markdown helper passes on to it
 * the messages that are not markdown.)
 */
export function pageWrites(): (m: Start | Batch | { finish: true }) => void {
  let writer: DiskWriter | undefined;
  let finished: Int32Array;
  const pieces = { open: '', bytes: [] as Uint8Array[] };
  const placed: string[] = [];
  let failed: Reply | undefined;
  return (m) => {
    if ('write' in m) {
      writer = new DiskWriter(m.write.outDir, { staging: m.write.staging });
      finished = new Int32Array(m.write.done);
      return;
    }
    if (!writer) throw new Error('a page to write before where it goes');
    if ('finish' in m) {
      parentPort!.postMessage(failed ?? ({ ok: true, files: writer.paths(), bytes: writer.bytes, placed } satisfies Reply));
      return;
    }
    if (m.open !== undefined) pieces.open = m.open;
    pieces.bytes.push(...m.pieces);
    for (let i = 0; i < m.files.length; i++) {
      // After a failure the rest is skipped: the build fails with the first page the disk refused.
      // After a stop too: the build's folder is being removed.
      if (!failed && !Atomics.load(finished, 1)) {
        try {
          const at: number[] = [];
          const page = pageParts(m.html[i]!, pieces, at);
          writer.writeParts(m.files[i]!, page.parts, page.bytes);
          placed.push(at.join(','));
        } catch (err) {
          failed = { ok: false, message: (err as Error).stack ?? String(err), ...(err instanceof OutputWriteError && { write: { file: err.file, code: err.code, why: err.message } }) };
        }
      }
      Atomics.add(finished, 0, 1);
    }
  };
}
