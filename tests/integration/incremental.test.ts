/** A second build with nothing changed renders nothing and rewrites nothing. */
import { appendFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyContent, edit, listFiles, runCli, tmpDir } from '../helpers/site.ts';

describe('incremental builds', () => {
  it('carries unchanged output over (same files, same inodes), and rebuilds after any change', async () => {
    const content = copyContent();
    const out = path.join(tmpDir(), 'dist');
    const build = () => runCli(['build', '--content', content, '--out', out]);
    const first = await build();
    expect(first.stdout).toMatch(/^Built \d+ pages/);
    const files = listFiles(out);
    const inodes = files.map((f) => statSync(path.join(out, f)).ino);

    const second = await build();
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^Nothing changed since the last build: .* holds its \d+ files \(\d+ pages\) as they are; nothing rendered or written/);
    expect(second.stdout).toContain('warning'); // the last build's warnings are still reported
    expect(listFiles(out)).toEqual(files);
    // Hard links: the very same files, not rewritten copies.
    expect(files.map((f) => statSync(path.join(out, f)).ino)).toEqual(inodes);

    edit(content, 'blog/monaco-grand-prix/en.md', /^title: .*$/m, 'title: "Changed"');
    const third = await build();
    expect(third.stdout).toMatch(/^Built \d+ pages/);

    // A file put into the output by hand is never deleted: the build is refused (exit 2) and
    // names it (a new build would replace the folder holding it); moved away, the build goes on.
    writeFileSync(path.join(out, 'stray.txt'), 'x');
    const fourth = await build();
    expect(fourth.code).toBe(2);
    expect(fourth.stderr).toMatch(/holds 1 file\(s\) or folder\(s\) that no build wrote \(stray\.txt\)/);
    expect(listFiles(out)).toContain('stray.txt');
    rmSync(path.join(out, 'stray.txt'));
    expect((await build()).stdout).toMatch(/^Nothing changed/);
  });

  it('[R-INC-2] a host file edited by hand is written again by the next build, even with nothing else changed', async () => {
    const content = copyContent();
    const out = path.join(tmpDir(), 'dist');
    const build = () => runCli(['build', '--content', content, '--out', out]);
    expect((await build()).code).toBe(0);
    const host = `${out}.host`;
    const originals = new Map(readdirSync(host).map((f) => [f, readFileSync(path.join(host, f), 'utf8')]));
    expect(originals.has('rules.json')).toBe(true);
    for (const f of originals.keys()) appendFileSync(path.join(host, f), '\n# edited by hand\n');
    const next = await build();
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).not.toMatch(/^Nothing changed/);
    for (const [f, text] of originals) expect(readFileSync(path.join(host, f), 'utf8'), f).toBe(text);
    expect((await build()).stdout).toMatch(/^Nothing changed/);
  });
});
