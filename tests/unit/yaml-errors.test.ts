/**
 * R-OPS-10: YAML mistakes in plain words, on the line of the mistake, one error per mistake, with
 * the fix. Cases from the operator's round (issue 24): a colon in an excerpt, a 3-space indent on
 * line 24 (reported at 23 by the parser), one tab (7 parser problems), and their siblings.
 */
import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../src/diagnostics.ts';
import { parseYaml } from '../../src/content/yaml.ts';

function errors(source: string, offset = 0) {
  const diags = new Diagnostics();
  expect(parseYaml('f.yaml', source, diags, offset)).toBeUndefined();
  return diags.errors.map((e) => ({ line: e.line, message: e.message }));
}

/** 22 ordinary lines, so the mistakes below sit on lines 23 and 24 as in the report. */
const lead = Array.from({ length: 11 }, (_, i) => `item${i}:\n  name: Name ${i}`).join('\n');

describe('[R-OPS-10] YAML errors an editor can act on', () => {
  it('a colon in an unquoted text: one error on its line, telling to put the text in quotes', () => {
    const e = errors('title: Dining in Madrid\nexcerpt: Three rules: book early, dress well\ndate: 2025-01-01\n');
    expect(e).toEqual([{ line: 2, message: expect.stringMatching(/"excerpt" contains ": ".*put the text in quotes because it contains ": "/) }]);
    // In a post's front matter the line counts from the file's first line.
    expect(errors('title: x\nexcerpt: a: b\n', 1)[0]!.line).toBe(3);
  });

  it('a 3-space indent on line 24: reported on line 24 (not 23), saying how far to indent', () => {
    const e = errors(`${lead}\nlast:\n  a: 1\n   b: 2\n  c: 3\n`);
    expect(e).toHaveLength(1);
    expect(e[0]!.line).toBe(lead.split('\n').length + 3);
    expect(e[0]!.message).toMatch(/indented 3 spaces.*indent this line like the one above \(2 spaces\)/);
  });

  it('an indent that matches no level: the line itself, with the nearest level', () => {
    const e = errors('a:\n  b:\n    c: 1\n   d: 2\n');
    expect(e).toEqual([{ line: 4, message: expect.stringMatching(/indented 3 spaces, which matches no line above it.*\((2|4) spaces\)/) }]);
  });

  it('one tab: one error on its line ("use spaces, not a tab"), not seven problems', () => {
    const e = errors('a:\n  b: 1\n\tc: 2\n  d: 3\n');
    expect(e).toEqual([{ line: 3, message: expect.stringMatching(/use spaces, not a tab/i) }]);
    // Two tab lines are two mistakes.
    expect(errors('a:\n\tb: 1\n\tc: 2\n').map((x) => x.line)).toEqual([2, 3]);
  });

  it('an unclosed quote is reported where it opens; a duplicate key names the key; a colon inside { } says quote it', () => {
    expect(errors('a: "hello\nb: 2\n')).toEqual([{ line: 1, message: expect.stringMatching(/never closed: add the closing "/) }]);
    expect(errors('name: a\nname: b\n')).toEqual([{ line: 2, message: expect.stringMatching(/"name" appears twice/) }]);
    expect(errors('- { id: x, text: a: b }\n')).toEqual([{ line: 1, message: expect.stringMatching(/put that text in quotes/) }]);
  });

  it('an unclosed [ or { is reported on its line; anything else still names its line, in the parser\'s words, once', () => {
    expect(errors('a: [1, 2\nb: 3\n')).toEqual([{ line: 1, message: expect.stringMatching(/never closed: add \]/) }]);
    expect(errors('x: 1\na: {y: 1\nb: 2\n')).toEqual([{ line: 2, message: expect.stringMatching(/never closed: add \}/) }]);
    const e = errors('a: b\n- c\n');
    expect(e).toHaveLength(1);
    expect(e[0]!.line).toBeGreaterThan(0);
  });
});
