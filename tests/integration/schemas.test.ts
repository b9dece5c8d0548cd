/**
 * JSON Schemas for editors: committed schemas match the zod schema, and the shipped content validates.
 * VS Code: YAML files only are mapped to schemas, the YAML extension is recommended, and the
 * `site check` task puts post front-matter errors in the Problems panel.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { writeSchemas } from '../../src/commands/schemas.ts';
import { contentSchemas, schemaText } from '../../src/content/json-schemas.ts';
import { formatDiagnostic } from '../../src/diagnostics.ts';
import { splitFrontMatter } from '../../src/content/post-body.ts';
import { model } from '../../templates/model/index.ts';
import { copyContent, edit, ROOT, runCli, runMain, SHIPPED_CONTENT, tmpDir } from '../helpers/site.ts';

const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });

/** Content files a schema describes, found in `dir` (`*` matches one path segment). */
function filesFor(patterns: string[], dir: string): string[] {
  const expand = (segments: string[], base: string): string[] => {
    const [head, ...rest] = segments;
    if (head === undefined) return [base];
    const names = head.includes('*') ? (existsSync(path.join(dir, base)) ? readdirSync(path.join(dir, base)) : []).filter((n) => new RegExp(`^${head.replace('.', '\\.').replace('*', '.+')}$`).test(n)) : [head];
    return names.flatMap((n) => expand(rest, base ? `${base}/${n}` : n)).filter((f) => existsSync(path.join(dir, f)));
  };
  return patterns.flatMap((p) => expand(p.split('/'), '')).sort();
}

describe('JSON Schemas of the content files', () => {
  it('[R-OPS-5] the committed schemas are what `site schemas` generates from the zod schema today', () => {
    const stale = contentSchemas(model).filter((s) => {
      const file = path.join(ROOT, 'schemas', s.file);
      return !existsSync(file) || readFileSync(file, 'utf8') !== schemaText(s);
    });
    expect(stale.map((s) => s.file), 'run `npm run schemas` and commit schemas/').toEqual([]);
    const vscode = JSON.parse(readFileSync(path.join(ROOT, '.vscode/settings.json'), 'utf8'));
    // Every schema of a YAML file is mapped; the post schema (markdown) is written but not mapped.
    expect(Object.keys(vscode['yaml.schemas']).sort()).toEqual(contentSchemas(model).filter((s) => s.describes.some((d) => !d.endsWith('.md'))).map((s) => `./schemas/${s.file}`).sort());
  });

  it('[R-OPS-5] every content YAML file names its schema on its first line, by a path that exists', () => {
    for (const s of contentSchemas(model)) {
      for (const rel of filesFor(s.describes, SHIPPED_CONTENT).filter((f) => f.endsWith('.yaml'))) {
        const first = readFileSync(path.join(SHIPPED_CONTENT, rel), 'utf8').split('\n')[0]!;
        const m = /^# yaml-language-server: \$schema=(.+)$/.exec(first);
        expect(m, `${rel}: first line`).not.toBeNull();
        // Relative to the file in the repository's content/ (an operator's copy elsewhere runs `site schemas -c` on it).
        if (SHIPPED_CONTENT === path.join(ROOT, 'content')) expect(path.resolve(path.dirname(path.join(SHIPPED_CONTENT, rel)), m![1]!), rel).toBe(path.join(ROOT, 'schemas', s.file));
      }
    }
  });

  it('[R-OPS-5] the shipped content (SHIPPED_CONTENT) validates against the schemas with ajv', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const s of contentSchemas(model)) {
      const validate = ajv.compile(s.schema);
      for (const rel of filesFor(s.describes, SHIPPED_CONTENT)) {
        const source = readFileSync(path.join(SHIPPED_CONTENT, rel), 'utf8');
        const data = rel.endsWith('.md') ? parse(splitFrontMatter(source)!.matter) : parse(source);
        checked++;
        if (!validate(data)) for (const e of validate.errors!) problems.push(`${rel}: ${e.instancePath || '/'} ${e.message}`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(contentSchemas(model).length);
  });

  it('[R-OPS-5] the schemas reject what the build rejects: an unknown key, a wrong type', () => {
    const rates = ajv.compile(contentSchemas(model).find((s) => s.file === 'data/rates.schema.json')!.schema);
    const good = parse(readFileSync(path.join(SHIPPED_CONTENT, 'data/rates.yaml'), 'utf8'));
    expect(rates(good)).toBe(true);
    expect(rates({ ...good, tiers: [{ ...good.tiers[0], price: 'cheap' }] })).toBe(false);
    expect(rates({ ...good, tierz: [] })).toBe(false);
  });
});

/** `yaml.schemas` patterns of a settings.json that end in `.md` (a markdown file checked as YAML). */
function markdownMappings(settingsFile: string): string[] {
  const mapping = (JSON.parse(readFileSync(settingsFile, 'utf8')) as { 'yaml.schemas': Record<string, string | string[]> })['yaml.schemas'];
  return Object.entries(mapping).flatMap(([schema, patterns]) => [patterns].flat().filter((p) => /\.md$/i.test(p)).map((p) => `${schema} -> ${p}`));
}

interface Pattern {
  regexp: string;
  file: number;
  line: number;
  column: number;
  severity: number;
  code: number;
  message: number;
}
interface Matcher {
  owner: string;
  fileLocation: [string, string];
  pattern: Pattern;
}

/** What VS Code's problem matchers of `matchers` make of `output`: one problem per matched line (the first matcher that matches). */
function problems(matchers: Matcher[], output: string, workspaceFolder: string) {
  return output.split(/\r?\n/).flatMap((text) => {
    for (const m of matchers) {
      const g = new RegExp(m.pattern.regexp).exec(text);
      if (!g) continue;
      expect(m.fileLocation[0]).toBe('relative');
      const base = m.fileLocation[1].replace('${workspaceFolder}', workspaceFolder);
      return [{ file: g[m.pattern.file]!, path: path.join(base, g[m.pattern.file]!), line: Number(g[m.pattern.line]), column: g[m.pattern.column] === undefined ? undefined : Number(g[m.pattern.column]), severity: g[m.pattern.severity]!, code: g[m.pattern.code]!, message: g[m.pattern.message]! }];
    }
    return [];
  });
}

describe('[R-OPS-11] editor support in VS Code: no markdown checked as YAML, front matter checked by `site check`', () => {
  it('[R-OPS-11] no yaml.schemas entry of the committed .vscode/settings.json maps a pattern ending in .md (the post body would be flagged)', () => {
    expect(markdownMappings(path.join(ROOT, '.vscode/settings.json'))).toEqual([]);
  });

  it('[R-OPS-11] `site schemas` (writeSchemas) rewrites settings.json without .md mappings, keeps the other settings, and still writes schemas/post.schema.json', () => {
    const project = tmpDir('site-schemas-');
    const contentDir = copyContent();
    const settingsFile = path.join(project, '.vscode', 'settings.json');
    mkdirSync(path.dirname(settingsFile), { recursive: true });
    // As the file was before: the post schema mapped to the markdown posts.
    writeFileSync(settingsFile, JSON.stringify({ 'editor.rulers': [100], 'yaml.schemas': { './schemas/post.schema.json': ['content/blog/*/*.md'] } }));
    const { written } = writeSchemas({ projectRoot: project, schemasDir: path.join(project, 'schemas'), contentDir, model });
    expect(written).toContain('.vscode/settings.json');
    expect(written).toContain('post.schema.json');
    expect(existsSync(path.join(project, 'schemas', 'post.schema.json'))).toBe(true);
    expect(markdownMappings(settingsFile)).toEqual([]);
    const settings = JSON.parse(readFileSync(settingsFile, 'utf8'));
    expect(settings['editor.rulers']).toEqual([100]);
    expect(Object.keys(settings['yaml.schemas'])).toContain('./schemas/data/rates.schema.json');
  });

  it('[R-OPS-11] `site schemas` keeps the operator\'s own yaml.schemas mappings, comments and trailing commas (VS Code\'s format) in settings.json', () => {
    const project = tmpDir('site-schemas-');
    const contentDir = copyContent();
    const settingsFile = path.join(project, '.vscode', 'settings.json');
    mkdirSync(path.dirname(settingsFile), { recursive: true });
    writeFileSync(settingsFile, '\uFEFF{\n  // my editor\n  "editor.rulers": [100],\n  "yaml.schemas": {\n    "./tools/ci.schema.json": ".github/*.yml",\n    "./schemas/custom/extra.schema.json": "extra/*.yml",\n  },\n}\n');
    writeSchemas({ projectRoot: project, schemasDir: path.join(project, 'schemas'), contentDir, model });
    const text = readFileSync(settingsFile, 'utf8');
    expect(text).toContain('// my editor');
    const mapping = (JSON.parse(text.replace(/\/\/.*$/gm, '').replace(/,(\s*[}\]])/g, '$1')) as { 'yaml.schemas': Record<string, unknown> })['yaml.schemas'];
    expect(mapping['./tools/ci.schema.json']).toBe('.github/*.yml');
    // The operator's own schema in schemas/ is theirs, not one this command writes.
    expect(mapping['./schemas/custom/extra.schema.json']).toBe('extra/*.yml');
    expect(String(mapping['./schemas/data/rates.schema.json'])).toMatch(/content\/data\/rates\.yaml$/);
    // Run again: nothing to change.
    expect(writeSchemas({ projectRoot: project, schemasDir: path.join(project, 'schemas'), contentDir, model }).written).toEqual([]);
  });

  it('[R-OPS-11] a settings.json it cannot read stops `site schemas` before anything is written, naming the file and the place (exit 2)', async () => {
    const contentDir = copyContent();
    const site = path.dirname(contentDir);
    const settingsFile = path.join(site, '.vscode', 'settings.json');
    mkdirSync(path.dirname(settingsFile), { recursive: true });
    writeFileSync(settingsFile, '{\n  "editor.rulers": [100]\n  "files.eol": "\\n"\n}\n');
    const before = readFileSync(path.join(contentDir, 'data/rates.yaml'), 'utf8');
    const { code, stderr } = await runMain(['schemas', '-c', contentDir]);
    expect(code).toBe(2);
    expect(stderr).toContain(`${settingsFile}:3:3: cannot read it (CommaExpected); nothing was written`);
    expect(existsSync(path.join(site, 'schemas'))).toBe(false);
    expect(readFileSync(path.join(contentDir, 'data/rates.yaml'), 'utf8')).toBe(before);
    // A folder where the file goes: named, nothing written either.
    rmSync(settingsFile);
    mkdirSync(settingsFile);
    const folder = await runMain(['schemas', '-c', contentDir]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain(`${settingsFile} is not a file (a folder); nothing was written`);
    expect(existsSync(path.join(site, 'schemas'))).toBe(false);
    // An empty file is no settings yet: written.
    rmSync(settingsFile, { recursive: true });
    writeFileSync(settingsFile, '');
    expect((await runMain(['schemas', '-c', contentDir])).code).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(settingsFile, 'utf8'))['yaml.schemas'])).toContain('./schemas/data/rates.schema.json');
  });

  it('[R-OPS-11] `site schemas -c <folder>` writes schemas/ and .vscode/settings.json beside that folder, never over this project\'s own', async () => {
    const contentDir = copyContent();
    const site = path.dirname(contentDir);
    const own = ['schemas/site.schema.json', '.vscode/settings.json'].map((f) => [f, readFileSync(path.join(ROOT, f), 'utf8')] as const);
    const { code, stdout, stderr } = await runCli(['schemas', '-c', contentDir]);
    expect(code, stderr).toBe(0);
    for (const [f, text] of own) expect(readFileSync(path.join(ROOT, f), 'utf8'), f).toBe(text);
    expect(stdout).toContain(path.join(path.relative(ROOT, site), '.vscode/settings.json'));
    const settings = JSON.parse(readFileSync(path.join(site, '.vscode/settings.json'), 'utf8'));
    expect(settings['yaml.schemas']['./schemas/data/rates.schema.json']).toEqual(['content/data/rates.yaml']);
    // Each file's schema line names the schema beside its own content folder.
    const line = /^# yaml-language-server: \$schema=(.+)$/m.exec(readFileSync(path.join(contentDir, 'data/rates.yaml'), 'utf8'))![1]!;
    expect(path.resolve(contentDir, 'data', line)).toBe(path.join(site, 'schemas/data/rates.schema.json'));
    expect(existsSync(path.join(site, 'schemas/data/rates.schema.json'))).toBe(true);
  });

  it('[R-OPS-11] .vscode/extensions.json recommends the YAML extension (redhat.vscode-yaml), and nothing else', () => {
    const file = path.join(ROOT, '.vscode/extensions.json');
    expect(existsSync(file), '.vscode/extensions.json').toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8')).recommendations).toEqual(['redhat.vscode-yaml']);
  });

  it('[R-OPS-11] the "site check" task of .vscode/tasks.json puts every front-matter error of a real failing `site check` in the Problems panel: file (under content/), line, column, severity, code, message', async () => {
    const file = path.join(ROOT, '.vscode/tasks.json');
    expect(existsSync(file), '.vscode/tasks.json').toBe(true);
    const task = (JSON.parse(readFileSync(file, 'utf8')) as { tasks: { label: string; command: string; options?: { env?: Record<string, string> }; problemMatcher: Matcher | Matcher[] }[] }).tasks.find((t) => t.label === 'site check')!;
    expect(task.command).toBe('npx site check');
    // Without colours, so the matcher sees the plain `file:line:column: error [code] message` line (a task's terminal is a TTY).
    expect(task.options?.env?.NO_COLOR).toBe('1');
    const matchers = [task.problemMatcher].flat();
    expect(matchers[0]!.fileLocation).toEqual(['relative', '${workspaceFolder}/content']);

    // An operator's mistakes in a post's front matter: a date in words, a misspelt key.
    const contentDir = copyContent();
    const workspace = path.dirname(contentDir);
    const post = 'blog/a-weekend-on-the-riviera/en.md';
    edit(contentDir, post, /^date: 2025-09-24$/m, 'date: yesterday');
    edit(contentDir, post, /^author: /m, 'autor: ');
    const { code, stdout, stderr } = await runCli(['check', '--content', contentDir], { NO_COLOR: '1', FORCE_COLOR: '' });
    expect(code).toBe(1);
    const found = problems(matchers, `${stdout}\n${stderr}`, workspace);
    // One problem per diagnostic: the code frames under each are not matched.
    expect(Number(/(\d+) problem\(s\)/.exec(stderr)![1])).toBe(found.length);
    expect(found).toEqual([
      { file: post, path: path.join(contentDir, post), line: 4, column: 7, severity: 'error', code: 'schema', message: expect.stringMatching(/^date: expected a date written YYYY-MM-DD, found the text "yesterday"/) },
      // A missing field is placed at the front matter's first line.
      { file: post, path: path.join(contentDir, post), line: 2, column: 1, severity: 'error', code: 'schema', message: expect.stringMatching(/^author: missing required field/) },
      { file: post, path: path.join(contentDir, post), line: 6, column: 1, severity: 'error', code: 'schema', message: expect.stringMatching(/^autor: unknown key "autor"/) },
    ]);
    for (const p of found) expect(readFileSync(p.path, 'utf8').split('\n')[p.line - 1], `${p.file}:${p.line}`).toMatch(/^(date|title|autor): /);

    // Warnings (indented on stdout) and a line without a column; a template's file is under the workspace, not content/.
    const lines = [
      `  ${formatDiagnostic({ severity: 'warning', code: 'missing-translation', file: 'i18n/es.yaml', line: 12, message: 'not translated' })}`,
      formatDiagnostic({ severity: 'error', code: 'template', file: 'templates/pages/Home.tsx', line: 3, column: 9, message: 'Expected ";"' }),
    ].join('\n');
    expect(problems(matchers, lines, workspace)).toEqual([
      { file: 'i18n/es.yaml', path: path.join(contentDir, 'i18n/es.yaml'), line: 12, column: undefined, severity: 'warning', code: 'missing-translation', message: 'not translated' },
      { file: 'templates/pages/Home.tsx', path: path.join(workspace, 'templates/pages/Home.tsx'), line: 3, column: 9, severity: 'error', code: 'template', message: 'Expected ";"' },
    ]);
  });
});
