/**
 * The resident build process's second thread for file-system work: the survey of the live output
 * and the hard links that carry unchanged pages into a new build.
 *
 * A profile of one-post rebuilds of 4,000 posts in the resident process (2026-11-27) put ~20 ms a
 * build in the survey (a listing of 4,700 folders and a stat of 4,800 files) and ~28 ms in the
 * links, nearly all of it in the kernel, while the second core sat idle. Here the survey runs while
 * the main thread stamps the content, and the links while it loads, renders and writes the rest;
 * the main thread waits only before it publishes. The same functions run on the main thread
 * everywhere else: a thread's start (~130 ms of CPU, loading the CLI) pays only in a process that
 * keeps it from build to build.
 */
import { parentPort, Worker } from 'node:worker_threads';
import { carryOver } from './carry.ts';
import { surveyLive, type LiveSurvey } from './survey.ts';
import { OutputWriteError } from './write-error.ts';

export const IO_WORKER_ROLE = 'site-io';

type Request =
  | { id: number; survey: { dir: string; files: readonly string[] } }
  | { id: number; carry: { from: string; staging: string; shownDir: string; files: readonly string[]; stop: SharedArrayBuffer } };
type Answer = { id: number; survey?: LiveSurvey; carried?: Carried; failed?: { message: string; write?: { file: string; code: string | undefined; why: string } } };

/** What a carry on the thread could not link: files gone from the output meanwhile. */
export interface Carried {
  missing: string[];
}

export class IoThread {
  private readonly worker: Worker;
  private next = 0;
  private readonly waiting = new Map<number, { resolve: (a: Answer) => void }>();
  private dead?: string;
  /** Resolves true once the thread has loaded and listens, false if it ended first. */
  readonly loaded: Promise<boolean>;
  private ready?: (ok: boolean) => void;

  /** @param entry the module that runs `runIoWorker` when loaded in a worker (the CLI bundle) */
  constructor(entry: URL) {
    this.worker = new Worker(entry, { workerData: { role: IO_WORKER_ROLE } });
    this.loaded = new Promise((resolve) => (this.ready = resolve));
    // Between builds it waits for nothing: it never keeps the process alive.
    this.worker.unref();
    this.worker.on('message', (a: Answer | { ready: true }) => {
      if ('ready' in a) return this.ready!(true);
      this.waiting.get(a.id)?.resolve(a);
      this.waiting.delete(a.id);
    });
    const end = (why: string) => {
      this.dead ??= why;
      this.ready!(false);
      for (const w of this.waiting.values()) w.resolve({ id: -1, failed: { message: why } });
      this.waiting.clear();
    };
    this.worker.on('error', (err) => end(`the file thread failed: ${err.stack ?? err.message}`));
    this.worker.on('exit', (code) => end(`the file thread exited (${code})`));
  }

  /** Running: a thread that failed or ended is not asked again (the caller does the work itself). */
  get alive(): boolean {
    return this.dead === undefined;
  }

  private ask(request: Omit<Request, 'id'>): Promise<Answer> {
    const id = this.next++;
    return new Promise((resolve) => {
      if (this.dead) return resolve({ id, failed: { message: this.dead } });
      this.waiting.set(id, { resolve });
      this.worker.postMessage({ ...request, id });
    });
  }

  /** surveyLive(dir, files), on the thread. */
  async survey(dir: string, files: readonly string[]): Promise<LiveSurvey> {
    const a = await this.ask({ survey: { dir, files } });
    if (!a.survey) throw new Error(a.failed?.message ?? 'no survey');
    return a.survey;
  }

  /**
   * Hard-link `files` of `from` into `staging` on the thread (carryOver, their stamps checked by the
   * caller already). A link the disk refuses rejects as the main thread's would (OutputWriteError);
   * setting `stop[0]` to 1 ends it before the next file (a stop signal: the folder is removed next).
   */
  async carry(from: string, staging: string, shownDir: string, files: readonly string[], stop: Int32Array): Promise<Carried> {
    const a = await this.ask({ carry: { from, staging, shownDir, files, stop: stop.buffer as SharedArrayBuffer } });
    if (a.carried) return a.carried;
    const f = a.failed!;
    throw f.write ? new OutputWriteError(f.write.file, f.write.code, f.write.why) : new Error(f.message);
  }

  async terminate(): Promise<void> {
    this.worker.removeAllListeners();
    await this.worker.terminate();
  }
}

/** Inside the thread: answer each request in turn. */
export function runIoWorker(): void {
  parentPort!.on('message', (m: Request) => {
    let answer: Answer;
    try {
      if ('survey' in m) answer = { id: m.id, survey: surveyLive(m.survey.dir, m.survey.files) };
      else {
        const { from, staging, shownDir, files, stop } = m.carry;
        const flag = new Int32Array(stop);
        answer = { id: m.id, carried: { missing: carryOver(from, staging, files, { shownDir, stopped: () => Atomics.load(flag, 0) === 1 }) } };
      }
    } catch (err) {
      answer = { id: m.id, failed: { message: (err as Error).stack ?? String(err), ...(err instanceof OutputWriteError && { write: { file: err.file, code: err.code, why: err.message } }) } };
    }
    parentPort!.postMessage(answer);
  });
  parentPort!.postMessage({ ready: true });
}
