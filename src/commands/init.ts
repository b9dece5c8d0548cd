/**
 * `site init <dir>`: a new, minimal site beside this one: its content (one language, one page, a
 * journal with one post, one kind of data of its own) and its own small templates and model, copied
 * from the project's starter/. It builds with this CLI as it is; nothing in it is this site's.
 */
import { cpSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../project.ts';
import { UsageError } from './usage.ts';

/** Write the starter site into `dir` (which must not exist or be empty); returns the files written. */
export function initSite(dir: string): string[] {
  const target = path.resolve(dir);
  if (existsSync(target) && readdirSync(target).length) throw new UsageError(`${dir} is not empty: site init writes a new site into a new or empty folder`);
  const starter = path.join(projectRoot(), 'starter');
  cpSync(starter, target, { recursive: true });
  // Editors and tsc resolve the generator's public module (@site/api) as the build does.
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'Bundler',
      jsx: 'react-jsx',
      strict: true,
      noEmit: true,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      baseUrl: '.',
      // The generator's public module, and its packages (with their types) from its node_modules.
      paths: {
        '@site/api': [path.join(projectRoot(), 'src', 'api.ts')],
        '*': [path.join(projectRoot(), 'node_modules', '@types', '*'), path.join(projectRoot(), 'node_modules', '*')],
      },
      typeRoots: [path.join(projectRoot(), 'node_modules', '@types')],
      types: ['node'],
    },
    include: ['templates'],
  };
  writeFileSync(path.join(target, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  return readdirSync(target, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(target, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}
