/**
 * Packages in a resident build process. A one-shot build loads every package afresh; a resident
 * process keeps what it loaded, with its state (`marked.use` at a template's module level would add
 * a hook per build). So after each build, every package the templates and models required from
 * their files (render/templates.ts `requiredByTemplates`), with the modules it loaded, is dropped
 * from Node's module cache: the next build loads it afresh, as a build of its own does. The renderer
 * (React) is kept: one instance per process either way, which react-dom holds on to. So are the
 * packages the generator hands the templates as its own (`BUILT_IN`: zod, yaml), shared with the
 * generator in a one-shot build too.
 *
 * A package that cannot be loaded again (an ES module, a native addon) makes the process leave
 * after the build that loaded it first (src/cli.ts `resident`). And the files of every module it
 * keeps are stamped after each build: one changed on disk (a package updated, patched, linked), the
 * next build runs in a process of its own.
 */
import Module, { createRequire } from 'node:module';
import { statSync } from 'node:fs';
import { types } from 'node:util';

const cache = createRequire(import.meta.url).cache;

/** The renderer's files: kept (react-dom holds on to its React). */
const RENDERER = /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/;

/**
 * Drop the modules of `packages` (name → file, as the templates required them) and every module
 * they loaded from the module cache, but the renderer's. Returns the packages that cannot be loaded
 * again (an ES module or a native addon among their modules): those stay loaded.
 */
export function dropTemplatePackages(packages: ReadonlyMap<string, string>): string[] {
  const fixed: string[] = [];
  for (const [id, file] of packages) {
    const tree: string[] = [];
    const walk = (m: NodeJS.Module | undefined) => {
      if (!m || RENDERER.test(m.filename) || tree.includes(m.filename)) return;
      tree.push(m.filename);
      for (const child of m.children) walk(child);
    };
    walk(cache[file]);
    const once = tree.some((f) => f.endsWith('.node') || types.isModuleNamespaceObject(cache[f]?.exports));
    if (once) fixed.push(id);
    else for (const f of tree) delete cache[f];
  }
  // Node's cache of resolved names (internal): a package put beside the templates since resolves there.
  const paths = (Module as unknown as { _pathCache?: Record<string, string> })._pathCache;
  if (paths) for (const k of Object.keys(paths)) delete paths[k];
  return fixed.sort();
}

function stampOf(file: string): string {
  const st = statSync(file, { throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : 'gone';
}

/** Each loaded module's file, stamped. */
export function moduleStamps(): Map<string, string> {
  const stamps = new Map<string, string>();
  for (const file of Object.keys(cache)) stamps.set(file, stampOf(file));
  return stamps;
}

/** The first module whose file changed since `stamps` were taken, if any. */
export function changedModule(stamps: ReadonlyMap<string, string>): string | undefined {
  for (const [file, stamp] of stamps) if (stampOf(file) !== stamp) return file;
  return undefined;
}
