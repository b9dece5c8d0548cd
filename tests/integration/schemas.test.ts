/** JSON Schemas for editors: committed schemas match the zod schema, and the shipped content validates. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { contentSchemas, schemaText } from '../../src/content/json-schemas.ts';
import { splitFrontMatter } from '../../src/content/load.ts';
import { model } from '../../templates/model/index.ts';
import { ROOT, SHIPPED_CONTENT } from '../helpers/site.ts';

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
    expect(Object.keys(vscode['yaml.schemas']).sort()).toEqual(contentSchemas(model).map((s) => `./schemas/${s.file}`).sort());
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
