/**
 * [R-INC-2][R-BUILD-7] A watch session after post body edits: only the edited posts' pages are keyed
 * and rendered again (the keys of every other route, and of every layout piece, hold when no post
 * changed as other pages see it), and the output stays what a cold build of the same content
 * writes, through a rebuild that failed in between (its edits are keyed by the next one).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_TABLE_COLUMNS } from '../../src/content/markdown.ts';
import { buildDate, resolveConfig } from '../../src/config.ts';
import { WatchSession } from '../../src/watch/session.ts';
import { differencesFromCold, fresh } from '../helpers/incremental.ts';
import { edit, EPOCH } from '../helpers/site.ts';

describe('[R-INC-2][R-BUILD-7] post edits in a watch session', () => {
  it('a body edit renders that post alone; a failed rebuild\'s edits are rendered by the next; a title edit renders its lists; each as a cold build', async () => {
    const { content, out } = fresh({ english: true });
    const session = new WatchSession({ ...resolveConfig({ content, out, quiet: true }), today: buildDate({ SOURCE_DATE_EPOCH: EPOCH }) });
    const start = await session.rebuild([]);
    expect(start.ok, start.error).toBe(true);
    const [a, b] = readdirSync(path.join(content, 'blog')).sort().map((slug) => `blog/${slug}/en.md`);
    const abs = (rel: string) => path.join(content, rel);

    edit(content, a!, /\n*$/, '\n\nA paragraph added while watching.\n');
    const one = await session.rebuild([abs(a!)]);
    expect(one.ok, one.error).toBe(true);
    expect(one.rendered).toBe(1);
    expect(await differencesFromCold(content, out)).toEqual([]);

    // b breaks the build (a table too wide to render); a is edited again while it is broken.
    const columns = MAX_TABLE_COLUMNS + 1;
    const wide = `\n\n|${'a|'.repeat(columns)}\n|${'-|'.repeat(columns)}\n`;
    edit(content, b!, /\n*$/, wide);
    expect((await session.rebuild([abs(b!)])).ok).toBe(false);
    edit(content, a!, 'A paragraph added while watching.', 'A paragraph edited while another post was broken.');
    expect((await session.rebuild([abs(a!)])).ok).toBe(false);
    edit(content, b!, wide, '\n');
    const fixed = await session.rebuild([abs(b!)]);
    expect(fixed.ok, fixed.error).toBe(true);
    expect(fixed.rendered).toBe(1); // a again; b is back as the last good build has it
    expect(await differencesFromCold(content, out)).toEqual([]);

    edit(content, a!, /^title: .*$/m, 'title: "A title edited while watching"');
    const titled = await session.rebuild([abs(a!)]);
    expect(titled.ok, titled.error).toBe(true);
    expect(titled.rendered).toBeGreaterThan(1);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });
});
