/**
 * The packages a resident build process has loaded (Node's module cache: React, and what the
 * templates require), held to their files. A one-shot build loads them fresh; a resident process
 * keeps them, so it must notice when one changed on disk (a package updated, patched, linked) and
 * then stop serving: the next build runs in a process of its own, which loads them again.
 *
 * Packages of the site's own (required from beside its templates, not from the generator's
 * node_modules) are dropped from the cache before every build, so each build evaluates them
 * afresh, with no state left from the last one, and resolves their names again.
 */
import Module, { createRequire } from 'node:module';
import { statSync } from 'node:fs';
import path from 'node:path';

const cache = createRequire(import.meta.url).cache;

function stampOf(file: string): string {
  const st = statSync(file, { throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : 'gone';
}

/** Each loaded module's file inside `kept` (the generator's node_modules), stamped. */
export function moduleStamps(kept: string): Map<string, string> {
  const stamps = new Map<string, string>();
  for (const file of Object.keys(cache)) if (file.startsWith(kept + path.sep)) stamps.set(file, stampOf(file));
  return stamps;
}

/** The first module whose file changed since `stamps` were taken, if any. */
export function changedModule(stamps: ReadonlyMap<string, string>): string | undefined {
  for (const [file, stamp] of stamps) if (stampOf(file) !== stamp) return file;
  return undefined;
}

/** Drop from the module cache every module outside `keep` (the generator's node_modules), and every name resolved so far. */
export function dropSiteModules(keep: string): void {
  const inside = keep + path.sep;
  for (const file of Object.keys(cache)) if (!file.startsWith(inside)) delete cache[file];
  // Node's cache of resolved names (internal): a package put beside the templates since resolves there.
  const paths = (Module as unknown as { _pathCache?: Record<string, string> })._pathCache;
  if (paths) for (const k of Object.keys(paths)) delete paths[k];
}
