/**
 * Publishing the output folder safely. Each build is one folder in a sibling builds folder,
 * `.dist.builds/<id>/`, holding its web root (`web/`) and its host files (`host/`). One link in the
 * builds folder, `.dist.builds/live`, names the live build, and the two paths a host reads go
 * through it: `dist` → `.dist.builds/live/web` and `dist.host` → `.dist.builds/live/host` (made
 * once). A new build is published by renaming a fresh `live` link over the old one: one rename(2),
 * so at every instant the pages and the host rules in place are those of one complete build.
 * The builds folder holds a marker file naming this tool: it is how a later build knows the output
 * is its own to replace, and it sits outside the web root (never served).
 *
 * Test-only hooks (integration tests, never set in use): `SITE_TEST_PAUSE=<point>` stops the build
 * at a named point (a kill test's chance), `SITE_TEST_FAIL=<point>` throws there (a failure after
 * publishing, an unwritable build record).
 */
import { spawn } from 'node:child_process';
import { existsSync, promises as fs, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { HOST_FILES, hostFolder } from './host-folder.ts';
import type { LiveSurvey } from './survey.ts';
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

/** The link in the builds folder naming the live build (`.dist.builds/live` → `<id>`). */
export const LIVE = 'live';
/** A build folder's web root and host files: `dist` and `dist.host` once it is live. */
export const WEB = 'web';
export const HOST = 'host';

/** What `dist` (part `web`) or `dist.host` (part `host`) links to: always through the live link. */
function fixedTarget(outDir: string, part: typeof WEB | typeof HOST): string {
  const out = path.resolve(outDir);
  return path.join(buildsDir(out), LIVE, part);
}

/**
 * The id (folder name) of the build whose pages and host rules are both in place, or undefined when
 * there is none or they do not come from one build (an output of the earlier layout, a broken link).
 */
export function liveBuild(outDir: string): string | undefined {
  const out = path.resolve(outDir);
  try {
    const web = realpathSync.native(out);
    const host = realpathSync.native(hostFolder(out));
    const build = path.dirname(web);
    if (path.basename(web) !== WEB || host !== path.join(build, HOST) || path.dirname(build) !== realpathSync.native(buildsDir(out))) return undefined;
    return path.basename(build);
  } catch {
    return undefined;
  }
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

/** What is at `<out>.host` now, and whether this tool may replace it. */
export type HostState =
  | { kind: 'missing' }
  | { kind: 'empty' }
  /** Our link through the live build (`.dist.builds/live/host`). */
  | { kind: 'ours' }
  /** A real folder holding only host files this tool writes (an earlier version wrote it so). */
  | { kind: 'legacy' };

/** What is at the output path (and `<out>.host`) now, and whether this tool may replace them. */
export type OutputState = (
  | { kind: 'missing' }
  | { kind: 'empty' }
  /**
   * Our symlink: `linked` when it goes through the live link (the current layout), else straight to
   * the build folder `target` (the earlier layout). `target`: the live build's folder, if any.
   */
  | { kind: 'ours'; target?: string; linked: boolean }
  /** A real folder written by an earlier version of this tool (before the symlink scheme). */
  | { kind: 'legacy' }
) & { host: HostState };

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
  const host = inspectHostFolder(out);
  let st;
  try {
    st = lstatSync(out);
  } catch {
    return { kind: 'missing', host };
  }
  const builds = buildsDir(out);
  if (st.isSymbolicLink()) {
    const target = path.resolve(path.dirname(out), readlinkSync(out));
    // Our fixed link, left dangling when the builds folder was deleted by hand: it points at nothing
    // to keep, and the new build's live link brings it back to life.
    if (target === fixedTarget(out, WEB) && !existsSync(builds)) return { kind: 'ours', linked: true, host };
    if (existsSync(path.join(builds, MARKER))) {
      if (target === fixedTarget(out, WEB)) return { kind: 'ours', target: liveFolder(out), linked: true, host };
      if (path.dirname(target) === builds) return { kind: 'ours', target, linked: false, host };
    }
    throw new OutputRefused(`--out ${out} is a symlink to ${target}, which this tool did not make: it will not replace it. Remove the link or choose another output folder.`);
  }
  if (!st.isDirectory()) throw new OutputRefused(`--out ${out} is a file, not a folder: it will not be replaced. Choose another output folder, such as dist.`);
  const names = readdirSync(out);
  if (names.length === 0) return { kind: 'empty', host };
  const signed = SIGNATURE.every((f) => existsSync(path.join(out, f)));
  const recorded = knownFiles !== undefined && knownFiles.length > 0 && knownFiles.every((f) => existsSync(path.join(out, f)));
  if (signed || recorded) return { kind: 'legacy', host };
  throw new OutputRefused(
    `--out ${out} already holds ${names.length} file(s) or folder(s) that this tool did not write (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}). Nothing was changed. Empty it, remove it, or choose another output folder.`,
  );
}

/**
 * What the live build's folder holds that no build wrote: `web`, what its web root holds beyond the
 * files of its record and their folders (survey.ts), and anything in its host folder but the host
 * files. A new build replaces the folder whole, so these would be lost: the build is refused
 * instead (OutputRefused), naming them. Dotfiles, links and empty folders count.
 */
export function strayEntries(outDir: string, web: LiveSurvey): string[] {
  const live = liveFolder(path.resolve(outDir));
  if (!live) return [];
  const stray = [...web.stray];
  const host = path.join(live, HOST);
  for (const e of existsSync(host) ? readdirSync(host, { withFileTypes: true }) : []) {
    if (!(e.isFile() && (HOST_FILES as readonly string[]).includes(e.name))) stray.push(`${path.basename(hostFolder(outDir))}/${e.name}`);
  }
  return stray.sort();
}

/** The live build's web root (absolute) when the live build is the one `build` names (a record's); else undefined. */
export function recordedWebRoot(outDir: string, build: string | undefined): string | undefined {
  return build !== undefined && build === liveBuild(outDir) ? path.join(buildsDir(path.resolve(outDir)), build, WEB) : undefined;
}

/** The build folder the live link names (absolute), if it names one. */
function liveFolder(outDir: string): string | undefined {
  const builds = buildsDir(outDir);
  try {
    return path.resolve(builds, readlinkSync(path.join(builds, LIVE)));
  } catch {
    return undefined;
  }
}

/**
 * Decide whether `<out>.host` may be replaced, like the output path itself: missing, empty, our
 * link, or a folder holding only the host files this tool writes. Anything else (a file of the
 * operator's beside nginx.conf, a folder, a foreign link) throws OutputRefused before anything is touched.
 */
export function inspectHostFolder(outDir: string): HostState {
  const out = path.resolve(outDir);
  const dir = hostFolder(out);
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    return { kind: 'missing' };
  }
  if (st.isSymbolicLink()) {
    const target = path.resolve(path.dirname(dir), readlinkSync(dir));
    // Ours: through the live link of a marked builds folder, or left pointing at nothing when that folder was deleted by hand
    // (a builds folder of someone else's, without the marker, is never taken).
    if (target === fixedTarget(out, HOST) && (existsSync(path.join(buildsDir(out), MARKER)) || !existsSync(buildsDir(out)))) return { kind: 'ours' };
    throw new OutputRefused(`${dir} (the host files beside --out) is a symlink to ${target}, which this tool did not make: it will not replace it. Nothing was changed. Remove the link or choose another output folder.`);
  }
  if (!st.isDirectory()) throw new OutputRefused(`${dir} (where the build puts the host files beside --out) is a file: it will not be replaced. Nothing was changed. Move it away or choose another output folder.`);
  const names = readdirSync(dir);
  if (names.length === 0) return { kind: 'empty' };
  const foreign = names.filter((n) => !(HOST_FILES as readonly string[]).includes(n) || !lstatSync(path.join(dir, n)).isFile());
  if (foreign.length === 0) return { kind: 'legacy' };
  throw new OutputRefused(
    `${dir} holds ${foreign.length} file(s) or folder(s) that this tool did not write (${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''}). Nothing was changed. Every build replaces this folder with its host files (${HOST_FILES.join(', ')}): move your files elsewhere, or choose another output folder.`,
  );
}

/** How often this process reached each pause point (`SITE_TEST_PAUSE=<point>@<n>`). */
const reached = new Map<string, number>();

/** Whether to pause at `point`: SITE_TEST_PAUSE names it (`<point>`: every time; `<point>@<n>`: the n-th time in this process, as in the resident build process). */
function pauseHere(point: string): boolean {
  const [name, nth] = (process.env.SITE_TEST_PAUSE ?? '').split('@');
  if (name !== point) return false;
  const times = (reached.get(point) ?? 0) + 1;
  reached.set(point, times);
  return nth === undefined || times === Number(nth);
}

/** Test-only hook: with SITE_TEST_PAUSE=<point>, stop at that named point (a kill test's chance). */
export function pausePoint(point: string): void {
  if (!pauseHere(point)) return;
  process.stderr.write(`paused at ${point}\n`);
  // Synchronous on purpose: nothing else of this process may run while paused (a swap in progress).
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
}

/** Test-only hook like pausePoint, but the event loop keeps running (signal handlers answer). */
export async function pauseAsync(point: string): Promise<void> {
  if (!pauseHere(point)) return;
  process.stderr.write(`paused at ${point}\n`);
  await new Promise((resolve) => setTimeout(resolve, 60_000));
}

/** Test-only hook: with SITE_TEST_FAIL=<point>, throw at that named point (a failure the tests cannot cause otherwise, e.g. as root). */
export function failPoint(point: string): void {
  if (process.env.SITE_TEST_FAIL === point) throw new Error(`failure injected at ${point} (SITE_TEST_FAIL)`);
}

/** A new, unique build folder's path inside the builds folder (its `web/` is created by the first write). */
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
 * Remove a build folder no longer live, without blocking this thread (a server in this process goes
 * on answering). `rm -rf` where there is one: a build of 4,700 pages goes in 17-21 ms that way,
 * against 70-145 ms for Node's promise-based removal (2026-11-26, tmpfs, load ~3), the slowest step
 * of a rebuild's publishing. Node's removal where `rm` is missing or fails.
 */
export async function removeTree(p: string): Promise<void> {
  if (process.platform !== 'win32') {
    const code = await new Promise<number | null>((resolve) => {
      const rm = spawn('rm', ['-rf', '--', p], { stdio: 'ignore' });
      rm.once('error', () => resolve(null));
      rm.once('exit', resolve);
    });
    if (code === 0) return;
  }
  await fs.rm(p, { recursive: true, force: true });
}

/** Make `linkPath` a symlink to `target` (relative) with one rename of a fresh link over it. */
function relink(linkPath: string, target: string, tmpName: string): void {
  const tmp = path.join(path.dirname(linkPath), tmpName);
  rmSync(tmp, { force: true });
  symlinkSync(path.relative(path.dirname(linkPath), target), tmp);
  renameSync(tmp, linkPath);
}

/**
 * Make `build` (a folder from newBuildDir, holding `web/` and `host/`) the live build: a fresh
 * `live` link is renamed over the old one, which switches the pages and the host rules together.
 * The first time (no output yet, or one of the earlier layout), `dist` and `dist.host` are then made
 * the fixed links through `live`, in an order that never shows one build's pages with another's
 * host rules: the old host folder goes aside first, `dist` is linked, then `dist.host` (killed in
 * between, the next build's restoreInterrupted finishes or undoes it). All synchronous: no signal
 * handler or other code runs between these steps. Returns what is no longer live, for removal.
 */
export function swapIn(outDir: string, build: string, state: OutputState): string[] {
  const out = path.resolve(outDir);
  const builds = buildsDir(out);
  const old: string[] = [];
  if (state.kind === 'ours' && state.target && state.target !== build) old.push(state.target);
  const tmp = path.join(builds, `${LIVE}-${process.pid}`);
  rmSync(tmp, { force: true });
  symlinkSync(path.basename(build), tmp);
  pausePoint('swap-linked');
  renameSync(tmp, path.join(builds, LIVE));
  pausePoint('swap-renamed');
  const host = hostFolder(out);
  if (state.host.kind === 'empty') rmdirSync(host);
  if (state.host.kind === 'legacy') {
    const aside = path.join(builds, `host-old-${process.pid}`);
    renameSync(host, aside);
    pausePoint('swap-host-aside');
    old.push(aside);
  }
  if (!(state.kind === 'ours' && state.linked)) {
    if (state.kind === 'empty') rmdirSync(out);
    if (state.kind === 'legacy') {
      const previous = path.join(builds, `legacy-${process.pid}`);
      renameSync(out, previous);
      pausePoint('swap-legacy-moved');
      old.push(previous);
    }
    relink(out, fixedTarget(out, WEB), `.${path.basename(out)}.link-${process.pid}`);
  }
  if (state.host.kind !== 'ours') relink(host, fixedTarget(out, HOST), `.${path.basename(host)}.link-${process.pid}`);
  return old;
}

/** Whether process `pid` is running (this one is). */
export function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A zombie is dead: killed, not yet reaped (a detached resident build process, in a container
  // whose first process reaps nobody). Where the system says (Linux).
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return true;
  }
}

/**
 * Finish or undo a first publish that was killed between its renames (the output paths are never
 * left missing, and never show one build's pages with another's host rules): an earlier tool's
 * output folder moved aside is put back; a `<out>.host` moved aside is put back while `dist` still
 * shows the old build, or replaced by the link through the live build once `dist` does.
 */
export function restoreInterrupted(outDir: string): void {
  const out = path.resolve(outDir);
  const builds = buildsDir(out);
  let names: string[];
  try {
    names = readdirSync(builds);
  } catch {
    return;
  }
  const dead = (prefix: string) => names.find((n) => n.startsWith(prefix) && /^\d+$/.test(n.slice(prefix.length)) && !alive(Number(n.slice(prefix.length))));
  const legacy = dead('legacy-');
  if (legacy && !lstatExists(out)) renameSync(path.join(builds, legacy), out);
  const host = hostFolder(out);
  if (lstatExists(host)) return;
  let linked = false;
  try {
    linked = path.resolve(path.dirname(out), readlinkSync(out)) === fixedTarget(out, WEB);
  } catch {
    // not a link
  }
  const aside = dead('host-old-');
  if (linked && existsSync(path.join(builds, LIVE))) relink(host, fixedTarget(out, HOST), `.${path.basename(host)}.link-${process.pid}`);
  else if (aside) renameSync(path.join(builds, aside), host);
}

/** A leftover folder of a build: empty, or holding `mark` (a site's index.html, a host folder's rules.json). */
function leftByBuild(dir: string, mark: string): boolean {
  try {
    const names = readdirSync(dir);
    return names.length === 0 || names.includes(mark);
  } catch {
    return false;
  }
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
 * A name this tool gives in a builds folder: a build (`<time>-<pid>`, the time in base 36 since
 * 2024 and before tomorrow: `backup-2024` or `snapshot-1` is not one), a temporary live link, a
 * set-aside previous output or host folder.
 */
function buildsEntry(name: string): boolean {
  if (/^(?:live|legacy|host-old)-\d+$/.test(name)) return true;
  const m = /^([0-9a-z]+)-\d+$/.exec(name);
  if (!m) return false;
  const time = parseInt(m[1]!, 36);
  return time >= SINCE_2024 && time < Date.now() + 86_400_000;
}
const SINCE_2024 = Date.UTC(2024, 0, 1);

/**
 * Remove what interrupted builds left: build folders other than the live one (and those of builds
 * still running: of other processes, and of this one as `running` says), stray links, the
 * `<out>.staging-*` / `<out>.old-*` folders of the earlier tool and the temp folders of an
 * interrupted host-folder swap. Never touches `<out>.host/` itself (host-only files) or anything
 * else beside the output, and nothing a build did not leave: a folder named like a leftover is
 * removed only when it holds what a build writes (`leftByBuild`).
 */
export function removeLeftovers(outDir: string, running: (build: string) => boolean = () => false): void {
  const out = path.resolve(outDir);
  const builds = buildsDir(out);
  // Whatever the output paths or the live link show stays (a build folder, or a legacy one aside).
  const live = new Set<string>();
  for (const p of [out, hostFolder(out), path.join(builds, LIVE)]) {
    try {
      const real = realpathSync.native(p);
      const inBuilds = path.relative(realpathSync.native(builds), real).split(path.sep)[0]!;
      live.add(path.join(builds, inBuilds));
    } catch {
      // missing or dangling
    }
  }
  const pidOf = (name: string) => Number(/-(\d+)$/.exec(name)?.[1] ?? NaN);
  let names: string[] = [];
  try {
    // Only a builds folder this tool marked, and in it only the names it gives: what anyone else
    // put there stays (nothing a build did not write is deleted).
    if (existsSync(path.join(builds, MARKER))) names = readdirSync(builds).filter(buildsEntry);
  } catch {
    // No builds folder yet.
  }
  for (const name of names) {
    const p = path.join(builds, name);
    if (live.has(p)) continue; // (`live` itself is no build's name: never listed)
    const pid = pidOf(name);
    if (Number.isFinite(pid) && pid !== process.pid && alive(pid)) continue;
    if (running(p)) continue; // a build of this process, not yet published
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
    // Also `<out>.host.tmp-*` / `<out>.host.old-*` of a host folder swap that was cut off, and the
    // temporary links of a relink (`.<out>.link-<pid>`, `.<out>.host.link-<pid>`).
    const esc = base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const p = path.join(parent, name);
    const folder = new RegExp(`^${esc}\\.(staging|old|host\\.tmp|host\\.old)-(\\d+)-\\d+$`).exec(name);
    const link = new RegExp(`^\\.${esc}(?:\\.host)?\\.link-(\\d+)$`).exec(name);
    if (folder) {
      // Only when it holds what a build left (nothing, a site, host files): a folder someone named
      // so by chance keeps what they put in it.
      if (alive(Number(folder[2])) || !leftByBuild(p, folder[1]!.startsWith('host') ? 'rules.json' : 'index.html')) continue;
    } else if (!link || alive(Number(link[1]))) continue;
    rmSync(p, { recursive: true, force: true });
  }
}
