/**
 * Publishing the output folder safely. The output path (`dist`) is a symlink to one complete
 * build in a sibling folder (`.dist.builds/<id>/`), and a new build is published by renaming a
 * fresh symlink over it: one rename(2), so at every instant the path shows a complete old or a
 * complete new build. The builds folder holds a marker file naming this tool: it is how a later
 * build knows the output is its own to replace, and it sits outside the web root (never served).
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, realpathSync, renameSync, rmdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The output folder may not be replaced: the CLI reports it and exits with code 2. */
export class OutputRefused extends Error {}

/** Name of the marker file in the builds folder. */
export const MARKER = 'site-output.json';
const MARKER_TEXT = `${JSON.stringify({ tool: 'companion-site generator', note: 'Builds of the output folder; the output path links to one of them. Safe to delete with it.' }, null, 2)}\n`;

/** `<parent>/.<name>.builds`: the versioned build folders of an output path. */
export function buildsDir(outDir: string): string {
  const clean = outDir.replace(/[\\/]+$/, '');
  return path.join(path.dirname(clean), `.${path.basename(clean)}.builds`);
}

/** True when `child` is `parent` or lies inside it (by path, not by string prefix). */
export function within(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/** The path with its existing part's symlinks resolved (what the folder really is on disk). */
function real(p: string): string {
  const missing: string[] = [];
  let cur = path.resolve(p);
  for (;;) {
    try {
      return path.join(realpathSync(cur), ...missing.reverse());
    } catch {
      const up = path.dirname(cur);
      if (up === cur) return path.resolve(p);
      missing.push(path.basename(cur));
      cur = up;
    }
  }
}

/** The folders an output path must never be, contain or (for sources) lie inside. */
export interface Precious {
  projectRoot: string;
  contentDir: string;
  templatesDir: string;
  clientDir: string;
  cwd: string;
}

/**
 * Refuse an output path that is, or contains, `/`, the home folder, the project root, the
 * working folder or a source folder, or that lies inside a source folder (content, templates,
 * client). Both the path as written and the path with symlinks resolved are checked.
 */
export function checkOutputPath(outDir: string, precious: Precious): void {
  const out = path.resolve(outDir);
  // The output path itself may be our symlink: judge the folder it sits in, plus its name.
  const outReal = path.join(real(path.dirname(out)), path.basename(out));
  const holds: [string, string][] = [
    ['the root folder', path.parse(out).root],
    ['your home folder', os.homedir()],
    ['the project root', precious.projectRoot],
    ['the working folder', precious.cwd],
    ['the content folder', precious.contentDir],
    ['the templates folder', precious.templatesDir],
    ['the client folder', precious.clientDir],
  ];
  for (const [what, dir] of holds) {
    for (const [a, b] of [
      [out, path.resolve(dir)],
      [outReal, real(dir)],
    ] as const) {
      if (within(b, a)) throw new OutputRefused(`--out ${out} is or contains ${what} (${dir}): the output folder is replaced by every build, so it must be a folder of its own, such as dist`);
    }
  }
  for (const [what, dir] of holds.slice(4)) {
    if (within(out, path.resolve(dir)) || within(outReal, real(dir)))
      throw new OutputRefused(`--out ${out} lies inside ${what} (${dir}): build output must never be written among the sources`);
  }
}

/** What is at the output path now, and whether this tool may replace it. */
export type OutputState =
  | { kind: 'missing' }
  | { kind: 'empty' }
  /** Our symlink, pointing at `target` (absolute) in the builds folder. */
  | { kind: 'ours'; target: string }
  /** A real folder written by an earlier version of this tool (before the symlink scheme). */
  | { kind: 'legacy' };

/** Files every complete output of this tool holds (recognises folders written before the marker). */
const SIGNATURE = ['index.html', '404.html', '_headers', '_redirects', 'sitemap.xml', 'robots.txt', 'manifest.webmanifest'];

/**
 * Decide whether the output path may be replaced: missing, an empty folder, our symlink (into a
 * builds folder holding the marker) or an output folder of the earlier tool. Anything else throws
 * OutputRefused before anything is touched.
 * @param knownFiles the files the last build record lists for this path (recognises legacy output)
 */
export function inspectOutput(outDir: string, knownFiles?: readonly string[]): OutputState {
  const out = path.resolve(outDir);
  let st;
  try {
    st = lstatSync(out);
  } catch {
    return { kind: 'missing' };
  }
  const builds = buildsDir(out);
  if (st.isSymbolicLink()) {
    const target = path.resolve(path.dirname(out), readlinkSync(out));
    if (path.dirname(target) === builds && existsSync(path.join(builds, MARKER))) return { kind: 'ours', target };
    throw new OutputRefused(`--out ${out} is a symlink to ${target}, which this tool did not make: it will not replace it. Remove the link or choose another output folder.`);
  }
  if (!st.isDirectory()) throw new OutputRefused(`--out ${out} is a file, not a folder: it will not be replaced. Choose another output folder, such as dist.`);
  const names = readdirSync(out);
  if (names.length === 0) return { kind: 'empty' };
  const signed = SIGNATURE.every((f) => existsSync(path.join(out, f)));
  const recorded = knownFiles !== undefined && knownFiles.length > 0 && knownFiles.every((f) => existsSync(path.join(out, f)));
  if (signed || recorded) return { kind: 'legacy' };
  throw new OutputRefused(
    `--out ${out} already holds ${names.length} file(s) or folder(s) that this tool did not write (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}). Nothing was changed. Empty it, remove it, or choose another output folder.`,
  );
}

/** Test-only hook: with SITE_TEST_PAUSE=<point>, stop at that named point (a kill test's chance). */
export function pausePoint(point: string): void {
  if (process.env.SITE_TEST_PAUSE !== point) return;
  process.stderr.write(`paused at ${point}\n`);
  // Synchronous on purpose: nothing else of this process may run while paused (a swap in progress).
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
}

/** Test-only hook like pausePoint, but the event loop keeps running (signal handlers answer). */
export async function pauseAsync(point: string): Promise<void> {
  if (process.env.SITE_TEST_PAUSE !== point) return;
  process.stderr.write(`paused at ${point}\n`);
  await new Promise((resolve) => setTimeout(resolve, 60_000));
}

/** A new, unique build folder's path inside the builds folder (created by the first write). */
export function newBuildDir(outDir: string): string {
  return path.join(buildsDir(outDir), `${Date.now().toString(36)}-${process.pid}`);
}

/** Write the marker that makes the builds folder (and so the output path) this tool's own. */
export function writeMarker(outDir: string): void {
  const builds = buildsDir(outDir);
  mkdirSync(builds, { recursive: true });
  if (!existsSync(path.join(builds, MARKER))) writeFileSync(path.join(builds, MARKER), MARKER_TEXT);
}

/**
 * Make `staging` (a folder from newBuildDir) the output: a relative symlink is made beside the
 * output path and renamed over it. A legacy real folder is first moved into the builds folder,
 * back to back with the rename (synchronous calls: no signal handler or other code runs between).
 * Returns the previous target, if any, for removal.
 */
export function swapIn(outDir: string, staging: string, state: OutputState): string | undefined {
  const out = path.resolve(outDir);
  const link = `${buildsDir(out)}/link-${process.pid}`;
  rmSync(link, { force: true });
  symlinkSync(path.relative(path.dirname(out), staging), link);
  pausePoint('swap-linked');
  let previous: string | undefined;
  if (state.kind === 'ours') previous = state.target;
  if (state.kind === 'empty') rmdirSync(out);
  if (state.kind === 'legacy') {
    previous = path.join(buildsDir(out), `legacy-${process.pid}`);
    renameSync(out, previous);
    pausePoint('swap-legacy-moved');
  }
  renameSync(link, out);
  pausePoint('swap-renamed');
  return previous;
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Put back an earlier tool's output folder when a build was killed between moving it aside and
 * publishing its link (the two renames of a migration): the output path is never left missing.
 */
export function restoreInterrupted(outDir: string): void {
  const out = path.resolve(outDir);
  if (existsSync(out) || lstatExists(out)) return;
  let names: string[];
  try {
    names = readdirSync(buildsDir(out));
  } catch {
    return;
  }
  const legacy = names.find((n) => /^legacy-\d+$/.test(n) && !alive(Number(n.slice(7))));
  if (legacy) renameSync(path.join(buildsDir(out), legacy), out);
}

function lstatExists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Remove what interrupted builds left: build folders other than the live one (and those of builds
 * still running), stray links, the `<out>.staging-*` / `<out>.old-*` folders of the earlier tool
 * and the temp folders of an interrupted host-folder swap. Never touches `<out>.host/` itself
 * (host-only files) or anything else beside the output.
 */
export function removeLeftovers(outDir: string): void {
  const out = path.resolve(outDir);
  const builds = buildsDir(out);
  let live: string | undefined;
  try {
    live = path.resolve(path.dirname(out), readlinkSync(out));
  } catch {
    live = undefined;
  }
  const pidOf = (name: string) => Number(/-(\d+)$/.exec(name)?.[1] ?? NaN);
  let names: string[] = [];
  try {
    names = readdirSync(builds);
  } catch {
    // No builds folder yet.
  }
  for (const name of names) {
    const p = path.join(builds, name);
    if (name === MARKER || p === live) continue;
    const pid = pidOf(name);
    if (Number.isFinite(pid) && pid !== process.pid && alive(pid)) continue;
    rmSync(p, { recursive: true, force: true });
  }
  const parent = path.dirname(out);
  const base = path.basename(out);
  let siblings: string[] = [];
  try {
    siblings = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of siblings) {
    // Also `<out>.host.tmp-*` / `<out>.host.old-*` of a host folder swap that was cut off.
    const m = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(?:staging|old|host\\.tmp|host\\.old)-(\\d+)-\\d+$`).exec(name);
    if (!m || alive(Number(m[1]))) continue;
    rmSync(path.join(parent, name), { recursive: true, force: true });
  }
}
