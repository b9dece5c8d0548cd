/**
 * [R-INC-2] What a watch session keeps of unchanged text tables between rebuilds: each table's
 * flat form (content/load.ts flatTable), the messages' checks (content/message-checks.ts) and the
 * model's typed city lists (templates/model/references.ts) are taken from the last rebuild while
 * the tables are the same. A rebuild after another edit must still report everything a fresh
 * session reports, in the same order, and a table edited is checked again.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fresh } from '../helpers/incremental.ts';
import { edit, EPOCH } from '../helpers/site.ts';
import { WatchSession } from '../../src/watch/session.ts';
import { buildDate, resolveConfig } from '../../src/config.ts';

const sessionOf = (content: string, dev: string) => new WatchSession({ ...resolveConfig({ content, out: dev, quiet: true }), today: buildDate({ SOURCE_DATE_EPOCH: EPOCH }) });
/** What a session that has kept nothing says about the content as it is now. */
const coldReport = (content: string) => sessionOf(content, path.join(path.dirname(content), `cold-${Math.random().toString(36).slice(2)}`)).rebuild([]);
const firstPost = (content: string) => `blog/${readdirSync(path.join(content, 'blog')).sort()[0]}/en.md`;
let round = 0;
const touchPost = (content: string) => {
  const rel = firstPost(content);
  edit(content, rel, /^title: .*$/m, `title: "A night at the opera, take ${++round}"`);
  return path.join(content, rel);
};

describe('[R-INC-2] a watch session reports the unchanged tables\' findings on every rebuild', () => {
  it('a typed list of cities: warned on the first rebuild, again after a post edit, gone once the text is fixed (as a fresh session says)', async () => {
    const { content } = fresh();
    const table = path.join(content, 'i18n/en.yaml');
    edit(content, 'i18n/en.yaml', /^( {2}madeWith: ).*$/m, '$1"Made in Madrid, Athens and Monaco"');
    const session = sessionOf(content, path.join(path.dirname(content), 'dev'));
    const start = await session.rebuild([]);
    expect(start.ok, start.error).toBe(true);
    expect(start.warningList!.filter((w) => w.includes('[city-list]'))).toHaveLength(1);
    expect(start.warningList).toEqual((await coldReport(content)).warningList);

    const post = await session.rebuild([touchPost(content)]);
    expect(post.ok, post.error).toBe(true);
    expect(post.warningList).toEqual(start.warningList);

    edit(content, 'i18n/en.yaml', /^( {2}madeWith: ).*$/m, '$1"Made in {cities:names}"');
    const fixed = await session.rebuild([table]);
    expect(fixed.ok, fixed.error).toBe(true);
    expect(fixed.warningList!.filter((w) => w.includes('[city-list]'))).toEqual([]);
    expect(fixed.warningList).toEqual((await coldReport(content)).warningList);
  });

  it('a literal price and a value that is not a text: errors on the first rebuild, again after a post edit, gone once fixed', async () => {
    const { content } = fresh();
    const table = path.join(content, 'i18n/es.yaml');
    edit(content, 'i18n/es.yaml', /^( {2}madeWith: ).*$/m, '$1"Desde 250 € la hora"\n  strayList: [1, 2]');
    const session = sessionOf(content, path.join(path.dirname(content), 'dev'));
    const start = await session.rebuild([]);
    expect(start.ok).toBe(false);
    expect(start.error).toMatch(/i18n\/es\.yaml:\d+:\d+: error \[message\] footer\.madeWith: states a price literally/);
    expect(start.error).toMatch(/i18n\/es\.yaml:\d+:\d+: error \[schema\] footer\.strayList: expected a text or a group of texts/);
    expect(start.error).toBe((await coldReport(content)).error);

    const post = await session.rebuild([touchPost(content)]);
    expect(post.ok).toBe(false);
    expect(post.error).toBe(start.error);

    edit(content, 'i18n/es.yaml', /^( {2}madeWith: ).*\n {2}strayList: .*$/m, '$1"Hecho en Madrid"');
    const fixed = await session.rebuild([table]);
    expect(fixed.ok, fixed.error).toBe(true);
    expect(fixed.warningList).toEqual((await coldReport(content)).warningList);
  });
});
