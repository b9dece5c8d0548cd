/**
 * Incremental builds across runs: a build whose inputs are all unchanged since the last good
 * build renders nothing and rewrites nothing. The new output is the last one's files hard-linked
 * into the staging folder (same bytes, no copy), then swapped in as usual.
 */
import { createHash } from 'node:crypto';
import { promises as fs, statSync } from 'node:fs';
import path from 'node:path';
import type { BuildConfig } from '../config.ts';
import type { Diagnostic } from '../diagnostics.ts';
import type { BuildStats } from '../stats.ts';
import { listFiles } from '../files.ts';
import { failPoint } from './publish.ts';

/** What the last good build of an output folder recorded. */
export interface BuildRecord {
  key: string;
  /**
   * The id of the build this record describes (its folder in `.dist.builds`). The record is written
   * after publishing: a build killed in between leaves another build live than the one recorded,
   * and the next build, seeing them differ, renders everything again.
   */
  build?: string;
  /** Every file it wrote, relative to the output folder, sorted. */
  files: string[];
  diagnostics: Diagnostic[];
  stats: BuildStats;
}

/**
 * The key of everything a build reads: content, templates, client, the generator's own sources,
 * the options and the build date. Each input file counts by its path, size and modification time
 * (as git's index and make do): stat-ing 4,000 posts costs ~10 ms where reading and hashing them
 * cost ~60 ms on every build. A file saved again unchanged only costs a full build.
 */
export async function inputKey(config: BuildConfig): Promise<string> {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ baseUrl: config.baseUrl, host: config.host, strict: config.strict, drafts: config.drafts, today: config.today }));
  for (const [label, dir] of [
    ['content', config.contentDir],
    ['templates', config.templatesDir],
    ['client', config.clientDir],
    ['src', path.join(config.projectRoot, 'src')],
  ] as const) {
    for (const f of await listFiles(dir)) {
      const st = statSync(path.join(dir, f), { bigint: true });
      hash.update(`${label}/${f}\0${st.size}\0${st.mtimeNs}\n`);
    }
  }
  return hash.digest('hex');
}

function recordFile(config: BuildConfig): string {
  const id = createHash('sha256').update(config.outDir).digest('hex').slice(0, 12);
  return path.join(config.cacheDir, `last-build-${id}.json`);
}

export async function readRecord(config: BuildConfig): Promise<BuildRecord | undefined> {
  try {
    return JSON.parse(await fs.readFile(recordFile(config), 'utf8')) as BuildRecord;
  } catch {
    return undefined;
  }
}

/**
 * Record a published build (what lets the next one carry it over). Written after publishing, so it
 * never throws: a cache that cannot be written only costs the next build a full render, and the
 * message saying so is returned (a warning) instead.
 */
export async function writeRecord(config: BuildConfig, record: BuildRecord): Promise<string | undefined> {
  const file = recordFile(config);
  try {
    failPoint('record');
    await fs.mkdir(config.cacheDir, { recursive: true });
    await fs.writeFile(`${file}.${process.pid}.tmp`, JSON.stringify(record));
    await fs.rename(`${file}.${process.pid}.tmp`, file);
  } catch (err) {
    await fs.rm(file, { force: true }).catch(() => undefined);
    return `the build is published, but its record could not be written to ${file} (${(err as Error).message}): the next build renders everything instead of carrying it over`;
  }
  // Records of output folders not built for a week (temporary folders, tests) are dropped.
  const names = await fs.readdir(config.cacheDir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith('last-build-')) continue;
    const p = path.join(config.cacheDir, name);
    const st = await fs.stat(p).catch(() => undefined);
    if (st?.isFile() && Date.now() - st.mtimeMs > 7 * 86_400_000) await fs.rm(p, { force: true }).catch(() => undefined);
  }
  return undefined;
}

/** True when the output folder still holds exactly the files the record lists. */
export async function outputIntact(config: BuildConfig, record: BuildRecord): Promise<boolean> {
  const files = await listFiles(config.outDir);
  return files.length === record.files.length && files.every((f, i) => f === record.files[i]);
}

/** Hard-link every file of the current output into `staging` (copy where linking is refused). */
export async function carryOver(outDir: string, staging: string, files: readonly string[]): Promise<void> {
  const dirs = new Set<string>();
  for (const f of files) {
    const target = path.join(staging, f);
    const dir = path.dirname(target);
    if (!dirs.has(dir)) {
      await fs.mkdir(dir, { recursive: true });
      dirs.add(dir);
    }
    await fs.link(path.join(outDir, f), target).catch(() => fs.copyFile(path.join(outDir, f), target));
  }
}
