/**
 * A second thread for file-system work: the survey of the live output, the hard links that carry
 * unchanged pages into a new build, and the stats of the content files the last build recorded
 * while the main thread walks the content folders (carry.ts ContentStats).
 *
 * A profile of one-post rebuilds of 4,000 posts (2026-11-27) put ~20 ms a build in the survey (a
 * stat of each of the live build's 4,800 files) and ~28 ms in the links, nearly all of it in the
 * kernel, while the second core sat idle; a one-shot "nothing changed" build spent 58 of its ~260
 * ms surveying. Here the survey runs while the main thread stamps the content, and the links while
 * it loads, renders and writes the rest; the main thread waits for them only before it publishes.
 * The thread runs a script of its own (output/io-worker.ts, ~6 KB): it answers ~30 ms after it is
 * started. The resident build process keeps one (cli.ts), which also removes the builds it
 * replaced. A one-shot build does all of it on its main thread: a thread stat-ing beside it slowed
 * the main thread's content stamps by as much as it saved (docs/benchmarks.md).
 */
import { rmSync } from 'node:fs';
import { parentPort, Worker } from 'node:worker_threads';
import { carryOver, statFiles } from './carry.ts';
import { surveyLive, type LiveSurvey } from './survey.ts';
import { OutputWriteError } from './write-error.ts';

type Request =
  | { id: number; survey: { dir: string; files: readonly string[] } }
  | { id: number; remove: string }
  | { id: number; stat: { root: string; files: readonly string[] } }
  | { id: number; carry: { from: string; staging: string; shownDir: string; files: readonly string[]; stop: SharedArrayBuffer } };
type Answer = { id: number; survey?: LiveSurvey; carried?: Carried; stats?: BigInt64Array; failed?: { message: string; write?: { file: string; code: string | undefined; why: string } } };

/** What a carry on the thread could not link (files gone from the output meanwhile), and what it copied instead of linking (a disk that refuses links). */
export interface Carried {
  missing: string[];
  copied: string[];
}

export class IoThread {
  private readonly worker: Worker;
  private next = 0;
  private readonly waiting = new Map<number, { resolve: (a: Answer) => void }>();
  private dead?: string;

  /**
   * @param entry the thread's own script (output/io-worker.ts, bundled apart by bin/site.js). Asked
   * before it has loaded, it answers once loaded (~30 ms): messages wait for it.
   */
  constructor(entry: URL) {
    this.worker = new Worker(entry);
    // Between builds it waits for nothing: it never keeps the process alive.
    this.worker.unref();
    this.worker.on('message', (a: Answer) => {
      this.waiting.get(a.id)?.resolve(a);
      this.waiting.delete(a.id);
    });
    const end = (why: string) => {
      this.dead ??= why;
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
    if (f.write) throw new OutputWriteError(f.write.file, f.write.code, f.write.why);
    throw new Error(`${f.message} while it carried this build's unchanged pages: nothing was published (the output is as it was); build again`);
  }

  /** statFiles(root, files), on the thread (carry.ts ContentStats); undefined if it could not. */
  async stat(root: string, files: readonly string[]): Promise<BigInt64Array | undefined> {
    return (await this.ask({ stat: { root, files } })).stats;
  }

  /** Remove a folder no longer live (a replaced build) on the thread: no `rm` process to spawn (~3.6 ms of the main thread's time a build). */
  async remove(dir: string): Promise<void> {
    const a = await this.ask({ remove: dir });
    if (a.failed) throw new Error(a.failed.message);
  }
}

/** Inside the thread: answer each request in turn. */
export function runIoWorker(): void {
  parentPort!.on('message', (m: Request) => {
    let answer: Answer;
    try {
      if ('survey' in m) answer = { id: m.id, survey: surveyLive(m.survey.dir, m.survey.files) };
      else if ('stat' in m) answer = { id: m.id, stats: statFiles(m.stat.root, m.stat.files) };
      else if ('remove' in m) {
        rmSync(m.remove, { recursive: true, force: true, maxRetries: 3 });
        answer = { id: m.id };
      } else {
        const { from, staging, shownDir, files, stop } = m.carry;
        const flag = new Int32Array(stop);
        const copied: string[] = [];
        answer = { id: m.id, carried: { missing: carryOver(from, staging, files, { shownDir, stopped: () => Atomics.load(flag, 0) === 1, copied }), copied } };
      }
    } catch (err) {
      answer = { id: m.id, failed: { message: (err as Error).stack ?? String(err), ...(err instanceof OutputWriteError && { write: { file: err.file, code: err.code, why: err.message } }) } };
    }
    parentPort!.postMessage(answer);
  });
}
