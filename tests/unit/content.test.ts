import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Diagnostics, codeFrame, formatDiagnostic } from '../../src/diagnostics.ts';
import { parseYaml } from '../../src/content/yaml.ts';
import { validate } from '../../src/content/validate.ts';
import { addMonths } from '../../templates/model/helpers.ts';
import { createTranslate, flattenTexts } from '../../src/content/texts.ts';
import { createMessages } from '../../src/content/messages.ts';
import { createMarkdown } from '../../src/content/markdown.ts';
import { buildDate } from '../../src/config.ts';
import { splitFrontMatter } from '../../src/content/post-body.ts';

describe('YAML with positions', () => {
  it('[R-BUILD-2] maps a schema error deep in a list back to its line and column', () => {
    const diags = new Diagnostics();
    const source = 'items:\n  - name: a\n    size: 1\n  - name: b\n    size: big\n';
    const file = parseYaml('data/x.yaml', source, diags)!;
    const schema = z.strictObject({ items: z.array(z.strictObject({ name: z.string(), size: z.number() })) });
    expect(validate(file, schema, diags)).toBeUndefined();
    const [d] = diags.errors;
    expect(d).toMatchObject({ file: 'data/x.yaml', line: 5, column: 11, field: 'items[1].size' });
    expect(d!.message).toBe('expected number, found the text "big"');
    expect(formatDiagnostic(d!)).toMatch(/^data\/x\.yaml:5:11: error \[schema\] items\[1\]\.size: expected number/);
  });

  it('[R-BUILD-2] an unknown choice of a discriminated union (analytics.provider) reads as a list of the choices', () => {
    const diags = new Diagnostics();
    const file = parseYaml('site.yaml', 'analytics:\n  provider: ga5\n', diags)!;
    const schema = z.strictObject({ analytics: z.discriminatedUnion('provider', [z.strictObject({ provider: z.literal('none') }), z.strictObject({ provider: z.literal('ga4') })]) });
    expect(validate(file, schema, diags)).toBeUndefined();
    const [d] = diags.errors;
    expect(d).toMatchObject({ line: 2, field: 'analytics.provider' });
    expect(d!.message).toMatch(/^expected one of .*none.*ga4.*, found the text "ga5"$/);
    expect(d!.message).not.toMatch(/Invalid|Expected/);
  });

  it('[R-BUILD-2] reports malformed YAML and duplicate keys with their line', () => {
    const diags = new Diagnostics();
    expect(parseYaml('a.yaml', 'a: 1\na: 2\n', diags)).toBeUndefined();
    expect(diags.errors[0]).toMatchObject({ file: 'a.yaml', line: 2, code: 'yaml' });
  });

  it('offsets lines of front matter by the opening ---', () => {
    const diags = new Diagnostics();
    const file = parseYaml('p.md', 'title: x\ndate: 5\n', diags, 1)!;
    expect(file.locate(['date'])).toEqual({ line: 3, column: 7 });
  });

  it('draws a code frame with a marker under the column', () => {
    expect(codeFrame('one\ntwo\nthree', 2, 3)).toBe('    1 | one\n  > 2 | two\n      |   ^\n    3 | three');
  });
});

describe('front matter', () => {
  it('splits a post at the first line that is only --- (CRLF, trailing spaces, empty, --- in a value)', () => {
    expect(splitFrontMatter('---\ntitle: a\n---\nbody\n')).toEqual({ matter: 'title: a\n', body: 'body\n' });
    expect(splitFrontMatter('---\r\ntitle: a\r\n---\r\nbody\r\n')).toEqual({ matter: 'title: a\r\n', body: 'body\r\n' });
    expect(splitFrontMatter('---\ntitle: a\n---  \n\nbody')).toEqual({ matter: 'title: a\n', body: '\nbody' });
    expect(splitFrontMatter('---\n---\nbody')).toEqual({ matter: '', body: 'body' });
    expect(splitFrontMatter('---\ntitle: a\n---')).toEqual({ matter: 'title: a\n', body: '' });
    expect(splitFrontMatter('---\na: "x --- y"\nb: ----\n---\ntext\n---\nmore')).toEqual({ matter: 'a: "x --- y"\nb: ----\n', body: 'text\n---\nmore' });
  });

  it('has nothing to split when the front matter is not closed or not first', () => {
    expect(splitFrontMatter('---\ntitle: a\n')).toBeUndefined();
    expect(splitFrontMatter('title: a\n---\nbody')).toBeUndefined();
    expect(splitFrontMatter('\n---\ntitle: a\n---\n')).toBeUndefined();
  });
});

describe('dates', () => {
  it('[R-BUILD-5] adds months, clamping to the end of shorter months', () => {
    expect(addMonths('2025-07-15', 3)).toBe('2025-10-15');
    expect(addMonths('2025-11-30', 3)).toBe('2026-02-28');
    expect(addMonths('2024-11-30', 3)).toBe('2025-02-28');
  });

  it('[R-BUILD-11] takes today from SOURCE_DATE_EPOCH, else the clock, and rejects garbage', () => {
    expect(buildDate({ SOURCE_DATE_EPOCH: '0' })).toBe('1970-01-01');
    expect(buildDate({}, Date.UTC(2026, 10, 22, 12))).toBe('2026-11-22');
    expect(() => buildDate({ SOURCE_DATE_EPOCH: 'yesterday' })).toThrow(/whole seconds/);
  });
});

describe('text tables', () => {
  it('[R-UI-19] flattens nested keys and shows a missing key as the key itself', () => {
    const bad: string[] = [];
    const table = flattenTexts({ a: { b: 'B {x}', c: 3 }, d: ['no'] }, (k) => bad.push(k));
    // A number is not a text: YAML reads `10.000` as 10 (load.ts reports it with the quotes it needs).
    expect(table).toEqual({ 'a.b': 'B {x}' });
    expect(bad).toEqual(['a.c', 'd']);
    const missing: string[] = [];
    const t = createTranslate((k) => missing.push(k), createMessages(table, 'en', new Map(), 'EUR'));
    expect(t('a.b', { x: 1 })).toBe('B 1');
    expect(t('nope.key')).toBe('nope.key');
    expect(missing).toEqual(['nope.key']);
  });
});

describe('markdown', () => {
  const md = createMarkdown();
  it('[R-SEO-9] escapes raw HTML and drops javascript: links', () => {
    const html = md('<script>alert(1)</script>\n\n[a](javascript:alert(1)) [b](/booking)');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('javascript:');
    // Same-site links are left for the render stage, which sends them to the post's language.
    expect(html).toContain('<a data-site-href="/booking">b</a>');
  });

  it('[R-OPS-4] post text cannot forge the render markers: raw HTML is escaped', () => {
    const html = md('<a data-site-href="//evil.example">x</a> <img data-site-image="/images/x.svg" alt="">');
    expect(html).not.toContain('<a data-site-href');
    expect(html).not.toContain('<img data-site-image');
  });

  it('[R-OPS-4] //host and /\\host are external links (rel noopener), never same-site', () => {
    const html = md('[a](//evil.example/x) [b](/\\evil.example/y)');
    expect(html).toContain('<a href="//evil.example/x" rel="noopener noreferrer" target="_blank">a</a>');
    expect(html).toContain('<a href="/\\evil.example/y" rel="noopener noreferrer" target="_blank">b</a>');
    expect(html).not.toContain('data-site-');
  });

  it('[R-OPS-4] repeated headings get unique ids, per post', () => {
    const html = md('## Notes\n\n## Notes\n\n## Notes');
    expect([...html.matchAll(/id="([^"]+)"/g)].map((m) => m[1])).toEqual(['notes', 'notes-1', 'notes-2']);
    expect(md('## Notes')).toContain('id="notes"');
  });

  it('shifts headings below the page title and gives them ids', () => {
    expect(md('## Cena en Madrid')).toBe('<h3 id="cena-en-madrid">Cena en Madrid</h3>\n');
    expect(md('## Ужин в Мадриде')).toContain('id="ужин-в-мадриде"');
  });
});

describe('[R-OPS-2] city time zones', () => {
  it('accepts every IANA zone the platform knows (three-part names, UTC), refuses others; the same check as `site new city`', async () => {
    const { isTimeZone } = await import('../../src/content/schema.ts');
    const { citiesSchema } = await import('../../templates/model/schemas.ts');
    const city = (timezone: string) => citiesSchema.safeParse([{ id: 'x', path: '/x', timezone, status: 'active' }]).success;
    for (const zone of ['Europe/Madrid', 'America/Argentina/Buenos_Aires', 'America/Port-au-Prince', 'UTC']) {
      expect(city(zone), zone).toBe(true);
      expect(isTimeZone(zone), zone).toBe(true);
    }
    for (const zone of ['Mars/Olympus_Mons', 'Europe/Madird', '']) expect(city(zone), zone).toBe(false);
  });
});
