/** Strict input helpers: calendar dates, printable diagnostics, code frames, text decoding, YAML alias caps. */
import { describe, expect, it } from 'vitest';
import { isRealDate } from '../../src/content/schema.ts';
import { codeFrame, Diagnostics, formatDiagnostic, printable } from '../../src/diagnostics.ts';
import { decodeText, MAX_CONTENT_BYTES } from '../../src/content/read.ts';
import { parseYaml } from '../../src/content/yaml.ts';

describe('[R-SAFE-4] input helpers', () => {
  it.each(['2025-02-30', '2026-13-45', '2025-04-31', '2023-02-29', '2025-00-10', '2025-01-00'])('[R-SAFE-4] %s is not a real date', (d) => {
    expect(isRealDate(d)).toBe(false);
  });
  it.each(['2024-02-29', '2025-12-31', '2025-01-01'])('[R-SAFE-4] %s is a real date', (d) => {
    expect(isRealDate(d)).toBe(true);
  });

  it('[R-SAFE-4] control characters are escaped in every part of a printed diagnostic', () => {
    const text = formatDiagnostic({ severity: 'error', code: 'x', file: 'a\u001b.yaml', line: 2, field: 'f\u0000', message: 'm\u001b[2J\u0007\u009b', frame: codeFrame('ok\nbad \u001b]0;t\u0007\n', 2) });
    // eslint-disable-next-line no-control-regex
    expect(text.replace(/\n/g, '')).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    expect(text).toContain('\\x1b[2J');
    expect(printable('a\tb')).toBe('a\tb'); // a tab is layout, kept
  });

  it('[R-SAFE-4] a code frame numbers lines as the file does (front matter starts on line 2)', () => {
    const frame = codeFrame('title: x\ndate: nope\n', 2, 7, 1);
    expect(frame).toMatch(/^ +> 3 \| date: nope$/m);
  });

  it('[R-SAFE-4] BOM dropped; NUL, invalid UTF-8 and oversize refused', () => {
    const diags = new Diagnostics();
    expect(decodeText('a.yaml', Buffer.from('\uFEFFkey: v\r\n'), diags)).toBe('key: v\r\n');
    expect(decodeText('b.yaml', Buffer.from([0x6b, 0x00, 0x1b]), diags)).toBeUndefined();
    expect(decodeText('c.yaml', Buffer.from([0xc3, 0x28]), diags)).toBeUndefined();
    expect(decodeText('d.yaml', Buffer.alloc(MAX_CONTENT_BYTES + 1, 0x61), diags)).toBeUndefined();
    expect(diags.errors.map((d) => d.code)).toEqual(['not-text', 'not-text', 'too-large']);
  });

  it('[R-SAFE-4] a YAML alias chain is refused; a little reuse is fine', () => {
    const diags = new Diagnostics();
    let bomb = 'a: &a [x, x, x, x, x, x, x, x, x]\n';
    for (const [prev, name] of [['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'e'], ['e', 'f']]) bomb += `${name}: &${name} [${Array(9).fill(`*${prev}`).join(', ')}]\n`;
    expect(parseYaml('t.yaml', bomb, diags)).toBeUndefined();
    expect(diags.errors[0]).toMatchObject({ code: 'yaml-aliases', file: 't.yaml', line: 2 });
    const ok = new Diagnostics();
    expect(parseYaml('u.yaml', 'base: &b { x: 1 }\ncopy: *b\n', ok)?.data).toEqual({ base: { x: 1 }, copy: { x: 1 } });
    expect(ok.errors).toEqual([]);
  });

  it('[R-SAFE-4] an alias that names no anchor before it is reported as such, on its own line (not as too much data)', () => {
    const diags = new Diagnostics();
    const source = 'base: &b { x: 1 }\ncopy: *b\nlater: *after\nafter: &after 2\n';
    expect(parseYaml('t.yaml', source, diags)).toBeUndefined();
    expect(diags.errors).toHaveLength(1);
    expect(diags.errors[0]).toMatchObject({ code: 'yaml', file: 't.yaml', line: 3, column: 8 });
    expect(diags.errors[0]!.message).toBe('the alias *after names no anchor (&after) before it in this file: set the anchor on the value first, or write the value out');
  });
});
