/**
 * `site watch`: build, serve, and rebuild what each change affects. Rapid saves are coalesced;
 * one rebuild runs at a time; errors are reported in the terminal and the browser and never stop
 * the session; the last good pages stay served. A render that never ends is stopped and its
 * thread replaced; a watched folder that disappears is watched again when it comes back.
 */
import { watch as chokidarWatch, type FSWatcher } from 'chokidar';
import { statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import type { BuildConfig } from '../config.ts';
import { startDevServer, type DevServer } from '../server/dev.ts';
import type { RebuildReport } from './session.ts';
import { RenderWorker, WORKER_HEAP_LIMIT } from './worker.ts';
import { esbuild } from '../require.ts';
import { ignoredName } from '../files.ts';


/**
 * Saves closer together than this become one rebuild. An editor's save (a rename, or several files
 * at once) arrives within a millisecond or two, and changes that come while a rebuild runs are
 * taken together after it anyway; every millisecond here is added to each edit's reload (15 -> 5 ms:
 * content edit -> reload median 76-79 -> 58 ms in bench:watch, same load).
 */
export const COALESCE_MS = 5;
/** Past chokidar's 50 ms throttle of repeated change events for one file. */
const RECHECK_MS = 80;

export interface WatchHandle {
  url: string;
  server: DevServer;
  /** Resolves after the rebuild that is running or queued now has finished. */
  idle(): Promise<void>;
  close(): Promise<void>;
}


export interface WatchOptions {
  /** The module that runs the render worker (the CLI bundle). */
  workerEntry: URL;
  port: number;
  /** Address the dev server binds and answers to (default 127.0.0.1; `--host` for a phone on the LAN). */
  host?: string;
  log: (line: string) => void;
  /** Called after each rebuild (tests and the benchmark listen here). */
  onReport?: (report: RebuildReport) => void;
}

const time = () => new Date().toTimeString().slice(0, 8);

/** One page render running longer than this is stopped (a template stuck in a loop); SITE_RENDER_LIMIT_MS overrides. */
export const RENDER_LIMIT_MS = Number(process.env.SITE_RENDER_LIMIT_MS) || 10_000;
/** How often the watchdog and the folder check look. */
const POLL_MS = 250;

/** The one line a rebuild prints; `served`: whether a good build exists to fall back on. */
export function formatReport(r: RebuildReport, served = true): string {
  const fallback = served ? 'still serving the last good pages' : 'no pages to serve yet: fix the errors and save';
  if (!r.ok) return `[${time()}] ✗ ${r.cause}: build failed (${Math.round(r.ms)} ms); ${fallback}\n${r.error}`;
  const files = r.changed.length + r.removed.length;
  return `[${time()}] ${r.cause} → ${r.rendered} page(s) rendered, ${files} file(s) changed, ${Math.round(r.ms)} ms${r.warnings ? `, ${r.warnings} warning(s)` : ''}`;
}

/** The render worker was stopped by the watchdog while rendering `route`. */
class RunawayRender extends Error {
  constructor(readonly route: { route: string; template: string; origin: string }) {
    super(`rendering ${route.route} (template "${route.template}", ${route.origin}) ran past ${RENDER_LIMIT_MS / 1000} s and was stopped; the render thread was replaced. Fix the template (an endless loop?) and save.`);
  }
}

/** `dev:ino` of a folder, or 'missing': a change means it was removed, moved back or replaced. */
function folderIdentity(dir: string): string {
  const st = statSync(dir, { throwIfNoEntry: false });
  return st?.isDirectory() ? `${st.dev}:${st.ino}` : 'missing';
}

async function bundleReloadScript(clientDir: string): Promise<string> {
  const result = await esbuild().build({ entryPoints: [path.join(clientDir, 'dev-reload.ts')], bundle: true, write: false, minify: true, format: 'iife', logLevel: 'silent' });
  return result.outputFiles[0]!.text;
}

export async function startWatch(config: BuildConfig, opts: WatchOptions): Promise<WatchHandle> {
  let worker = new RenderWorker(opts.workerEntry, config);
  let served = false;
  let closing = false;
  /** One rebuild in worker `w`, stopped (RunawayRender) if a single route renders past the limit. */
  const guarded = async (w: RenderWorker, changes: readonly string[]) => {
    const watchdog = setInterval(() => {
      const cur = w.current;
      if (cur && performance.now() - cur.since > RENDER_LIMIT_MS) void w.terminate(new RunawayRender(cur));
    }, POLL_MS);
    try {
      return await w.rebuild(changes);
    } finally {
      clearInterval(watchdog);
    }
  };
  /** Rebuild in the worker; replace the worker when it has grown past the limit or a render never ends. */
  const rebuild = async (changes: readonly string[]): Promise<RebuildReport> => {
    const started = performance.now();
    try {
      const { report, heapUsed } = await guarded(worker, changes);
      if (heapUsed > WORKER_HEAP_LIMIT) {
        const fresh = new RenderWorker(opts.workerEntry, config);
        await guarded(fresh, []); // a full build into the same folder: it rewrites nothing unchanged
        const old = worker;
        worker = fresh;
        await old.terminate();
        opts.log(`[${time()}] render worker replaced (heap ${Math.round(heapUsed / 1048576)} MiB): memory stays bounded`);
      }
      return report;
    } catch (err) {
      // A render past the limit, or any failure the rebuild could not report itself (the content
      // folder taken away in the middle of it, a defect): the thread may hold half a rebuild, or
      // be gone. A fresh thread, whose first build renders everything again, so nothing half-done
      // stays; the session goes on. (The runaway was stopped by its watchdog; the current one, if
      // the runaway was its replacement, too.) Not while stopping: the thread was ended on purpose.
      if (closing) throw err;
      await worker.terminate().catch(() => undefined);
      worker = new RenderWorker(opts.workerEntry, config);
      const cause = changes.length ? changes.map((c) => path.basename(c)).slice(0, 3).join(', ') : 'start';
      const error = err instanceof RunawayRender ? `render: ${err.message}` : `unexpected: ${(err as Error).message}; the render thread was replaced, and the next rebuild renders every page`;
      return { ok: false, cause, rendered: 0, changed: [], removed: [], ms: performance.now() - started, warnings: 0, error };
    }
  };
  /** Print a rebuild and tell the browser (the server is up before the first report). */
  let shownWarnings = '';
  const report = (r: RebuildReport) => {
    opts.log(formatReport(r, served));
    // The warnings themselves, whenever they change (not only their number); and in the browser.
    const list = r.warningList ?? [];
    if (r.ok && list.join('\n') !== shownWarnings) {
      shownWarnings = list.join('\n');
      for (const line of list) opts.log(`  ${line}`);
      server?.setWarnings(list);
    }
    opts.onReport?.(r);
    // What the code imports from outside its folders is watched as well (as long as the session runs).
    for (const f of r.outside ?? []) {
      if (outside.has(f)) continue;
      outside.add(f);
      watcher?.add(f);
    }
    if (r.ok) {
      served = true;
      server?.reload();
    } else server?.setError(r.error);
  };
  const outside = new Set<string>();
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
    // The templates or client folder moved away: nothing builds right without it (the content was
    // checked against the project's own model, with errors in files that are fine). Wait for it:
    // the pages served stay the last build's, and its return rebuilds everything.
    if ([config.templatesDir, config.clientDir].some((d) => folderIdentity(d) === 'missing')) {
      pending.clear();
      return;
    }
    const changes = [...pending];
    pending.clear();
    for (const c of changes) taken.set(c, mtimeOf(c));
    running = rebuild(changes)
      .then(report, (err: unknown) => void (closing || opts.log(`[${time()}] ✗ unexpected: ${(err as Error).stack ?? String(err)}`)))
      .finally(() => {
        running = undefined;
        if (pending.size) flush();
      });
  };
  let watcher: FSWatcher | undefined;
  const watch = (): FSWatcher => {
    const roots = [config.contentDir, config.templatesDir, config.clientDir];
    const w = chokidarWatch(roots, {
      ignoreInitial: true,
      // The names no build reads (editors' swap and backup files, dotfiles, our own temporary
      // files), below the watched folders: a content folder may itself be named `.site-content`.
      ignored: (p: string) => ignoredName(path.basename(p)) && !roots.includes(path.resolve(p)),
    });
    w.on('all', (_event, file) => {
      const abs = path.resolve(file);
      enqueue(abs);
      // chokidar drops a second change of one file within 50 ms: look again after that window,
      // so the last save is never lost.
      setTimeout(() => {
        if (!pending.has(abs) && taken.has(abs) && mtimeOf(abs) !== taken.get(abs)) enqueue(abs);
      }, RECHECK_MS).unref();
    });
    // A path it cannot watch (a link into a loop, ELOOP) is reported, not the end of the session.
    w.on('error', (err) => void (closing || opts.log(`[${time()}] ✗ cannot watch: ${(err as Error).message}`)));
    return w;
  };
  // The server starts first, so a first build that fails (or never ends) is shown in the browser too.
  // If starting fails (address not available, every port taken, the worker gone), nothing may stay
  // behind: a live render thread, watcher or socket would keep the process from exiting.
  let server: DevServer | undefined;
  try {
    server = await startDevServer({ root: config.outDir, port: opts.port, host: opts.host, reloadScript: await bundleReloadScript(config.clientDir) });
    // Watching starts before the first build reads anything: a save while it runs (or before the
    // watcher was ready, as it used to be) is the next rebuild, since a session reads again only
    // what the watcher names.
    watcher = watch();
    await new Promise<void>((resolve) => watcher!.once('ready', () => resolve()));
    const first = rebuild([]);
    running = first.then(() => undefined, () => undefined);
    report(await first);
    running = undefined;
    if (pending.size) flush();
  } catch (err) {
    await Promise.allSettled([worker.terminate(), server?.close(), watcher?.close()]);
    throw err;
  }


  // chokidar stops watching a folder that is removed: look at the roots themselves, and watch a
  // folder again (and rebuild everything from it) when it is back or was replaced by another.
  const roots = [config.contentDir, config.templatesDir, config.clientDir];
  const identities = new Map(roots.map((d) => [d, folderIdentity(d)]));
  const folders = setInterval(() => {
    for (const dir of roots) {
      const now = folderIdentity(dir);
      if (now === identities.get(dir)) continue;
      identities.set(dir, now);
      if (now === 'missing') {
        opts.log(`[${time()}] ${dir} is gone: waiting for it to come back`);
        enqueue(dir);
        continue;
      }
      opts.log(`[${time()}] ${dir} is back: watching it again`);
      void watcher!.unwatch(dir);
      watcher!.add(dir);
      enqueue(dir);
    }
  }, POLL_MS);

  return {
    url: server.url,
    server,
    async idle() {
      while (timer || running || pending.size) {
        await (running ?? new Promise((r) => setTimeout(r, COALESCE_MS)));
      }
    },
    async close() {
      closing = true;
      clearInterval(folders);
      if (timer) clearTimeout(timer);
      // The worker first: a render stuck in a loop must not hold up the exit.
      await worker.terminate();
      await Promise.all([watcher!.close(), server!.close()]);
    },
  };
}
