/** Listing files on disk, shared by the image stage, the build record and watch; writing and tidying the cache. */
import { readdirSync, realpathSync, renameSync, rmSync, statSync, utimesSync, writeFileSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';

/**
 * Names in the content folder that no build reads and watch does not follow: dotfiles and
 * dot-folders (macOS's `.DS_Store`, vim's `.en.md.swp`, `.git`), editors' backups and autosaves
 * (`en.md~`, emacs's `#en.md#`), swap and temporary files (`*.swp`, `*.tmp`) and the files Windows
 * leaves in folders of pictures (`Thumbs.db`, `desktop.ini`). A file manager or an open editor
 * puts them beside posts and images; a build that refused them failed while a post was open in
 * vim. Generators skip them too (Hugo dotfiles, Hakyll dotfiles, backups and swap files).
 */
export function ignoredName(name: string): boolean {
  return IGNORED_NAME.test(name);
}
const IGNORED_NAME = /^(?:\..*|.*~|#.*#|.*\.sw[a-p]|.*\.tmp|thumbs\.db|desktop\.ini)$/is;

/** Every file under `dir` (dotfiles skipped), relative with forward slashes, sorted; [] if absent. */
export async function listFiles(dir: string): Promise<string[]> {
  return listFilesSync(dir);
}

/** `listFiles`, synchronously. */
export function listFilesSync(dir: string): string[] {
  const out: string[] = [];
  // Synchronous: one readdir per folder (4,000 post folders) is cheaper than 4,000 thread-pool trips.
  const walk = (sub: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(path.join(dir, sub), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const rel = sub ? `${sub}/${e.name}` : e.name;
      if (e.isDirectory()) walk(rel);
      else if (e.isFile()) out.push(rel);
    }
  };
  walk('');
  return out.sort();
}

/**
 * Every file under `dir` but the ignored names (`ignoredName`), relative with forward slashes,
 * sorted, links followed while they lead to a place
 * inside `root`: a linked image or images folder counts as what it points to, as a linked post or
 * text table does (content/read.ts), under each name that reaches it (a link back into a folder
 * above it is not followed again). `outside`: the links whose targets lie outside `root`, relative
 * to `dir` ('' if `dir` itself leads out), never followed, so never read or published.
 * `enclosing`: the links to a folder that holds `dir` (the content folder, say), never followed:
 * everything in it would count, posts and text tables too. A link to nothing is left out, like a
 * missing file.
 */
export function listFilesWithin(dir: string, root: string): { files: string[]; outside: string[]; enclosing: string[] } {
  const files: string[] = [];
  const outside: string[] = [];
  const enclosing: string[] = [];
  let realRoot: string;
  let realDir: string | undefined;
  try {
    realRoot = realpathSync.native(root);
    realDir = realpathSync.native(dir);
  } catch {
    return { files, outside, enclosing };
  }
  const within = (real: string) => real === realRoot || real.startsWith(realRoot + path.sep);
  // The real paths of the folders being walked: a link to one of them would loop.
  const above = new Set<string>();
  const walk = (abs: string, sub: string): void => {
    let real: string;
    let entries: Dirent[];
    try {
      real = realpathSync.native(abs);
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    if (above.has(real)) return;
    if (!within(real)) {
      outside.push(sub);
      return;
    }
    above.add(real);
    for (const e of entries) {
      if (ignoredName(e.name)) continue;
      const rel = sub ? `${sub}/${e.name}` : e.name;
      const full = path.join(abs, e.name);
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        let target: string;
        try {
          target = realpathSync.native(full);
        } catch {
          continue; // a link to nothing
        }
        if (!within(target)) {
          outside.push(rel);
          continue;
        }
        if (realDir.startsWith(target + path.sep)) {
          enclosing.push(rel);
          continue;
        }
        const st = statSync(full, { throwIfNoEntry: false });
        isDir = st?.isDirectory() ?? false;
        isFile = st?.isFile() ?? false;
      }
      if (isDir) walk(full, rel);
      else if (isFile) files.push(rel);
    }
    above.delete(real);
  };
  walk(dir, '');
  return { files: files.sort(), outside: outside.sort(), enclosing: enclosing.sort() };
}

const TIDY_EVERY_MS = 3_600_000;

/**
 * Remove the files in `dir` named `prefix…` that were not written for `maxAgeMs`. The scan runs
 * at most once an hour per prefix (a marker file's time says when it last did): a cache that
 * tests or many output folders filled with a few thousand entries would otherwise cost every
 * build a stat of each (140 ms for 1,800 records).
 */
export function dropStale(dir: string, prefix: string, maxAgeMs: number): void {
  const marker = path.join(dir, `.tidied-${prefix}`);
  const now = Date.now();
  try {
    const last = statSync(marker, { throwIfNoEntry: false })?.mtimeMs;
    // (A marker dated ahead by more than a minute: the clock was set back; scan now.)
    if (last !== undefined && now - last < TIDY_EVERY_MS && last - now < 60_000) return;
    if (last === undefined) writeFileSync(marker, '');
    else utimesSync(marker, now / 1000, now / 1000);
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(prefix)) continue;
      const p = path.join(dir, name);
      const st = statSync(p, { throwIfNoEntry: false });
      if (st?.isFile() && now - st.mtimeMs > maxAgeMs) rmSync(p, { force: true });
    }
  } catch {
    // A read-only or vanished cache: the next build tries again.
  }
}

/** A temporary name beside `file` of this thread's own (a process's threads share its id). */
export const tempBeside = (file: string): string => `${file}.${process.pid}-${threadId}.tmp`;

/** Write `file` whole or not at all (a temporary name renamed into place): parallel builds share the cache. */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  const tmp = tempBeside(file);
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

/**
 * A cache file's siblings of the same content folder made by other code (`prefix` and the folder's
 * 12-character key, then another code key, ending in `ext`): of no more use once `file` is written.
 * So are the `prefix` files of folders not built for a week (temporary folders, tests).
 */
export function dropSiblings(file: string, prefix: string, ext: string): void {
  const dir = path.dirname(file);
  const name = path.basename(file);
  const folder = name.slice(0, prefix.length + 12);
  try {
    for (const other of readdirSync(dir)) if (other.startsWith(folder) && other.endsWith(ext) && other !== name) rmSync(path.join(dir, other), { force: true });
  } catch {
    // a vanished cache folder
  }
  dropStale(dir, prefix, 7 * 86_400_000);
}
