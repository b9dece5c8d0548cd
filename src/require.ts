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
 * the working folder it ran in; inputs of other namespaces and `define` values, which are not
 * files, are left out).
 * Also the paths a relative import named on its way to the file it found, which the metafile does
 * not list: a link (esbuild names its target; pointed elsewhere, the import finds another file),
 * and, for an import without an extension, the files it would have found first (`q.tsx` before
 * `q.ts`: one that appears changes what the import finds). Missing ones count as missing.
 */
export function metafileInputs(metafile: import('esbuild').Metafile | undefined): string[] {
  const out = new Set<string>();
  for (const [key, input] of Object.entries(metafile?.inputs ?? {})) {
    if (/^[a-z-]+:|^</.test(key)) continue; // another namespace, or a `define` (`<define:NAME>`)
    const importer = path.resolve(key);
    out.add(importer);
    for (const imp of input.imports) {
      if (!imp.original || !/^\.\.?\//.test(imp.original) || /^[a-z-]+:/.test(imp.path)) continue;
      const found = path.resolve(imp.path);
      const named = path.resolve(path.dirname(importer), imp.original);
      if (named === found) continue;
      out.add(named);
      if (!RESOLVE_ORDER.includes(path.extname(named)))
        for (const ext of RESOLVE_ORDER) {
          if (named + ext === found) break;
          out.add(named + ext);
        }
    }
  }
  return [...out];
}
/** esbuild's default resolveExtensions, in its order. */
const RESOLVE_ORDER = ['.tsx', '.ts', '.jsx', '.js', '.css', '.json'];
