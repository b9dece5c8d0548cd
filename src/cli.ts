/** The `site` command: parses options, runs a command, prints the outcome, returns the exit code. */
import { Command, CommanderError } from 'commander';
import path from 'node:path';
import type { BuildResult } from './build.ts';
import { contentFolder, resolveConfig, siteFolder, type CliOptions } from './config.ts';
import { BuildError, formatDiagnostic, formatFailure, useColor, type Diagnostic, type PrintOptions } from './diagnostics.ts';
import { isMainThread, workerData } from 'node:worker_threads';
import type { BuildConfig } from './config.ts';
import { WORKER_ROLE } from './watch/role.ts';
import { IoThread } from './output/io-thread.ts';
import { abortUnpublished, DiskWriter } from './output/writer.ts';
import { inputStamps, readRecord, unchangedResult } from './output/carry.ts';
import { lockBuild, lockFile } from './output/lock.ts';
import { surveyLive } from './output/survey.ts';
import { inspectOutput, OutputRefused, recordedWebRoot, removeLeftovers, restoreInterrupted, strayEntries } from './output/publish.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { projectRoot } from './project.ts';
import { UsageError, USAGE_EXIT, wrap } from './commands/usage.ts';

/**
 * How the CLI was started. From its bundle (bin/site.js), `workerEntry` is the script that starts a
 * worker thread with the same code: large builds render on every core, watch renders in a worker.
 * From the sources (tests), builds use this thread only.
 */
let runtime: { workerEntry?: URL; ioEntry?: URL; resident?: Resident } = {};

/** The resident process's state between builds: the last build's record being written, and what it said. */
interface Resident {
  idleMs: number;
  /** Until the last build's record is written and its lock released. */
  settling?: Promise<void>;
  /** By output folder: the last build's record could not be written (said by the next build of it). */
  unrecorded?: Map<string, string>;
  /** Its file thread (output/io-thread.ts): the live output's survey and the carry's links, beside the main thread. */
  io?: IoThread;
}

/** Run as the resident build process on `socket` (bin/resident.js starts it): see src/resident/server.ts. */
export async function resident(socket: string, started: typeof runtime & { resident: Resident; served?: () => void }): Promise<void> {
  const { serveResident } = await import('./resident/server.ts');
  const state = started.resident;
  const { changedModule, dropTemplatePackages, moduleStamps } = await import('./resident/modules.ts');
  const { requiredByTemplates } = await import('./render/templates.ts');
  let modules: Map<string, string> | undefined;
  // What the process was listening to and waiting on before the last build (counted once it settled).
  const listeners = () => new Map(process.eventNames().map((n) => [n, process.listenerCount(n)]));
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  let before: { listeners: Map<string | symbol, number>; timers: number } | undefined;
  // Started with the process, kept for every build.
  if (started.ioEntry) state.io = new IoThread(started.ioEntry);
  const run = async (argv: string[]): Promise<number | 'retire' | { exit: number }> => {
    await state.settling;
    // A package it kept changed on disk: a process of its own loads it afresh.
    const changed = modules && changedModule(modules);
    if (changed) {
      console.error(`site build: ${changed} changed since the resident build process loaded it; building in this process.`);
      return 'retire';
    }
    // The last build left process listeners or timers behind (a package of the templates that sets
    // them when loaded): each build would add more. Its builds run in their own processes.
    const left = before && ([...listeners()].some(([n, c]) => c > (before!.listeners.get(n) ?? 0)) || timers() > before.timers);
    if (left) {
      writeOff('The templates (or a package they require) leave process listeners or timers behind after a build.');
      return 'retire';
    }
    before = { listeners: listeners(), timers: timers() };
    let exit: number;
    let fixed: string[] = [];
    try {
      exit = await main(argv, started);
    } finally {
      // The templates' packages, loaded afresh by the next build (src/resident/modules.ts).
      fixed = dropTemplatePackages(requiredByTemplates());
      modules = moduleStamps();
    }
    if (!fixed.length) return exit;
    // One that cannot be loaded again: this build was its first load (right), the next would not
    // be. This process leaves, and says so to the next builds for a while (bin/resident.js).
    writeOff(`The templates require ${fixed.join(', ')}, which a process cannot load again (an ES module or a native addon).`);
    return { exit };
  };
  /** Why the site's builds run in their own processes for a while (bin/resident.js reads it). */
  const writeOff = (why: string) => {
    try {
      writeFileSync(`${socket}.off`, `${why}\n`);
    } catch {
      // the next build starts one again, which leaves again
    }
  };
  await serveResident(socket, run, state.idleMs, started.served);
  await state.settling;
  process.exit(0);
}

/** The summary's last line from the resident process: where the build ran, and how to do without. */
function residentLine(): string[] {
  const r = runtime.resident;
  if (!r) return [];
  return [`  built by the resident build process (pid ${process.pid}; it leaves after ${Math.round(r.idleMs / 60_000)} min without a build; SITE_RESIDENT=off builds in a new process)`];
}

const kb = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${(n / 1024).toFixed(1)} KB`);

/** The end-of-build summary: pages by kind and language, bytes, time, warnings. */
export function formatSummary(result: BuildResult, outDir: string, print: PrintOptions = {}): string {
  const { stats } = result;
  const langs = stats.languages;
  const total = Object.values(stats.pages).reduce((n, byLang) => n + Object.values(byLang).reduce((a, b) => a + b, 0), 0);
  const where = `${path.relative(process.cwd(), outDir) || '.'}/`;
  const lines = [
    stats.carried
      ? `Nothing changed since the last build: ${where} holds its ${stats.carried} files (${total} pages) as they are; nothing rendered or written (${Math.round(stats.ms)} ms)`
      : `Built ${total} pages in ${Math.round(stats.ms)} ms → ${where} (${stats.files} files${stats.incremental?.reused ? ' written' : ''}, ${kb(stats.bytes)})`,
    ...incrementalLine(stats, total),
    `  ${'kind'.padEnd(10)}${langs.map((l) => l.padStart(6)).join('')}`,
  ];
  for (const kind of Object.keys(stats.pages).sort()) {
    lines.push(`  ${kind.padEnd(10)}${langs.map((l) => String(stats.pages[kind]![l] ?? '-').padStart(6)).join('')}`);
  }
  lines.push(`  client script: ${kb(stats.scriptGzipBytes)} gzipped`);
  const im = stats.images;
  lines.push(`  images: ${im.sources} sources, ${im.files} files (${im.cached} from cache, ${im.encoded} encoded)`);
  if (stats.host === 'static')
    lines.push(
      '  host: static (GitHub Pages, plain file hosts): no response headers are sent. Frame protection, HSTS and',
      '    nosniff are missing unless the host adds X-Frame-Options: DENY, Strict-Transport-Security and',
      '    X-Content-Type-Options: nosniff itself (docs/deploy.md); the page\'s <meta> CSP still applies.',
    );
  else if (stats.host) lines.push(`  host: ${stats.host}`);
  lines.push(`  stages: ${Object.entries(stats.stages).map(([k, v]) => `${k} ${Math.round(v)} ms`).join(' · ')}`);
  if (!stats.carried) {
    const posts = (n: number) => `${n} post${n === 1 ? '' : 's'}`;
    const helped = `${stats.markdownKept ? `; markdown of ${posts(stats.markdownKept)} kept from earlier builds` : ''}${stats.markdownHelped ? `; markdown of ${posts(stats.markdownHelped)} on a helper thread` : ''}${stats.writtenOnThread ? `; ${stats.writtenOnThread} pages written on a second thread` : ''}`;
    lines.push(`  rendered on ${stats.threads === 1 ? '1 thread' : `${stats.threads} threads (this one and ${stats.threads - 1} page worker${stats.threads > 2 ? 's' : ''})`}${helped}`);
  }
  const warnings = result.diagnostics.filter((d) => d.severity === 'warning');
  lines.push(warnings.length ? `${warnings.length} warning(s):` : 'No warnings.');
  for (const w of warnings) lines.push(`  ${formatDiagnostic(w, print)}`);
  for (const n of result.diagnostics.filter((d) => d.severity === 'note')) lines.push(`  ${formatDiagnostic(n, print)}`);
  return lines.join('\n');
}

/** What an incremental build rendered and why (the build record could vouch for the rest). */
function incrementalLine(stats: BuildResult['stats'], total: number): string[] {
  const inc = stats.incremental;
  if (!inc) return [];
  if (inc.rendered === total) return [`  rendered every page: ${inc.why}`];
  const spliced = inc.spliced ? `; ${inc.spliced} pages given the new ${inc.pieces?.join(', ') || 'shared parts'} without rendering them again` : '';
  return [`  rendered ${inc.rendered} of ${total} pages (${inc.why})${spliced}; ${inc.reused} unchanged pages taken from the last build`];
}

function printErrors(stage: string, diagnostics: Diagnostic[], verbose = false): void {
  console.error(formatFailure(stage, diagnostics, { color: useColor(process.stderr), verbose }));
}

async function runBuild(opts: CliOptions): Promise<number> {
  const started = performance.now();
  const config = resolveConfig(opts);
  // One build of a folder at a time: a second one waits for the first, then builds on what it published.
  const release = await lockBuild(lockFile(config.cacheDir, config.outDir), (pid) => {
    if (!opts.quiet) console.error(`site build: another build of ${config.outDir} is running (process ${pid}): waiting for it to finish…`);
  });
  // The resident process writes the record after the summary (build.ts deferRecord), holding the lock.
  const r = runtime.resident;
  // (Its last build of this folder could not write it: said now, as that build would have.)
  const unrecorded = r?.unrecorded?.get(config.outDir);
  if (unrecorded) {
    r!.unrecorded!.delete(config.outDir);
    if (!opts.quiet) console.error(`site build: warning [record] the last build of ${path.relative(process.cwd(), config.outDir) || '.'}/: ${unrecorded}`);
  }
  let recording: Promise<string | undefined> | undefined;
  try {
    return await buildLocked(opts, config, started, r && ((finish) => (recording = finish)));
  } finally {
    if (!recording) release();
    else
      r!.settling = recording
        .then(
          (unrecorded) => unrecorded && (r!.unrecorded ??= new Map()).set(config.outDir, unrecorded),
          (err: unknown) => (r!.unrecorded ??= new Map()).set(config.outDir, (err as Error)?.message ?? String(err)),
        )
        .then(() => undefined)
        .finally(release);
  }
}

async function buildLocked(opts: CliOptions, config: BuildConfig, started: number, deferRecord?: (finish: Promise<string | undefined>) => void): Promise<number> {
  // Refused output folders throw OutputRefused (exit 2) here, before anything is written.
  const last = await readRecord(config);
  restoreInterrupted(config.outDir);
  inspectOutput(config.outDir, last?.files);
  // The live build, if it is the one recorded: entries put into it by hand (they would go with it
  // when the next build replaces it), and its files' stamps (pages edited by hand).
  const webRoot = recordedWebRoot(config.outDir, last?.build);
  // On the resident process's file thread while this one stamps the inputs (output/io-thread.ts).
  const io = runtime.resident?.io?.alive ? runtime.resident.io : undefined;
  // First, the content files the last build recorded: this thread stats the folders meanwhile.
  const recorded = io && last?.content && Object.keys(last.content);
  const stated = recorded && { files: recorded, stats: io!.stat(config.contentDir, recorded) };
  // (A thread that failed meanwhile: surveyed here after all.)
  const surveying = webRoot === undefined ? undefined : io ? io.survey(webRoot, last!.files).catch(() => surveyLive(webRoot, last!.files)) : surveyLive(webRoot, last!.files);
  const stamping = performance.now();
  const stamps = await inputStamps(config, last, stated);
  const live = await surveying;
  const stray = live ? strayEntries(config.outDir, live) : [];
  if (stray.length) {
    throw new OutputRefused(
      `${config.outDir} holds ${stray.length} file(s) or folder(s) that no build wrote (${stray.slice(0, 3).join(', ')}${stray.length > 3 ? ', …' : ''}). A build replaces the whole folder, so they would be lost: nothing was changed. Move them out of it, then build again.`,
    );
  }
  removeLeftovers(config.outDir);
  // Nothing changed since the last build: said before the build's own modules are even loaded.
  const same = await unchangedResult(config, stamps, last, started, live);
  const keyMs = performance.now() - stamping;
  if (same) {
    if (!opts.quiet) console.log([formatSummary(same, config.outDir, { color: useColor(process.stdout), verbose: opts.verbose }), ...residentLine()].join('\n'));
    return 0;
  }
  const { build } = await import('./build.ts');
  const writer = new DiskWriter(config.outDir, { known: last?.files });
  writer.io = io;
  // Ctrl-C or a service manager's stop: drop the unfinished build, keep the published output, and
  // say which build is in place (stopped once this one was published, it is the new one).
  const stop = (signal: NodeJS.Signals) => {
    // This build's own writer: the resident process has published earlier builds.
    abortUnpublished();
    const published = writer.published;
    console.error(
      published
        ? `\nsite build: stopped by ${signal} after publishing: ${config.outDir} shows the new build, complete with its host files (the previous one was replaced).`
        : `\nsite build: stopped by ${signal}; the previous output is untouched.`,
    );
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    const result = await build(config, writer, { workerEntry: runtime.workerEntry, inputs: { stamps, last, ms: keyMs, outputs: last?.outputs ? live?.stamps : undefined }, deferRecord });
    if (!opts.quiet) console.log([formatSummary(result, config.outDir, { color: useColor(process.stdout), verbose: opts.verbose }), ...residentLine()].join('\n'));
    return 0;
  } catch (err) {
    // A build that fails once published stays published (abort keeps it): say so, not "untouched".
    await writer.abort();
    if (err instanceof BuildError) {
      printErrors(err.stage, err.diagnostics, opts.verbose);
      return 1;
    }
    if (writer.published) console.error(`site build: the new build was published to ${config.outDir} (complete, with its host files) before this failure:`);
    throw err;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

async function runCheck(opts: CliOptions & { missing?: string }): Promise<number> {
  const config = resolveConfig(opts);
  // A wrong --missing is a usage error before the check runs.
  if (opts.missing !== undefined) (await import('./commands/missing.ts')).checkLanguageArgument(config.contentDir, opts.missing);
  const { check } = await import('./commands/check.ts');
  try {
    const result = await check(config);
    const warnings = result.diagnostics.filter((d) => d.severity === 'warning');
    const pages = Object.values(result.stats.pages).reduce((n, byLang) => n + Object.values(byLang).reduce((a, b) => a + b, 0), 0);
    console.log(`Checked ${config.contentDir}: ${pages} pages in ${result.stats.languages.length} languages would be built; nothing was written.`);
    console.log(warnings.length ? `${warnings.length} warning(s)${config.strict ? '' : ' (--strict makes them errors)'}:` : 'No problems.');
    const print = { color: useColor(process.stdout), verbose: opts.verbose };
    for (const w of warnings) console.log(`  ${formatDiagnostic(w, print)}`);
    for (const n of result.diagnostics.filter((d) => d.severity === 'note')) console.log(`  ${formatDiagnostic(n, print)}`);
    if (opts.missing) await printMissing(config.contentDir, opts.missing);
    return 0;
  } catch (err) {
    if (err instanceof BuildError) {
      console.error(`Check failed (${err.stage}): ${err.diagnostics.length} problem(s).\n`);
      for (const d of err.diagnostics.slice(0, 50)) console.error(`${formatDiagnostic(d, { color: useColor(process.stderr), verbose: opts.verbose })}\n`);
      if (err.diagnostics.length > 50) console.error(`… and ${err.diagnostics.length - 50} more.`);
      return 1;
    }
    throw err;
  }
}

/**
 * `site check --missing <lang>`: every text of the default language that <lang> lacks, and every
 * text <lang> still has marked untranslated, one per line with the default language's text (or,
 * for a text only some languages have, its own), so a translator can work down the list (the
 * build's warnings show the first ten).
 */
async function printMissing(contentDir: string, lang: string): Promise<void> {
  const { missing, untranslated, defaultLanguage, reference, own } = (await import('./commands/missing.ts')).missingKeys(contentDir, lang);
  console.log(`\n${lang}: ${missing.length} text(s) missing, ${untranslated.length} marked untranslated (compared with ${defaultLanguage}):`);
  for (const k of missing) console.log(`  missing       ${k}: ${JSON.stringify(reference[k])}`);
  for (const k of untranslated) console.log(`  untranslated  ${k}: ${Object.hasOwn(reference, k) ? JSON.stringify(reference[k]) : `${JSON.stringify(own[k])} (shown meanwhile; ${defaultLanguage} has no such text)`}`);
}

/** The project's version (package.json), for `site --version`. */
function version(): string {
  return (JSON.parse(readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** Print what a scaffolding command changed and what to do next. */
function report(changed: string[], next: string[]): number {
  for (const f of changed) console.log(`  wrote ${f}`);
  for (const line of next) console.log(wrap(line));
  return 0;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535, got "${value}"`);
  return port;
}

/** Resolve when the process is asked to stop (Ctrl-C or a service manager). */
function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

/** How long `watch` waits for a clean stop after Ctrl-C before exiting anyway. */
const STOP_GRACE_MS = 700;

async function runWatch(opts: CliOptions & { port: string; host: string }): Promise<number> {
  // Listening from the start: Ctrl-C during the first build (or a render stuck in it) stops too.
  const stopped = untilStopped();
  const { devOutDir, removeDevOutDir } = await import('./watch/devdir.ts');
  // `--host` here is the address to serve on, not a deploy host (build's `--host netlify`).
  const base = resolveConfig({ ...opts, host: undefined });
  // Never the production output folder: drafts and half-edited pages must not reach a deploy.
  const config = Object.freeze({ ...base, outDir: devOutDir(base) });
  const { startWatch } = await import('./watch/watcher.ts');
  const starting = startWatch(config, { workerEntry: runtime.workerEntry ?? new URL(import.meta.url), port: parsePort(opts.port), host: opts.host, log: (line) => console.log(line) });
  const handle = await Promise.race([starting, stopped.then(() => undefined)]);
  if (handle) {
    console.log(`Watching content/, templates/ and client/. Serving ${handle.url} (Ctrl-C to stop)`);
    console.log(`Pages are built into ${path.relative(process.cwd(), config.outDir)}/ (never into ${path.relative(process.cwd(), base.outDir) || '.'}/: use \`npx site build\` for that)`);
    await stopped;
  }
  // A clean stop when it is quick; an exit within a second regardless (a stuck render, a slow socket).
  setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
  await (handle ?? (await starting.catch(() => undefined)))?.close();
  // The dev folder is this session's alone (emptied at start): it goes with it.
  removeDevOutDir(config.outDir);
  console.log('Stopped.');
  return 0;
}

async function runServe(opts: { out: string; port: string; host: string }): Promise<number> {
  const { existsSync } = await import('node:fs');
  const port = parsePort(opts.port);
  const root = path.resolve(opts.out);
  if (!existsSync(path.join(root, 'index.html'))) {
    console.error(`site serve: ${root} has no index.html; run \`npx site build\` first`);
    return 1;
  }
  const { servedBasePath, startDevServer } = await import('./server/dev.ts');
  const server = await startDevServer({ root, port, host: opts.host });
  // A site built under a base path is served under it (its pages are not at the root).
  const base = await servedBasePath(root).catch(() => '');
  console.log(`Serving ${path.relative(process.cwd(), root) || '.'}/ at ${server.url}${base ? `${base}/` : ''} (Ctrl-C to stop)`);
  await untilStopped();
  await server.close();
  return 0;
}

/** Help for `--host` of the local servers. */
const HOST_HELP = 'address to listen on and answer to; a LAN address (such as 192.168.1.20) lets a phone on the same network open the site';

/** The options naming what a build reads: content, templates and client folders. */
function sources(command: Command): Command {
  return command
    .option('-c, --content <dir>', 'content folder to read', 'content')
    .option('--templates <dir>', "templates folder (default: templates/ beside the content folder if it has one, else the project's)")
    .option('--client <dir>', "client script folder (default: client/ beside the content folder if it has one, else the project's)");
}

/** The value of an option in raw arguments (`-c dir`, `--content dir`, `--content=dir`), before commander parses them. */
function optionValue(argv: readonly string[], names: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (names.includes(a)) return argv[i + 1];
    const eq = names.find((n) => a.startsWith(`${n}=`));
    if (eq) return a.slice(eq.length + 1);
  }
  return undefined;
}

/** Entry point; returns the process exit code. */
export async function main(argv: string[], started: typeof runtime = {}): Promise<number> {
  runtime = started;
  const program = new Command()
    .name('site')
    .description(
      'Static site generator: reads YAML and markdown from content/, renders the React templates in templates/ (with the site model in templates/model/) and writes a complete static site to dist/.',
    )
    .version(version(), '-V, --version', 'print the version and exit')
    .helpOption('-h, --help', 'show help for a command')
    .addHelpCommand('help [command]', 'show help for a command')
    // Fixed at 80 columns, so help reads the same in a terminal, a pipe and the docs (docs/cli.md).
    .configureHelp({ helpWidth: 80 })
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  let code = 0;
  sources(program.command('build'))
    .description('Build every page in every language into the output folder (replaced only if the build succeeds).')
    .option('-o, --out <dir>', 'output folder to write (swapped in atomically)', 'dist')
    .option('--base-url <url>', 'absolute site URL for canonicals and the sitemap (default: baseUrl in content/site.yaml)')
    .option('--host <name>', 'host target whose files to write: static, cloudflare, netlify, vercel, nginx or s3 (default: deploy.host in content/site.yaml, else static)')
    .option('--strict', 'treat warnings (missing translations, stale or sample content) as errors', false)
    .option('--drafts', 'include drafts: draft posts and posts dated in the future, draft languages and data entries marked draft: true', false)
    .option('-q, --quiet', 'print nothing on success', false)
    .option('-v, --verbose', 'print the whole list behind each warning (every sample value, every missing key)', false)
    .addHelpText('after', wrap('\nExamples:\n  npx site build\n  npx site build --strict --base-url https://example.com\n  npx site build --host netlify\n  npx site build --content ../other-site/content --out /tmp/preview\n\nThe build date comes from SOURCE_DATE_EPOCH when set (reproducible builds), else the clock.'))
    .action(async (opts: CliOptions) => {
      code = await runBuild(opts);
    });
  sources(program.command('watch'))
    .description('Build, serve on localhost with live reload, and rebuild what each edit affects. Ctrl-C stops it.')
    .option('-p, --port <port>', 'port (the next free one if taken)', '8080')
    .option('--host <address>', HOST_HELP, '127.0.0.1')
    .option('--base-url <url>', 'absolute site URL (default: baseUrl in content/site.yaml)')
    .option('--no-drafts', 'leave drafts out as a published build does (by default watch shows draft and future posts, draft languages and data entries marked draft: true)')
    .action(async (opts: CliOptions & { port: string; host: string }) => {
      code = await runWatch(opts);
    });
  program
    .command('serve')
    .description('Serve a built output folder on localhost with the production host rules (redirects, 404s, headers).')
    .option('-o, --out <dir>', 'output folder to serve', 'dist')
    .option('-p, --port <port>', 'port (the next free one if taken)', '8080')
    .option('--host <address>', HOST_HELP, '127.0.0.1')
    .action(async (opts: { out: string; port: string; host: string }) => {
      code = await runServe(opts);
    });
  sources(program.command('check'))
    .description('Run every check of build (content, references, templates, images, pages) and write nothing. Exit code 0: the build would succeed; 1: it would fail.')
    .option('--base-url <url>', 'absolute site URL (default: baseUrl in content/site.yaml)')
    .option('--strict', 'treat warnings as errors, as build --strict does', false)
    .option('--drafts', 'include drafts: draft and future posts, draft languages and data entries marked draft: true', false)
    .option('-v, --verbose', 'print the whole list behind each warning (every sample value, every missing key)', false)
    .option('--missing <lang>', 'also list every text <lang> lacks or has marked untranslated, with the default language\'s text')
    .action(async (opts: CliOptions & { missing?: string }) => {
      code = await runCheck(opts);
    });
  const scaffold = program
    .command('new')
    .description('Start a post, a language or an entry of the site\'s own data (its model\'s kinds) in the content folder from what is already there; never overwrites a file.');
  const contentOption = (c: Command) => c.option('-c, --content <dir>', 'content folder to add to', 'content');
  contentOption(scaffold.command('post <slug>'))
    .description('Write blog/<slug>/<lang>.md as a draft: front matter with the schema\'s fields, today\'s date, the first category.')
    .option('--langs <codes>', 'comma-separated languages to write (default: the default language)')
    .option('--category <id>', 'category from data/blog.yaml (default: the first)')
    .option('--title <text>', 'title (default: from the slug)')
    .action(async (slug: string, opts: { content: string; langs?: string; category?: string; title?: string }) => {
      const { newPost } = await import('./commands/new-post.ts');
      const { buildDate } = await import('./config.ts');
      const langs = opts.langs?.split(',').map((l) => l.trim()).filter(Boolean);
      const files = newPost(contentFolder(opts.content), slug, { langs, category: opts.category, title: opts.title, today: buildDate() });
      code = report(files, [`The post is a draft: write it, then set draft: false to publish it. Preview with: npx site build --drafts`]);
    });
  contentOption(scaffold.command('language <code>'))
    .description('Write i18n/<code>.yaml with every text of the default language marked untranslated, and add the code to site.yaml draftLanguages (published once moved to languages).')
    .action(async (langCode: string, opts: { content: string }) => {
      const { newLanguage } = await import('./commands/new-language.ts');
      const { files, untranslated } = newLanguage(contentFolder(opts.content), langCode);
      code = report(files, [`${untranslated} texts are marked [untranslated]: pages show the text after the mark until you translate it. The language is a draft (site.yaml draftLanguages): npx site watch shows it, a published build leaves it out until you take it off that list. npx site check --drafts --missing ${langCode} lists what is left.`]);
    });
  // The site's own kinds (`site new <kind>`): declared by its model, loaded only for `site new`.
  if (argv[2] === 'new' || (argv[2] === 'help' && argv[3] === 'new')) {
    const contentDir = path.resolve(optionValue(argv, ['-c', '--content']) ?? 'content');
    const model = await (await import('./render/templates.ts')).loadSiteModel(siteFolder(contentDir, 'templates', 'index.tsx'));
    for (const [kind, s] of Object.entries(model.scaffolds ?? {})) {
      const command = contentOption(scaffold.command(`${kind} <id>`)).description(s.description);
      for (const o of s.options ?? []) o.required ? command.requiredOption(o.flags, o.description, o.default) : command.option(o.flags, o.description, o.default);
      command.action((id: string, opts: Record<string, string | undefined> & { content: string }) => {
        const { files, next } = s.run(contentFolder(opts.content), id, opts);
        code = report(files, [next]);
      });
    }
  }
  program
    .command('init <dir>')
    .description('Write a new, minimal site into <dir> (new or empty): content/ (one language, one page, a journal with one post), its own small templates/ and model. It builds with this CLI as it is.')
    .action(async (dir: string) => {
      const { initSite } = await import('./commands/init.ts');
      const files = initSite(dir);
      const content = path.join(path.relative(process.cwd(), path.resolve(dir)) || '.', 'content');
      code = report(files.map((f) => path.join(dir, f)), [`Next: npx site watch --content ${content}   (its templates/ beside content/ are used; npx site check --content ${content} checks it)`]);
    });
  program
    .command('schemas')
    .description('Regenerate the JSON Schemas in schemas/ from the content schema, point every content YAML file at its schema (first line) and map them in .vscode/settings.json (both beside the content folder).')
    .option('-c, --content <dir>', 'content folder whose files get the schema line', 'content')
    .action(async (opts: { content: string }) => {
      const { writeSchemas } = await import('./commands/schemas.ts');
      const contentDir = contentFolder(opts.content);
      // schemas/ and .vscode/ go beside the content folder, as this project keeps them beside
      // content/: another site's (or a copy's) never overwrite this project's own.
      const root = path.dirname(contentDir);
      const model = await (await import('./render/templates.ts')).loadSiteModel(siteFolder(contentDir, 'templates', 'index.tsx'));
      const { written, linked } = writeSchemas({ projectRoot: root, schemasDir: path.join(root, 'schemas'), contentDir, model });
      const shown = path.relative(process.cwd(), root);
      code = report(written.map((f) => path.join(shown, f.startsWith('.vscode') ? f : `schemas/${f}`)), [linked.length ? `Schema line added or updated in ${linked.length} content file(s).` : 'Every content file already names its schema.']);
    });
  try {
    await program.parseAsync(argv);
  } catch (err) {
    // Help and --version exit 0; every other commander error is a usage error.
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : USAGE_EXIT;
    // By name: importing the class would load the YAML editor (0.26 MB) on every start.
    if ((err as Error)?.name === 'ContentFileError') {
      console.error(`site: ${(err as Error).message}`);
      return 1;
    }
    console.error(`site: ${(err as Error).message}`);
    // A usage error or a refused output folder: nothing was touched (2). Anything else failed (1).
    // By name too: a site model's scaffold throws the api module's own copy of the class.
    return err instanceof UsageError || (err as Error)?.name === 'UsageError' || err instanceof OutputRefused ? USAGE_EXIT : 1;
  }
  return code;
}

// Loaded as the render worker of `site watch` or a page worker of a large build (bin/site.js, the
// workers' entry, runs the CLI bundle in them too).
if (!isMainThread && (workerData as { role?: string } | null)?.role === WORKER_ROLE) {
  void import('./watch/worker.ts').then((m) => m.runRenderWorker((workerData as { config: BuildConfig }).config));
} else if (!isMainThread) {
  void import('./render/parallel.ts').then((m) => m.runWorkerRole());
}
