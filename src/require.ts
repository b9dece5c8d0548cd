/**
 * CommonJS packages (React's server renderer, esbuild) are required, not imported: before Node's
 * ESM loader can import a CommonJS file it scans the source for its export names; that scan
 * cost every `site` command 40-50 ms of start-up (measured on the 2-core machine).
 */
import { createRequire } from 'node:module';
import path from 'node:path';

export const requireCjs = createRequire(import.meta.url);

let esbuildModule: typeof import('esbuild') | undefined;
/**
 * esbuild, loaded on first use: a rebuild that takes its templates, scripts and service worker
 * from the build cache never bundles, and loading esbuild's JavaScript API cost it ~15 ms.
 */
export function esbuild(): typeof import('esbuild') {
  return (esbuildModule ??= requireCjs('esbuild') as typeof import('esbuild'));
}

/**
 * The files an esbuild run read, from its metafile: absolute paths (esbuild names them relative to
 * the working folder it ran in; inputs of other namespaces, which are not files, are left out).
 */
export function metafileInputs(metafile: import('esbuild').Metafile | undefined): string[] {
  return Object.keys(metafile?.inputs ?? {})
    .filter((f) => !/^[a-z-]+:/.test(f))
    .map((f) => path.resolve(f));
}
