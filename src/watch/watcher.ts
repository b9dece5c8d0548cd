/**
 * `site watch`: build, serve, and rebuild what each change affects. Rapid saves are coalesced;
 * one rebuild runs at a time; errors are reported in the terminal and the browser and never stop
 * the session; the last good pages stay served.
 */
import { watch as chokidarWatch, type FSWatcher } from 'chokidar';
import { statSync } from 'node:fs';
import path from 'node:path';
import type { BuildConfig } from '../config.ts';
import { startDevServer, type DevServer } from '../server/dev.ts';
import type { RebuildReport } from './session.ts';
import { RenderWorker } from './worker.ts';
import { requireCjs } from '../require.ts';

const { build: esbuild } = requireCjs('esbuild') as typeof import('esbuild');

/** Saves closer together than this become one rebuild. */
export const COALESCE_MS = 15;
/** Past chokidar's 50 ms throttle of repeated change events for one file. */
const RECHECK_MS = 80;

export interface WatchHandle {
  url: string;
  server: DevServer;
  /** Resolves after the rebuild that is running or queued now has finished. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** A render worker whose heap passes this is replaced (after the rebuild that crossed it). */
export const WORKER_HEAP_LIMIT = 192 * 1024 * 1024;

export interface WatchOptions {
  /** The module that runs the render worker (the CLI bundle). */
  workerEntry: URL;
  port: number;
  log: (line: string) => void;
  /** Called after each rebuild (tests and the benchmark listen here). */
  onReport?: (report: RebuildReport) => void;
}

const time = () => new Date().toTimeString().slice(0, 8);

/** The one line a rebuild prints. */
export function formatReport(r: RebuildReport): string {
  if (!r.ok) return `[${time()}] ✗ ${r.cause}: build failed (${Math.round(r.ms)} ms); still serving the last good pages\n${r.error}`;
  const files = r.changed.length + r.removed.length;
  return `[${time()}] ${r.cause} → ${r.rendered} page(s) rendered, ${files} file(s) changed, ${Math.round(r.ms)} ms${r.warnings ? `, ${r.warnings} warning(s)` : ''}`;
}

async function bundleReloadScript(clientDir: string): Promise<string> {
  const result = await esbuild({ entryPoints: [path.join(clientDir, 'dev-reload.ts')], bundle: true, write: false, minify: true, format: 'iife', logLevel: 'silent' });
  return result.outputFiles[0]!.text;
}

export async function startWatch(config: BuildConfig, opts: WatchOptions): Promise<WatchHandle> {
  let worker = new RenderWorker(opts.workerEntry, config);
  /** Rebuild in the worker; replace the worker when it has grown past the limit. */
  const rebuild = async (changes: readonly string[]): Promise<RebuildReport> => {
    const { report, heapUsed } = await worker.rebuild(changes);
    if (heapUsed > WORKER_HEAP_LIMIT) {
      const fresh = new RenderWorker(opts.workerEntry, config);
      await fresh.rebuild([]); // a full build into the same folder: it rewrites nothing unchanged
      const old = worker;
      worker = fresh;
      await old.terminate();
      opts.log(`[${time()}] render worker replaced (heap ${Math.round(heapUsed / 1048576)} MiB): memory stays bounded`);
    }
    return report;
  };
  const report = (r: RebuildReport) => {
    opts.log(formatReport(r));
    opts.onReport?.(r);
    if (r.ok) server.reload();
    else server.setError(r.error);
  };
  const first = await rebuild([]);
  const server = await startDevServer({ root: config.outDir, port: opts.port, reloadScript: await bundleReloadScript(config.clientDir) });
  report(first);

  const pending = new Set<string>();
  /** Modification time of each changed file when a rebuild took it. */
  const taken = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const mtimeOf = (file: string) => statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? -1;
  const enqueue = (file: string) => {
    pending.add(file);
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, COALESCE_MS);
  };
  const flush = (): void => {
    timer = undefined;
    if (running || pending.size === 0) return;
    const changes = [...pending];
    pending.clear();
    for (const c of changes) taken.set(c, mtimeOf(c));
    running = rebuild(changes)
      .then(report, (err: unknown) => opts.log(`[${time()}] ✗ unexpected: ${(err as Error).stack ?? String(err)}`))
      .finally(() => {
        running = undefined;
        if (pending.size) flush();
      });
  };
  const watcher: FSWatcher = chokidarWatch([config.contentDir, config.templatesDir, config.clientDir], {
    ignoreInitial: true,
    // Editors' swap and backup files, and our own temporary files.
    ignored: (p: string) => /(^|[/\\])(\.[^/\\]*|.*~|.*\.sw[a-p]|.*\.tmp)$/.test(p),
  });
  watcher.on('all', (_event, file) => {
    const abs = path.resolve(file);
    enqueue(abs);
    // chokidar drops a second change of one file within 50 ms: look again after that window,
    // so the last save is never lost.
    setTimeout(() => {
      if (!pending.has(abs) && taken.has(abs) && mtimeOf(abs) !== taken.get(abs)) enqueue(abs);
    }, RECHECK_MS).unref();
  });
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));

  return {
    url: server.url,
    server,
    async idle() {
      while (timer || running || pending.size) {
        await (running ?? new Promise((r) => setTimeout(r, COALESCE_MS)));
      }
    },
    async close() {
      if (timer) clearTimeout(timer);
      await watcher.close();
      await running;
      await server.close();
      await worker.terminate();
    },
  };
}
