/** The `site` command: parses options, runs a command, prints the outcome, returns the exit code. */
import { Command, CommanderError } from 'commander';
import path from 'node:path';
import { build, type BuildResult } from './build.ts';
import { resolveConfig, type CliOptions } from './config.ts';
import { BuildError, formatDiagnostic, type Diagnostic } from './diagnostics.ts';
import { isMainThread, workerData } from 'node:worker_threads';
import { runRenderWorker, WORKER_ROLE } from './watch/worker.ts';
import { runWorkerRole } from './render/parallel.ts';
import type { BuildConfig } from './config.ts';

const kb = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${(n / 1024).toFixed(1)} KB`);

/** The end-of-build summary: pages by kind and language, bytes, time, warnings. */
export function formatSummary(result: BuildResult, outDir: string): string {
  const { stats } = result;
  const langs = stats.languages;
  const total = Object.values(stats.pages).reduce((n, byLang) => n + Object.values(byLang).reduce((a, b) => a + b, 0), 0);
  const where = `${path.relative(process.cwd(), outDir) || '.'}/`;
  const lines = [
    stats.carried
      ? `Nothing changed since the last build: ${stats.carried} files of ${total} pages carried over to ${where} unrendered in ${Math.round(stats.ms)} ms`
      : `Built ${total} pages in ${Math.round(stats.ms)} ms → ${where} (${stats.files} files, ${kb(stats.bytes)})`,
    `  ${'kind'.padEnd(10)}${langs.map((l) => l.padStart(6)).join('')}`,
  ];
  for (const kind of Object.keys(stats.pages).sort()) {
    lines.push(`  ${kind.padEnd(10)}${langs.map((l) => String(stats.pages[kind]![l] ?? '-').padStart(6)).join('')}`);
  }
  lines.push(`  client script: ${kb(stats.scriptGzipBytes)} gzipped`);
  const im = stats.images;
  lines.push(`  images: ${im.sources} sources, ${im.files} files (${im.cached} from cache, ${im.encoded} encoded)`);
  lines.push(`  stages: ${Object.entries(stats.stages).map(([k, v]) => `${k} ${Math.round(v)} ms`).join(' · ')}`);
  if (!stats.carried) {
    const helped = stats.markdownHelped ? `; markdown of ${stats.markdownHelped} posts on a helper thread` : '';
    lines.push(`  rendered on ${stats.threads === 1 ? '1 thread' : `${stats.threads} threads (this one and ${stats.threads - 1} page worker${stats.threads > 2 ? 's' : ''})`}${helped}`);
  }
  const warnings = result.diagnostics.filter((d) => d.severity === 'warning');
  lines.push(warnings.length ? `${warnings.length} warning(s):` : 'No warnings.');
  for (const w of warnings) lines.push(`  ${formatDiagnostic(w)}`);
  return lines.join('\n');
}

function printErrors(stage: string, diagnostics: Diagnostic[]): void {
  const errors = diagnostics;
  console.error(`Build failed (${stage}): ${errors.length} problem(s). The previous output was left untouched.\n`);
  for (const d of errors.slice(0, 50)) console.error(`${formatDiagnostic(d)}\n`);
  if (errors.length > 50) console.error(`… and ${errors.length - 50} more.`);
}

async function runBuild(opts: CliOptions): Promise<number> {
  const config = resolveConfig(opts);
  try {
    // From the CLI bundle (bin/site.js), large builds render on every core with it as the worker entry.
    const workerEntry = import.meta.url.endsWith('.mjs') ? new URL(import.meta.url) : undefined;
    const result = await build(config, undefined, { workerEntry });
    if (!opts.quiet) console.log(formatSummary(result, config.outDir));
    return 0;
  } catch (err) {
    if (err instanceof BuildError) {
      printErrors(err.stage, err.diagnostics);
      return 1;
    }
    throw err;
  }
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a number from 0 to 65535, got "${value}"`);
  return port;
}

/** Resolve when the process is asked to stop (Ctrl-C or a service manager). */
function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

async function runWatch(opts: CliOptions & { port: string }): Promise<number> {
  const config = resolveConfig(opts);
  const { startWatch } = await import('./watch/watcher.ts');
  const handle = await startWatch(config, { workerEntry: new URL(import.meta.url), port: parsePort(opts.port), log: (line) => console.log(line) });
  console.log(`Watching content/, templates/ and client/. Serving ${handle.url} (Ctrl-C to stop)`);
  await untilStopped();
  await handle.close();
  console.log('Stopped.');
  return 0;
}

async function runServe(opts: { out: string; port: string }): Promise<number> {
  const { existsSync } = await import('node:fs');
  const root = path.resolve(opts.out);
  if (!existsSync(path.join(root, 'index.html'))) {
    console.error(`site serve: ${root} has no index.html; run \`site build\` first`);
    return 1;
  }
  const { startDevServer } = await import('./server/dev.ts');
  const server = await startDevServer({ root, port: parsePort(opts.port) });
  console.log(`Serving ${path.relative(process.cwd(), root) || '.'}/ at ${server.url} (Ctrl-C to stop)`);
  await untilStopped();
  await server.close();
  return 0;
}

/** The options naming what a build reads: content, templates and client folders. */
function sources(command: Command): Command {
  return command
    .option('-c, --content <dir>', 'content folder to read', 'content')
    .option('--templates <dir>', "templates folder (default: the project's templates/)")
    .option('--client <dir>', "client script folder (default: the project's client/)");
}

/** Entry point; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = new Command()
    .name('site')
    .description(
      'Static site generator for the companion site: reads YAML and markdown from content/,\nrenders the React templates in templates/ and writes a complete static site to dist/.',
    )
    .showHelpAfterError()
    .exitOverride();
  let code = 0;
  sources(program.command('build'))
    .description('Build every page in every language into the output folder (replaced only if the build succeeds).')
    .option('-o, --out <dir>', 'output folder to write (swapped in atomically)', 'dist')
    .option('--base-url <url>', 'absolute site URL for canonicals and the sitemap (default: baseUrl in content/site.yaml)')
    .option('--strict', 'treat warnings (missing translations, stale or sample content) as errors', false)
    .option('--drafts', 'include draft posts and posts dated in the future', false)
    .option('-q, --quiet', 'print nothing on success', false)
    .addHelpText('after', '\nExamples:\n  npx site build\n  npx site build --strict --base-url https://example.com\n  npx site build --content ../other-site/content --out /tmp/preview\n\nThe build date comes from SOURCE_DATE_EPOCH when set (reproducible builds), else the clock.')
    .action(async (opts: CliOptions) => {
      code = await runBuild(opts);
    });
  sources(program.command('watch'))
    .description('Build, serve on localhost with live reload, and rebuild what each edit affects. Ctrl-C stops it.')
    .option('-o, --out <dir>', 'output folder to write and serve', 'dist')
    .option('-p, --port <port>', 'port (the next free one if taken)', '8080')
    .option('--base-url <url>', 'absolute site URL (default: baseUrl in content/site.yaml)')
    .option('--drafts', 'include draft and future posts', false)
    .action(async (opts: CliOptions & { port: string }) => {
      code = await runWatch(opts);
    });
  program
    .command('serve')
    .description('Serve a built output folder on localhost with the production host rules (redirects, 404s, headers).')
    .option('-o, --out <dir>', 'output folder to serve', 'dist')
    .option('-p, --port <port>', 'port (the next free one if taken)', '8080')
    .action(async (opts: { out: string; port: string }) => {
      code = await runServe(opts);
    });
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    console.error(`site: ${(err as Error).message}`);
    return 2;
  }
  return code;
}

// Loaded as the render worker of `site watch` or a page worker of a large build (the CLI bundle
// is the worker's entry module).
if (!isMainThread && (workerData as { role?: string } | null)?.role === WORKER_ROLE) {
  runRenderWorker((workerData as { config: BuildConfig }).config);
} else if (!isMainThread) {
  runWorkerRole();
}
