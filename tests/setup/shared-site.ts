/**
 * Global setup of the integration, hosts and e2e tiers: the shipped content (or SITE_CONTENT) is
 * built once per run with the real CLI, and every read-only test reads that one output
 * (`inject('shippedOut')`, tests/helpers/shared.ts). The build is kept under
 * node_modules/.cache/site/test-site/<key>, the key hashing everything that makes the output (the
 * content, src, templates, client, the CLI entry, the lock file, the build date and options), so a
 * second run of an unchanged tree builds nothing, an edited copy (`SITE_CONTENT=<copy> npm test`)
 * costs one build, and any source change rebuilds. It also fills the image cache before the test
 * files start, so no fixture build in the run encodes an image cold.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { EPOCH, FIXTURE_CONTENT, ROOT, runCli, SHIPPED_CONTENT } from '../helpers/site.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shipped content (SITE_CONTENT or content/) built with `--host netlify`: read it, never write into it. */
    shippedOut: string;
    /** The repository's sample content (the fixture) built alike: the same folder unless SITE_CONTENT names another. */
    fixtureOut: string;
  }
}

/** The options every shared build is made with: netlify's `_headers` and `_redirects` are what the header and redirect tests read. */
const ARGS = ['--host', 'netlify', '--quiet'];
/** Older shared builds are removed once this many newer ones exist (each is about 2 MB). */
const KEEP = 4;

/** Hash of every file under the given paths (relative names and bytes), in a stable order. */
function treeHash(paths: string[]): string {
  const h = createHash('sha256');
  const walk = (abs: string, rel: string) => {
    const st = statSync(abs);
    if (st.isDirectory()) for (const name of readdirSync(abs).sort()) walk(path.join(abs, name), `${rel}/${name}`);
    else h.update(`${rel}\0${st.size}\0`).update(readFileSync(abs));
  };
  for (const p of paths) walk(p, path.relative(ROOT, p) || p);
  return h.digest('hex').slice(0, 20);
}

const cacheRoot = path.join(ROOT, 'node_modules', '.cache', 'site', 'test-site');

/** The cache key of a shared build of `content`: everything that makes its output. */
export function sharedBuildKey(content: string): string {
  const code = ['src', 'templates', 'client', 'bin', 'package-lock.json'].map((p) => path.join(ROOT, p));
  return createHash('sha256').update(treeHash([content, ...code])).update(EPOCH).update(ARGS.join(' ')).digest('hex').slice(0, 20);
}

/** Build `content` once for this tree, or reuse the folder an earlier run built from the same inputs. */
async function sharedBuild(content: string): Promise<string> {
  const key = sharedBuildKey(content);
  const dir = path.join(cacheRoot, key);
  const out = path.join(dir, 'dist');
  const done = path.join(dir, 'complete');
  if (existsSync(done)) return out;
  rmSync(dir, { recursive: true, force: true });
  const result = await runCli(['build', '--content', content, '--out', out, ...ARGS], {}, 'shared');
  if (result.code !== 0) throw new Error(`the shared build of ${content} failed (exit ${result.code}): every test that reads it would fail too.\n${result.stderr}\n${result.stdout}`);
  writeFileSync(done, new Date().toISOString());
  // Keep the newest few: a developer switching branches reuses them, the disk does not fill.
  const older = readdirSync(cacheRoot)
    .filter((k) => k !== key && existsSync(path.join(cacheRoot, k, 'complete')))
    .sort((a, b) => statSync(path.join(cacheRoot, b, 'complete')).mtimeMs - statSync(path.join(cacheRoot, a, 'complete')).mtimeMs);
  for (const k of older.slice(KEEP - 1)) rmSync(path.join(cacheRoot, k), { recursive: true, force: true });
  return out;
}

/** Several projects list this file: the builds run once per vitest process (globalThis outlives a module reload). */
const memo = globalThis as { __siteSharedBuilds?: Promise<{ shipped: string; fixture: string }> };

export default async function setup(project: TestProject): Promise<void> {
  memo.__siteSharedBuilds ??= (async () => {
    const shipped = await sharedBuild(SHIPPED_CONTENT);
    const fixture = path.resolve(FIXTURE_CONTENT) === path.resolve(SHIPPED_CONTENT) ? shipped : await sharedBuild(FIXTURE_CONTENT);
    return { shipped, fixture };
  })();
  const { shipped, fixture } = await memo.__siteSharedBuilds;
  project.provide('shippedOut', shipped);
  project.provide('fixtureOut', fixture);
}
