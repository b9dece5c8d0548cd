/** The `site` command: parses options, runs a command, prints the outcome, returns the exit code. */
import { Command, CommanderError } from 'commander';
import path from 'node:path';
import { build, type BuildResult } from './build.ts';
import { resolveConfig, type CliOptions } from './config.ts';
import { BuildError, formatDiagnostic, type Diagnostic } from './diagnostics.ts';

const kb = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${(n / 1024).toFixed(1)} KB`);

/** The end-of-build summary: pages by kind and language, bytes, time, warnings. */
export function formatSummary(result: BuildResult, outDir: string): string {
  const { stats, site } = result;
  const langs = site.languages;
  const total = Object.values(stats.pages).reduce((n, byLang) => n + Object.values(byLang).reduce((a, b) => a + b, 0), 0);
  const lines = [
    `Built ${total} pages in ${Math.round(stats.ms)} ms → ${path.relative(process.cwd(), outDir) || '.'}/ (${stats.files} files, ${kb(stats.bytes)})`,
    `  ${'kind'.padEnd(10)}${langs.map((l) => l.padStart(6)).join('')}`,
  ];
  for (const kind of Object.keys(stats.pages).sort()) {
    lines.push(`  ${kind.padEnd(10)}${langs.map((l) => String(stats.pages[kind]![l] ?? '-').padStart(6)).join('')}`);
  }
  lines.push(`  client script: ${kb(stats.scriptGzipBytes)} gzipped`);
  lines.push(`  stages: ${Object.entries(stats.stages).map(([k, v]) => `${k} ${Math.round(v)} ms`).join(' · ')}`);
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
    const result = await build(config);
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
  program
    .command('build')
    .description('Build every page in every language into the output folder (replaced only if the build succeeds).')
    .option('-c, --content <dir>', 'content folder to read', 'content')
    .option('-o, --out <dir>', 'output folder to write (swapped in atomically)', 'dist')
    .option('--base-url <url>', 'absolute site URL for canonicals and the sitemap (default: baseUrl in content/site.yaml)')
    .option('--strict', 'treat warnings (missing translations, stale or sample content) as errors', false)
    .option('--drafts', 'include draft posts and posts dated in the future', false)
    .option('-q, --quiet', 'print nothing on success', false)
    .addHelpText('after', '\nExamples:\n  npx site build\n  npx site build --strict --base-url https://example.com\n  npx site build --content tests/fixtures/minimal --out /tmp/out\n\nThe build date comes from SOURCE_DATE_EPOCH when set (reproducible builds), else the clock.')
    .action(async (opts: CliOptions) => {
      code = await runBuild(opts);
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
