/** `site schemas`: write schemas/ from the zod schemas and point every content YAML file at its schema. */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { applyEdits, modify, parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { UsageError } from './usage.ts';
import { contentSchemas, schemaText, type SchemaFile } from '../content/json-schemas.ts';
import type { SiteModel } from '../content/model.ts';
import { ignoredName } from '../files.ts';

/** The first line that tells yaml-language-server (VS Code's YAML extension and others) which schema applies. */
const MODELINE = /^# yaml-language-server: \$schema=.*\r?\n/;

/** Content files (relative, forward slashes) that `s` describes, found in `contentDir`. */
function describedFiles(s: SchemaFile, contentDir: string): string[] {
  return s.describes.flatMap((pattern) => {
    if (!pattern.includes('*')) return existsSync(path.join(contentDir, pattern)) ? [pattern] : [];
    const [dir, name] = [path.posix.dirname(pattern), path.posix.basename(pattern)];
    if (dir.includes('*')) return []; // posts: front matter in markdown has no modeline
    const re = new RegExp(`^${name.replace('.', '\\.').replace('*', '[^/]+')}$`);
    return existsSync(path.join(contentDir, dir)) ? readdirSync(path.join(contentDir, dir)).filter((f) => re.test(f) && !ignoredName(f)).sort().map((f) => `${dir}/${f}`) : [];
  });
}

/** Put (or update) the modeline as the first line of a YAML file; returns whether the file changed. */
export function setModeline(file: string, schemaPath: string): boolean {
  const before = readFileSync(file, 'utf8');
  const line = `# yaml-language-server: $schema=${schemaPath}\n`;
  const after = MODELINE.test(before) ? before.replace(MODELINE, line) : line + before;
  if (after === before) return false;
  writeFileSync(file, after);
  return true;
}

export interface SchemasResult {
  written: string[];
  linked: string[];
}

/**
 * VS Code's settings as they are: JSON with comments and trailing commas, as VS Code writes them
 * (jsonc-parser, VS Code's own reader). A file it cannot read stops the command before anything is
 * written, naming the file and the place.
 */
function readSettings(file: string): { text: string; value: Record<string, unknown> } | undefined {
  const st = lstatSync(file, { throwIfNoEntry: false });
  if (!st) return undefined;
  // A folder, or a link to nothing or to a folder: named before anything is written.
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) throw new UsageError(`${file} is not a file (${st.isSymbolicLink() ? 'a link to nothing or to a folder' : 'a folder'}); nothing was written. Move it away, then run site schemas again.`);
  // A byte-order mark (some editors write one) is not JSON; an empty file is no settings yet.
  const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  if (!text.trim()) return { text: '{}\n', value: {} };
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  const error = errors[0];
  if (error || value === null || typeof value !== 'object' || Array.isArray(value)) {
    const before = text.slice(0, error?.offset ?? 0).split('\n');
    const where = error ? `:${before.length}:${before.at(-1)!.length + 1}` : '';
    throw new UsageError(`${file}${where}: cannot read it (${error ? printParseErrorCode(error.error) : 'not an object of settings'}); nothing was written. Mend it, or move it away, then run site schemas again.`);
  }
  return { text, value: value as Record<string, unknown> };
}

/**
 * Write every schema under `schemasDir`, add the modeline to every content YAML of `contentDir`,
 * and map the schemas of YAML files in `<projectRoot>/.vscode/settings.json` (yaml.schemas) for VS Code.
 * Posts' front matter (markdown) is never mapped there: the YAML extension would flag the post's body.
 */
export function writeSchemas(opts: { projectRoot: string; schemasDir: string; contentDir: string; model: SiteModel }): SchemasResult {
  const settingsFile = path.join(opts.projectRoot, '.vscode', 'settings.json');
  const settings = readSettings(settingsFile);
  const written: string[] = [];
  const linked: string[] = [];
  const mapping: Record<string, string[]> = {};
  // The mapping keys of the schemas this command writes (mapped or not): ours to replace or drop.
  const generated = new Set<string>();
  for (const s of contentSchemas(opts.model)) {
    const target = path.join(opts.schemasDir, s.file);
    generated.add(`./${path.relative(opts.projectRoot, target).split(path.sep).join('/')}`);
    mkdirSync(path.dirname(target), { recursive: true });
    const text = schemaText(s);
    if (!existsSync(target) || readFileSync(target, 'utf8') !== text) {
      writeFileSync(target, text);
      written.push(s.file);
    }
    const contentRel = path.relative(opts.projectRoot, opts.contentDir).split(path.sep).join('/');
    // YAML files only: a markdown post mapped to a YAML schema has its whole body flagged (its front matter is checked by `site check`).
    const yamlFiles = s.describes.filter((d) => !d.endsWith('.md'));
    if (yamlFiles.length) mapping[`./${path.relative(opts.projectRoot, target).split(path.sep).join('/')}`] = yamlFiles.map((d) => `${contentRel}/${d}`);
    for (const rel of describedFiles(s, opts.contentDir)) {
      const file = path.join(opts.contentDir, rel);
      const schemaPath = path.relative(path.dirname(file), target).split(path.sep).join('/');
      if (setModeline(file, schemaPath)) linked.push(rel);
    }
  }
  // The mappings of the schemas this command writes are ours to replace; the others (the operator's
  // own, even in schemas/) stay, and so do the file's other settings, comments and layout.
  const existing = settings?.value['yaml.schemas'];
  const kept = existing && typeof existing === 'object' && !Array.isArray(existing) ? Object.entries(existing).filter(([k]) => !generated.has(k)) : [];
  const merged = { ...Object.fromEntries(kept), ...mapping };
  if (JSON.stringify(existing) !== JSON.stringify(merged)) {
    const next = settings ? applyEdits(settings.text, modify(settings.text, ['yaml.schemas'], merged, { formattingOptions: { insertSpaces: true, tabSize: 2 } })) : `${JSON.stringify({ 'yaml.schemas': merged }, null, 2)}\n`;
    mkdirSync(path.dirname(settingsFile), { recursive: true });
    writeFileSync(settingsFile, next);
    written.push('.vscode/settings.json');
  }
  return { written, linked };
}
