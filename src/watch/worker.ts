/**
 * The render worker of `site watch`. V8 never frees the code of a function compiled from a new
 * source (measured: about 85 KB per template reload on Node 20), so rendering lives in a worker
 * thread: the session and every template version it loaded are freed together when the watcher
 * replaces a worker that has grown past its memory limit.
 */
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { parentPort, Worker } from 'node:worker_threads';
import type { BuildConfig } from '../config.ts';
import { WatchSession, type RebuildReport } from './session.ts';

import { WORKER_ROLE } from './role.ts';

export { WORKER_ROLE };

/** A render worker whose heap passes this after a rebuild (as its last full collection left it) is replaced. */
export const WORKER_HEAP_LIMIT = 192 * 1024 * 1024;

/**
 * The heap in use as the last full collection left it (the heap as it is before the first): the
 * memory a worker keeps (the code of old template versions), not the garbage a rebuild left. A
 * rebuild of a 4,000-post site leaves ~30 MB of garbage, so the heap as it is crossed 192 MiB every
 * 6-8 rebuilds while ~70 MB were kept, and each crossing replaced the worker with a full build
 * (~4 s at 4,000 posts). Read from V8's own collections: forcing one after a rebuild took up to
 * 400 ms on the shipped site's edit-to-reload time.
 */
export function keptHeap(): () => number {
  let kept: number | undefined;
  const observer = new PerformanceObserver((list) => {
    if (list.getEntries().some((e) => (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) kept = getHeapStatistics().used_heap_size;
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => kept ?? getHeapStatistics().used_heap_size;
}

type Request = { id: number; changes: string[] };
type Reply = { id: number; report: RebuildReport; heapUsed: number };
/**
 * Sent as a route starts rendering (the main thread's watchdog names it if it never ends), and
 * with `route: null` once rendering is over: what follows (service worker, host files, commit) is
 * nobody's template.
 */
export type Progress = { id: number; route: string | null; template: string; origin: string };

/** Inside the worker: answer rebuild requests one at a time. */
export function runRenderWorker(config: BuildConfig): void {
  const session = new WatchSession(config);
  const heap = keptHeap();
  parentPort!.on('message', async (req: Request) => {
    const report = await session.rebuild(req.changes, (route) =>
      parentPort!.postMessage({ id: req.id, route: route?.path ?? null, template: route?.template ?? '', origin: route?.origin ?? '' } satisfies Progress),
    );
    const reply: Reply = { id: req.id, report, heapUsed: heap() };
    parentPort!.postMessage(reply);
  });
}

/** The main thread's handle on one render worker. */
export class RenderWorker {
  private readonly worker: Worker;
  private next = 0;
  private readonly waiting = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  /** The route this worker is rendering now, and since when (undefined between routes' builds). */
  current?: { route: string; template: string; origin: string; since: number };

  /** @param entry the module that starts `runRenderWorker` when loaded in a worker (the CLI bundle) */
  constructor(entry: URL, config: BuildConfig) {
    this.worker = new Worker(entry, { workerData: { role: WORKER_ROLE, config } });
    this.worker.on('message', (r: Reply | Progress) => {
      if ('route' in r) {
        this.current = r.route === null ? undefined : { route: r.route, template: r.template, origin: r.origin, since: performance.now() };
        return;
      }
      this.current = undefined;
      this.waiting.get(r.id)?.resolve(r);
      this.waiting.delete(r.id);
    });
    const fail = (err: Error) => {
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`render worker exited (${code})`)));
  }

  rebuild(changes: readonly string[]): Promise<Reply> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, changes: [...changes] } satisfies Request);
    });
  }

  /** Stop the thread now, even inside a render that never ends; pending rebuilds reject with `reason`. */
  async terminate(reason?: Error): Promise<void> {
    this.worker.removeAllListeners('exit');
    for (const w of this.waiting.values()) w.reject(reason ?? new Error('render worker stopped'));
    this.waiting.clear();
    await this.worker.terminate();
  }
}
