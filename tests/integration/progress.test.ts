/** A build shows progress of its long stages in a log (no terminal), and nothing with --quiet. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyContent, listFiles, runCli, tmpDir } from '../helpers/site.ts';

describe('[R-BUILD-1] build progress without a terminal', () => {
  it('prints plain image and page progress lines (test hook: a line for every step), none with --quiet', async () => {
    const content = copyContent();
    const images = listFiles(path.join(content, 'images')).length;
    const env = { SITE_PROGRESS_INTERVAL_MS: '0' };
    const r = await runCli(['build', '--content', content, '--out', path.join(tmpDir(), 'dist')], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('\r');
    const imageLines = r.stderr.split('\n').filter((l) => l.startsWith('images: '));
    expect(imageLines.length).toBeGreaterThan(1);
    expect(imageLines.at(-1)).toMatch(/^images: (\d+)\/\1 \(100%\) done in [\d.]+ s$/);
    expect(Number(/^images: (\d+)/.exec(imageLines.at(-1)!)![1])).toBeLessThanOrEqual(images);
    expect(r.stderr).toMatch(/^pages: \d+\/\d+ \(\d+%\)$/m);
    expect(r.stderr).toMatch(/^pages: (\d+)\/\1 \(100%\) done in [\d.]+ s$/m);
    const quiet = await runCli(['build', '--quiet', '--content', content, '--out', path.join(tmpDir(), 'dist')], env);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
  });
});
