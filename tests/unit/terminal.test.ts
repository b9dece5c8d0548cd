/** R-OPS-11: colours as terminals expect (NO_COLOR, FORCE_COLOR, a TTY), details only with --verbose. */
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, useColor, type Diagnostic } from '../../src/diagnostics.ts';

const tty = { isTTY: true };
const pipe = { isTTY: false };

describe('[R-OPS-11] terminal output', () => {
  it('colours on a terminal only, NO_COLOR turns them off, FORCE_COLOR on (0 off), a dumb terminal gets none', () => {
    expect(useColor(tty, {})).toBe(true);
    expect(useColor(pipe, {})).toBe(false);
    expect(useColor(tty, { NO_COLOR: '1' })).toBe(false);
    expect(useColor(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(useColor(tty, { FORCE_COLOR: '0' })).toBe(false);
    expect(useColor(tty, { TERM: 'dumb' })).toBe(false);
  });

  it('a warning is one short line; its details show with --verbose; colour marks the severity', () => {
    const d: Diagnostic = { severity: 'warning', code: 'sample', file: 'site.yaml', message: '3 sample value(s) still in use: a, b, c (--verbose lists each)', details: ['a = "1"', 'b = "2"', 'c = "3"'] };
    expect(formatDiagnostic(d)).toBe('site.yaml: warning [sample] 3 sample value(s) still in use: a, b, c (--verbose lists each)');
    expect(formatDiagnostic(d, { verbose: true }).split('\n')).toEqual([formatDiagnostic(d), '      a = "1"', '      b = "2"', '      c = "3"']);
    expect(formatDiagnostic(d, { color: true })).toContain('\x1b[33mwarning [sample]\x1b[0m');
    expect(formatDiagnostic({ ...d, severity: 'error' }, { color: true })).toContain('\x1b[31merror [sample]\x1b[0m');
    // Content never carries escapes into the terminal, coloured or not.
    expect(formatDiagnostic({ ...d, message: 'x\x1b[2Jy' }, { color: true })).toContain('x\\x1b[2Jy');
  });
});
