/**
 * [R-OPS-6] The scaffolding commands edit the operator's YAML in place (src/commands/yaml-edit.ts):
 * what they add is spliced in, and every other byte stays as written (escapes, quotes, flow lists,
 * comments). A layout the splicing cannot handle is written whole, still as the command meant.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { YamlEdit } from '../../src/commands/yaml-edit.ts';

const TABLE = `# A text table (header comment)
lang:
  name: English
  locale: en-GB # the locale
booking:
  advance: "Book {hours, plural, one {#\\u00a0hour} other {#\\u00a0hours}} ahead."
  plain: Plain text here
  quoted: 'It''s single-quoted'
city:
  madrid:
    name: Madrid

    title: "Madrid\\u00a0evenings"
  athens: { name: Athens, title: 'Athens' }
# trailing comment
`;

const CITIES = `# Cities
- id: madrid
  timeline:
    - { id: launch, due: 2025-06-30 }
- id: athens # second
  timeline: []
`;

/** The lines of `before`, in order, all present in `after` (nothing changed or lost, only lines added). */
function onlyAdded(before: string, after: string): boolean {
  const lines = after.split('\n');
  let i = 0;
  for (const line of before.split('\n')) {
    while (i < lines.length && lines[i] !== line) i++;
    if (i++ >= lines.length) return false;
  }
  return true;
}

describe('[R-OPS-6] YAML edited in place by the scaffolding commands', () => {
  it('appends an item to a top-level block list: the rest byte for byte, the item in the list style', () => {
    const edit = new YamlEdit(CITIES);
    edit.append([], { id: 'vienna', path: '/vienna', draft: true });
    const out = edit.toString();
    expect(onlyAdded(CITIES, out)).toBe(true);
    expect(out).toContain('- id: vienna\n  path: /vienna\n  draft: true\n');
    expect(parse(out).at(-1)).toEqual({ id: 'vienna', path: '/vienna', draft: true });
  });

  it('puts a key into a nested block map, and makes the maps on the way that are missing', () => {
    const edit = new YamlEdit(TABLE);
    edit.put(['city'], 'vienna', { name: 'Vienna', title: 'Vienna' });
    edit.put(['page'], 'vienna', { title: 'Vienna' });
    const out = edit.toString();
    expect(onlyAdded(TABLE, out)).toBe(true);
    // The escapes are still escapes: not written as invisible no-break spaces.
    expect(out).toContain('#\\u00a0hour');
    expect(out).not.toContain('\u00a0');
    expect(parse(out).city.vienna).toEqual({ name: 'Vienna', title: 'Vienna' });
    expect(parse(out).page).toEqual({ vienna: { title: 'Vienna' } });
    expect(() => new YamlEdit(TABLE).put(['city'], 'madrid', { name: 'X' })).toThrow(/city\.madrid is there already/);
  });

  it('adds to flow lists and maps in their own style', () => {
    const site = 'languages: [en, es]\ndraftLanguages: []\nextra: { a: 1 }\n';
    const edit = new YamlEdit(site);
    edit.append(['languages'], 'ru');
    edit.append(['draftLanguages'], 'de');
    edit.put(['extra'], 'b', 2);
    expect(edit.toString()).toBe('languages: [en, es, ru]\ndraftLanguages: [de]\nextra: { a: 1, b: 2 }\n');
  });

  it('marks every text where it is written: escapes and quoting kept, plain texts quoted', () => {
    const edit = new YamlEdit(TABLE);
    const mark = (t: string) => (t.startsWith('[x] ') ? t : `[x] ${t}`);
    expect(edit.markStrings(mark)).toBe(9);
    edit.replaceString(['lang', 'name'], 'Deutsch');
    const out = edit.toString();
    expect(out).toContain('advance: "[x] Book {hours, plural, one {#\\u00a0hour} other {#\\u00a0hours}} ahead."');
    expect(out).toContain('plain: "[x] Plain text here"');
    expect(out).toContain("quoted: '[x] It''s single-quoted'");
    expect(out).toContain('name: "Deutsch"');
    expect(out).toContain('locale: "[x] en-GB" # the locale');
    expect(out).toContain('# trailing comment');
    expect(parse(out).city.athens).toEqual({ name: '[x] Athens', title: '[x] Athens' });
  });

  it('marks block texts on their first line', () => {
    const edit = new YamlEdit('intro: |\n  First line.\n  Second.\nfolded: >-\n  One\n  two.\n');
    edit.markStrings((t) => `[x] ${t}`);
    expect(edit.toString()).toBe('intro: |\n  [x] First line.\n  Second.\nfolded: >-\n  [x] One\n  two.\n');
  });

  it('a block text whose first line starts with spaces, or whose header sets the indentation, is marked as a quoted text; the rest stays', () => {
    const source = 'a: "x\\u00a0y"\nb: |2\n      indented first\n    second\nc: |\n\n  after a blank line\nd: plain\n';
    const edit = new YamlEdit(source);
    edit.markStrings((t) => `[x] ${t}`);
    const out = edit.toString();
    expect(out).toContain('a: "[x] x\\u00a0y"\n');
    expect(out).toContain('d: "[x] plain"\n');
    expect(parse(out)).toEqual({ a: '[x] x\u00a0y', b: '[x]     indented first\n  second\n', c: '[x] \nafter a blank line\n', d: '[x] plain' });
  });

  it('a CRLF file stays CRLF: what is added ends its lines the same way', () => {
    const edit = new YamlEdit(CITIES.replace(/\n/g, '\r\n'));
    edit.append([], { id: 'vienna', path: '/vienna' });
    const table = new YamlEdit(TABLE.replace(/\n/g, '\r\n'));
    table.put(['city'], 'vienna', { name: 'Vienna' });
    table.markStrings((t) => `[x] ${t}`);
    for (const out of [edit.toString(), table.toString()]) {
      expect(out.replace(/\r\n/g, ''), 'a line ending in a bare LF').not.toContain('\n');
      expect(out).toContain('vienna');
    }
  });

  it('a layout the splicing does not handle is written whole, as the command meant', () => {
    // A flow map holding the key to add: its last pair ends inside the braces, so the splice
    // cannot go after it on a new line; the document is written whole, with the entry.
    const edit = new YamlEdit('city: { madrid: { name: Madrid } }\n');
    edit.put(['city'], 'vienna', { name: 'Vienna' });
    expect(parse(edit.toString())).toEqual({ city: { madrid: { name: 'Madrid' }, vienna: { name: 'Vienna' } } });
  });
});
