/** Stage "templates": bundle `templates/` (TSX) with esbuild and import the result. */
import { build } from 'esbuild';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ComponentType, ReactNode } from 'react';
import { BuildError } from '../diagnostics.ts';
import { contentHash } from '../hash.ts';
import type { PageContext } from './context.ts';

/** What `templates/index.tsx` exports. */
export interface TemplateModule {
  Document: ComponentType<{ ctx: PageContext; children?: ReactNode }>;
  pages: Readonly<Record<string, ComponentType<{ ctx: PageContext }>>>;
}

/**
 * Bundle and import the templates. The bundle is named by its content hash, so an unchanged
 * template set is imported once per process and a changed one gets a fresh module.
 */
export async function loadTemplates(templatesDir: string, cache: string): Promise<TemplateModule> {
  let code: string;
  try {
    const result = await build({
      entryPoints: [path.join(templatesDir, 'index.tsx')],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      jsx: 'automatic',
      packages: 'external',
      logLevel: 'silent',
      loader: { '.css': 'empty' },
    });
    code = result.outputFiles[0]!.text;
  } catch (err) {
    const errors = (err as { errors?: { text: string; location?: { file: string; line: number; column: number; lineText: string } }[] }).errors ?? [];
    throw new BuildError(
      'templates',
      errors.length
        ? errors.map((e) => ({
            severity: 'error' as const,
            code: 'template',
            message: e.text,
            file: e.location?.file,
            line: e.location?.line,
            column: e.location ? e.location.column + 1 : undefined,
            frame: e.location ? `    ${e.location.lineText}` : undefined,
          }))
        : [{ severity: 'error', code: 'template', message: (err as Error).message }],
    );
  }
  // Written inside the project so the bundle's bare imports (react) resolve from node_modules.
  const file = path.join(cache, `templates-${contentHash(code)}.mjs`);
  await fs.mkdir(cache, { recursive: true });
  if (!(await fs.stat(file).catch(() => undefined))) {
    const tmp = `${file}.${process.pid}.tmp`;
    await fs.writeFile(tmp, code);
    await fs.rename(tmp, file); // atomic: a parallel build never imports a half-written file
  }
  const mod = (await import(pathToFileURL(file).href)) as TemplateModule;
  if (typeof mod.Document !== 'function' || !mod.pages || typeof mod.pages !== 'object')
    throw new BuildError('templates', [{ severity: 'error', code: 'template', file: 'templates/index.tsx', message: 'must export Document (component) and pages (id → component)' }]);
  return mod;
}
