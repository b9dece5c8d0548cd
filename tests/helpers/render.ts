/**
 * Fixture builds in memory: the generator's own build() with a MemoryWriter, in this process, in
 * a few hundred milliseconds instead of a CLI process writing a site to disk (architecture rule 9).
 * Only tests of the CLI itself (exit codes, output folders, printed summaries) spawn the CLI.
 */
import path from 'node:path';
import { build, type BuildResult } from '../../src/build.ts';
import { buildDate, resolveConfig, type CliOptions } from '../../src/config.ts';
import { BuildError, formatDiagnostic } from '../../src/diagnostics.ts';
import { MemoryWriter } from '../../src/output/writer.ts';
import { countBuild } from './build-log.ts';
import { EPOCH, tmpDir, type MemoryOutput } from './site.ts';

export interface Rendered {
  out: MemoryOutput;
  result: BuildResult;
  /** The build's warnings, one per line, as the CLI's summary prints them (formatDiagnostic). */
  warnings: string;
}

/**
 * Build `contentDir` in memory with the CLI's options (`host`, `baseUrl`, `drafts`, `strict`); throws
 * with every diagnostic when it fails. The build date is EPOCH's unless `epoch` (SOURCE_DATE_EPOCH) says otherwise.
 */
export async function renderSite(contentDir: string, { epoch = EPOCH, ...opts }: Omit<CliOptions, 'content' | 'out'> & { epoch?: string } = {}): Promise<Rendered> {
  const started = performance.now();
  // An output path is required by the config (and checked like the CLI's); nothing is written there
  // unless the test materializes the build (host files such as nginx.conf name this folder).
  const config = { ...resolveConfig({ ...opts, content: contentDir, out: path.join(tmpDir('site-memory-'), 'dist'), quiet: true }), today: buildDate({ SOURCE_DATE_EPOCH: epoch }) };
  const writer = new MemoryWriter();
  try {
    const result = await build(config, writer);
    const warnings = result.diagnostics.filter((d) => d.severity !== 'error').map((d) => formatDiagnostic(d)).join('\n');
    return { out: { memory: writer.output, beside: writer.beside, dir: config.outDir }, result, warnings };
  } catch (err) {
    if (err instanceof BuildError) throw new Error(`build failed (${err.stage}):\n${err.diagnostics.map((d) => formatDiagnostic(d)).join("\n")}`, { cause: err });
    throw err;
  } finally {
    countBuild('memory', contentDir, performance.now() - started);
  }
}

/** The diagnostics of a build that must fail (its BuildError); throws when it succeeds. */
export async function renderErrors(contentDir: string, opts: Omit<CliOptions, 'content' | 'out'> = {}): Promise<BuildError> {
  try {
    await renderSite(contentDir, opts);
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof BuildError) return cause;
    throw err;
  }
  throw new Error(`the build of ${contentDir} succeeded; the test expected it to fail`);
}
