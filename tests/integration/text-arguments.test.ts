/**
 * A text may only use the arguments the template showing it passes (issue 23): `{x}` in the consent
 * banner's text (`consent.short` today, `consent.text` when the issue was filed) would show "{x}" on
 * every page. It is an error naming the text file, line and key (R-VIS-6: ICU messages checked
 * with file and line).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/diagnostics.ts';
import { copyContent, edit } from '../helpers/site.ts';
import { renderErrors } from '../helpers/render.ts';

/** The 1-based line of `key:` in the `group:` block of a YAML text table. */
function lineOf(source: string, group: string, key: string): number {
  const lines = source.split('\n');
  const start = lines.findIndex((l) => l === `${group}:`);
  return start + 1 + lines.slice(start + 1).findIndex((l) => l.startsWith(`  ${key}:`)) + 1;
}

describe('[R-VIS-6] texts and the arguments templates pass', () => {
  it('an argument no template passes ({x} in the consent banner\'s text, a plural in its policy link) is an error naming the text file, line and key', async () => {
    const content = copyContent();
    edit(content, 'i18n/en.yaml', /^(consent:\n(?: {2}.*\n)*? {2}short: )"(.*)"$/m, '$1"$2 Questions? {x}"');
    edit(content, 'i18n/en.yaml', /^(consent:\n(?: {2}.*\n)*? {2}policy: )(.*)$/m, '$1"{n, plural, one {# policy} other {# policies}}"');
    const source = readFileSync(path.join(content, 'i18n/en.yaml'), 'utf8');
    const err = await renderErrors(content);
    const report = err.diagnostics.map((d) => formatDiagnostic(d)).join('\n');
    expect(err.stage).toBe('render');
    expect(report).toMatch(new RegExp(`^i18n/en\\.yaml:${lineOf(source, 'consent', 'short')}:\\d+: error \\[message\\] consent\\.short: uses \\{x\\}, which the template showing it does not pass .*it passes no arguments`, 'm'));
    expect(report).toMatch(new RegExp(`^i18n/en\\.yaml:${lineOf(source, 'consent', 'policy')}:\\d+: error \\[message\\] consent\\.policy: uses \\{n\\}, which the template showing it does not pass`, 'm'));
    // Each text once, however many pages show it.
    expect(err.diagnostics.filter((d) => d.field === 'consent.short')).toHaveLength(1);
  });
});
