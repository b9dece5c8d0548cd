/**
 * Stage "templates": bundle `templates/` (TSX) with esbuild and evaluate the bundle.
 *
 * The bundle is CommonJS evaluated as a function, not an ES module import: an imported module
 * can never be unloaded, so a watch session that reloads templates on every edit would grow
 * without bound. A function's code is garbage once nothing refers to it, so memory stays flat
 * however often templates change (benchmarks/watch.js measures it). React is required from
 * node_modules, the same instance the renderer uses.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import vm from 'node:vm';
import path from 'node:path';
import type { ComponentType, ReactNode } from 'react';
import { BuildError } from '../diagnostics.ts';
import type { PageContext } from './context.ts';
import type { Site, SiteModel } from '../content/model.ts';
import type { Translate } from '../content/texts.ts';
import { esbuild, metafileInputs } from '../require.ts';
import { dropStale, writeFileAtomic } from '../files.ts';
import { projectRoot } from '../project.ts';
import * as zod from 'zod';
import * as yaml from 'yaml';
import * as jsYaml from 'js-yaml';
import * as intlMessageFormat from 'intl-messageformat';
import * as icuParser from '@formatjs/icu-messageformat-parser';

/** What `templates/index.tsx` exports, plus the compiled code (page workers evaluate the same code). */
export interface TemplateModule {
  Document: ComponentType<{ ctx: PageContext; children?: ReactNode }>;
  pages: Readonly<Record<string, ComponentType<{ ctx: PageContext }>>>;
  /**
   * Optional: files the templates derive from the whole site (data every page's script shares,
   * rather than repeating it in each page), by name. The build publishes each under `assets/` with
   * its content hash in the name and gives pages their URLs in `ctx.assets.files`.
   */
  assetFiles?: (site: Site, textsOf: (lang: string) => Translate) => Record<string, string>;
  compiled: CompiledTemplates;
}

/** The templates bundle (CommonJS) and the entry it was built from (for require and stack traces). */
export interface CompiledTemplates {
  code: string;
  entry: string;
  /** Every file esbuild read to make it (absolute paths): the build stamps those outside the folders it stamps anyway. */
  inputs?: string[];
}

type EsbuildError = { errors?: { text: string; location?: { file: string; line: number; column: number; lineText: string } }[] };

/** Bundle and evaluate the templates; compile and evaluation errors name file and line. */
export async function loadTemplates(templatesDir: string): Promise<TemplateModule> {
  return evaluateTemplates(await compileTemplates(templatesDir));
}

/** Bundle the templates (not evaluated: a build may keep the code for its next run). */
export async function compileTemplates(templatesDir: string): Promise<CompiledTemplates> {
  const entry = path.join(templatesDir, 'index.tsx');
  return { ...(await bundle(entry, templatesDir)), entry };
}

/** How templates import the generator's public module (src/api.ts), like Astro's `astro:content`. */
export const API_MODULE = '@site/api';

/** Where a site's model lives in its templates folder (optional: without it, generic content only). */
export const MODEL_ENTRY = path.join('model', 'index.ts');

/**
 * Bundle and evaluate the site's model (`templates/model/index.ts`, export `model`): its own bundle,
 * apart from the page templates, so loading content need not wait for them.
 */
export async function loadSiteModel(templatesDir: string): Promise<SiteModel> {
  return evaluateModel(await compileModel(templatesDir));
}

/** The model's bundle (undefined: the site has no model), not evaluated. */
export async function compileModel(templatesDir: string): Promise<CompiledTemplates | undefined> {
  const entry = path.join(templatesDir, MODEL_ENTRY);
  return existsSync(entry) ? { ...(await bundle(entry, templatesDir)), entry } : undefined;
}

/** Evaluate a model bundle (`compileModel`); none: an empty model, generic content only. */
export function evaluateModel(compiled: CompiledTemplates | undefined, codeCache?: string): SiteModel {
  if (!compiled) return { data: {} };
  const exports = evaluate(compiled.code, compiled.entry, 'templates/model/index.ts', codeCache) as { model?: SiteModel };
  const model = exports.model;
  if (!model || typeof model !== 'object' || !model.data || typeof model.data !== 'object')
    throw new BuildError('templates', [{ severity: 'error', code: 'template', file: 'templates/model/index.ts', message: 'must export model (defineModel({ data: {...} }))' }]);
  return model;
}

async function bundle(entry: string, templatesDir: string): Promise<{ code: string; inputs: string[] }> {
  try {
    const result = await esbuild().build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      jsx: 'automatic',
      packages: 'external',
      // The generator's public module, by name wherever the templates live (a site made with site init).
      // And marked, which the generator's code in it uses: an ES module, loaded once per process if
      // required, where bundled it is evaluated with the templates (a resident build process
      // evaluates them afresh for each build: src/resident/modules.ts).
      alias: { [API_MODULE]: path.join(projectRoot(), 'src', 'api.ts'), marked: createRequire(path.join(projectRoot(), 'package.json')).resolve('marked') },
      logLevel: 'silent',
      loader: { '.css': 'empty' },
      metafile: true,
    });
    return { code: result.outputFiles[0]!.text, inputs: metafileInputs(result.metafile) };
  } catch (err) {
    const errors = (err as EsbuildError).errors ?? [];
    throw new BuildError(
      'templates',
      errors.length
        ? errors.map((e) => ({
            severity: 'error' as const,
            code: 'template',
            message: e.text,
            file: e.location ? path.relative(path.dirname(templatesDir), path.resolve(path.dirname(templatesDir), e.location.file)) : undefined,
            line: e.location?.line,
            column: e.location ? e.location.column + 1 : undefined,
            frame: e.location ? `    ${e.location.lineText}` : undefined,
          }))
        : [{ severity: 'error', code: 'template', message: (err as Error).message }],
    );
  }
}

/** Evaluate compiled templates (in this thread; page workers call this with the main thread's code). */
export function evaluateTemplates(compiled: CompiledTemplates, codeCache?: string): TemplateModule {
  const mod = evaluate(compiled.code, compiled.entry, 'templates/index.tsx', codeCache) as Partial<TemplateModule>;
  if (typeof mod.Document !== 'function' || !mod.pages || typeof mod.pages !== 'object')
    throw new BuildError('templates', [{ severity: 'error', code: 'template', file: 'templates/index.tsx', message: 'must export Document (component) and pages (id → component)' }]);
  if (mod.assetFiles !== undefined && typeof mod.assetFiles !== 'function')
    throw new BuildError('templates', [{ severity: 'error', code: 'template', file: 'templates/index.tsx', message: 'assetFiles, when exported, must be a function (site, textsOf) → { name: text }' }]);
  return { Document: mod.Document, pages: mod.pages, ...(mod.assetFiles && { assetFiles: mod.assetFiles }), compiled };
}

/**
 * `require` for a bundle: packages (react, zod) from beside the templates when they have their own,
 * else from the generator's node_modules, so a site made with `site init` anywhere needs no install.
 */
function siteRequire(entry: string): NodeJS.Require {
  const local = createRequire(entry);
  const generator = createRequire(path.join(projectRoot(), 'package.json'));
  // (Resolved files have their links resolved: the generator's node_modules may itself be a link.)
  const ownModules = [path.join(projectRoot(), 'node_modules') + path.sep, generatorModulesReal()];
  const note = (req: NodeJS.Require, id: string) => {
    if (!isBuiltin(id)) required.set(id, req.resolve(id));
  };
  const resolves = (id: string) => {
    try {
      return local.resolve(id);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw err;
      return undefined;
    }
  };
  return Object.assign((id: string) => {
    // A package the generator has built in, found in the generator's node_modules (or not beside
    // the templates at all): the instance already loaded (requiring zod, yaml and js-yaml again
    // from their files cost ~80 ms a build).
    if (Object.hasOwn(BUILT_IN, id)) {
      const file = resolves(id);
      if (file === undefined || ownModules.some((m) => m !== undefined && file.startsWith(m))) return BUILT_IN[id];
    }
    try {
      const loaded: unknown = local(id);
      note(local, id);
      return loaded;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw err;
      const loaded: unknown = generator(id);
      note(generator, id);
      return loaded;
    }
  }, local);
}

let modulesReal: string | undefined | null;
function generatorModulesReal(): string | undefined {
  if (modulesReal === undefined) {
    try {
      modulesReal = realpathSync.native(path.join(projectRoot(), 'node_modules')) + path.sep;
    } catch {
      modulesReal = null;
    }
  }
  return modulesReal ?? undefined;
}

/**
 * Every package the templates and models evaluated in this process required from their files (not
 * Node's own, not BUILT_IN), by name, with the file it resolved to: the resident build process
 * loads them afresh for each build (src/resident/modules.ts).
 */
const required = new Map<string, string>();
export function requiredByTemplates(): ReadonlyMap<string, string> {
  return required;
}
/** A build starts: what it requires is what it records (a resident process's earlier builds were of other sites too). */
export function forgetRequired(): void {
  required.clear();
}

/** Packages the generator itself bundles, as it loaded them (what the site's model and templates import through `@site/api`). */
export const BUILT_IN: Record<string, unknown> = { zod, yaml, 'js-yaml': jsYaml, 'intl-messageformat': intlMessageFormat, '@formatjs/icu-messageformat-parser': icuParser };

type Wrapper = (exports: object, require: NodeJS.Require, module: { exports: object }) => void;

/** Scripts evaluated without a usable code cache, and where theirs goes (`keepCodeCaches`). */
const uncached: { script: vm.Script; file: string }[] = [];

/**
 * Run a CommonJS bundle and return its exports. With `codeCache` (a file; one-shot builds), as a
 * vm script with V8's code cache: parsing and compiling the templates took a rebuild ~30 ms. Else
 * with the Function constructor: Node 20 keeps every vm script alive, while a function's code is
 * collected once nothing refers to it (a watch session evaluates templates again on each edit).
 */
function evaluate(code: string, entry: string, name: string, codeCache?: string): unknown {
  const module = { exports: {} };
  try {
    let wrapper: Wrapper;
    if (codeCache) {
      let cachedData: Buffer | undefined;
      try {
        cachedData = readFileSync(codeCache);
      } catch {
        // the first build of this code: its cache is written after it
      }
      const script = new vm.Script(`(function (exports, require, module) {${code}\n})`, { filename: entry, cachedData });
      if (!cachedData || script.cachedDataRejected) uncached.push({ script, file: codeCache });
      wrapper = script.runInThisContext() as Wrapper;
    } else {
      // sourceURL names the file in stack traces.
      // eslint-disable-next-line @typescript-eslint/no-implied-eval
      wrapper = new Function('exports', 'require', 'module', `${code}\n//# sourceURL=${entry}`) as Wrapper;
    }
    wrapper(module.exports, siteRequire(entry), module);
  } catch (err) {
    throw new BuildError('templates', [{ severity: 'error', code: 'template', file: name, message: `evaluating ${name} failed: ${(err as Error).message}` }]);
  }
  return module.exports;
}

/**
 * Write the code caches of the scripts evaluated without one (after rendering: the cache then holds
 * the functions the pages ran too). A cache that cannot be written only costs the next build a compile.
 */
export function keepCodeCaches(): void {
  for (const { script, file } of uncached.splice(0)) {
    try {
      writeFileAtomic(file, script.createCachedData());
      dropStale(path.dirname(file), 'v8-', 86_400_000);
    } catch {
      // compiled again next time
    }
  }
}
