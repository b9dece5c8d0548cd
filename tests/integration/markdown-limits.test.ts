/** R-SAFE-14: a post whose markdown is beyond the renderer's limits fails the build with an error naming the post. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/diagnostics.ts';
import { MAX_LAZY_RUNS, MAX_TABLE_COLUMNS } from '../../src/content/markdown.ts';
import { copyContent, edit } from '../helpers/site.ts';
import { renderErrors } from '../helpers/render.ts';

describe('[R-SAFE-14] markdown beyond the limits', () => {
  it('R-SAFE-14: a table too wide to render is a render error naming the post file and what to change', async () => {
    const content = copyContent();
    const slug = readdirSync(path.join(content, 'blog')).sort()[0]!;
    const columns = MAX_TABLE_COLUMNS * 10;
    edit(content, `blog/${slug}/en.md`, /\n*$/, `\n\n|${'a|'.repeat(columns)}\n|${'-|'.repeat(columns)}\n${'|b|c|\n'.repeat(2000)}`);
    const err = await renderErrors(content);
    const report = err.diagnostics.map((d) => formatDiagnostic(d)).join('\n');
    expect(err.stage).toBe('render');
    // At the table's header line, the front matter counted (the post's own lines, read back).
    const line = readFileSync(path.join(content, `blog/${slug}/en.md`), 'utf8').split('\n').indexOf(`|${'a|'.repeat(columns)}`) + 1;
    expect(line).toBeGreaterThan(1);
    expect(report).toContain(`blog/${slug}/en.md:${line}: error [render] /blog/${slug}: markdown: a table of ${columns} columns; tables may have at most ${MAX_TABLE_COLUMNS}: split it`);
    expect(report).not.toContain('Please report this');
  });

  it('R-SAFE-14: a block quote of too many lazy runs, inside a list, is an error at the line where the quote starts', async () => {
    const content = copyContent();
    const slug = readdirSync(path.join(content, 'blog')).sort()[0]!;
    const runs = MAX_LAZY_RUNS + 5;
    const opening = '> a quote opened here';
    edit(content, `blog/${slug}/en.md`, /\n*$/, `\n\n- an item\n\n  ${opening}\n${'  > quoted\n  lazy\n'.repeat(runs)}`);
    const err = await renderErrors(content);
    const report = err.diagnostics.map((d) => formatDiagnostic(d)).join('\n');
    const line = readFileSync(path.join(content, `blog/${slug}/en.md`), 'utf8').split('\n').indexOf(`  ${opening}`) + 1;
    expect(line).toBeGreaterThan(1);
    expect(report).toContain(`blog/${slug}/en.md:${line}: error [render] /blog/${slug}: markdown: a block quote in this post has`);
  });
});
