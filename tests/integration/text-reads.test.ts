/**
 * [R-INC-1] [R-INC-2] Pages keyed on the texts they read, and layout pieces spliced (render/reads.ts,
 * output/pieces.ts, render/splice.ts): a text only the footer shows gives every page of its
 * language the new footer without rendering them again; a text one page shows renders that page;
 * a city's name reaches the texts that list cities through a fact. Each result is compared with a
 * cold build of the same content, file by file, and so are the cases where the record of what
 * pages read cannot be trusted (damaged, of another build, a page edited by hand).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, differencesFromCold, fresh, ok, recordFile, spawnBuild, summary, ownTemplates } from '../helpers/incremental.ts';
import { edit, EPOCH, listFiles } from '../helpers/site.ts';
import { WatchSession } from '../../src/watch/session.ts';
import { buildDate, resolveConfig } from '../../src/config.ts';

const readsFile = (out: string) => recordFile(out).replace(/\.json$/, '.reads.json');
const pagesOf = (out: string) => listFiles(out).filter((f) => f.endsWith('.html'));
const englishFooter = (out: string) => pagesOf(out).filter((f) => !/^(es|ru|el|fr)(\/|\.html$)/.test(f) && readFileSync(path.join(out, f), 'utf8').includes('class="site-footer'));
let round = 0;
const footerText = (content: string, lang = 'en') => edit(content, `i18n/${lang}.yaml`, /^( {2}madeWith: ).*$/m, `$1"Made in Madrid, edition ${++round}${'!'.repeat(round % 3)}"`);

describe('[R-INC-1] pages keyed on the texts they read; pieces spliced', () => {
  it('a text only the footer shows: one page rendered, every other English page given the new footer, twice in a row, as a cold build', async () => {
    const { content, out } = fresh({ english: true });
    await ok(build(content, out));
    const withFooter = englishFooter(out);
    expect(withFooter.length).toBeGreaterThan(10);
    for (let i = 0; i < 2; i++) {
      // The footer's length changes each time: the second splice works from where the first put the pieces.
      footerText(content);
      const s = summary(await ok(build(content, out)));
      expect(s).toMatchObject({ rendered: 1, spliced: withFooter.length - 1, pieces: 'footer' });
      expect(await differencesFromCold(content, out)).toEqual([]);
    }
    // Nothing changed since: the spliced build stands as it is.
    expect((await ok(build(content, out))).stdout).toMatch(/Nothing changed/);
  });

  it('a text one page shows renders the pages that read it, not every page of its language', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    const before = new Map(pagesOf(out).map((f) => [f, readFileSync(path.join(out, f))]));
    edit(content, 'i18n/es.yaml', /^(hero:\n(?: {2}.*\n)*? {2}title: )(.*)$/m, '$1Una compañía elegida con discreción');
    const s = summary(await ok(build(content, out)));
    const changed = pagesOf(out).filter((f) => !readFileSync(path.join(out, f)).equals(before.get(f)!));
    expect(changed.length).toBeGreaterThan(0);
    expect(s.rendered).toBeGreaterThanOrEqual(changed.length);
    expect(s.rendered).toBeLessThan(s.total / 10);
    expect(s.spliced).toBe(0);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it("a city's name changes the texts that list the cities through a fact ({cities:names}), and the footer", async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    // English: the WhatsApp message's language (es) shares its city names with every page.
    edit(content, 'i18n/en.yaml', /^( {2}madrid:\n {4}name: ).*$/m, '$1Madrid capital');
    const s = summary(await ok(build(content, out)));
    expect(s.rendered).toBeLessThan(s.total / 2); // English pages only
    expect(await differencesFromCold(content, out)).toEqual([]);
    // The pages whose texts list the cities show the new name (the blog's introduction does).
    expect(readFileSync(path.join(out, 'blog.html'), 'utf8')).toContain('Madrid capital');
  });

  it('a page edited by hand since it was published is rendered, not spliced (as a cold build)', async () => {
    const { content, out } = fresh({ english: true });
    await ok(build(content, out));
    const page = englishFooter(out).at(-1)!; // not the first page given the footer: that one is rendered to make it
    writeFileSync(path.join(out, page), readFileSync(path.join(out, page), 'utf8').replace('</footer>', '<p>hand edit</p></footer>'));
    footerText(content);
    const s = summary(await ok(build(content, out)));
    expect(s.rendered).toBe(2);
    expect(readFileSync(path.join(out, page), 'utf8')).not.toContain('hand edit');
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it.each<{ what: string; damage: (file: string, out: string) => void; renderedAll: boolean }>([
    {
      what: 'with pages whose pieces are not numbers',
      damage: (f) => {
        const reads = JSON.parse(readFileSync(f, 'utf8')) as { placed: Record<string, string> };
        for (const file of Object.keys(reads.placed)) reads.placed[file] = 'x,1';
        writeFileSync(f, JSON.stringify(reads));
      },
      renderedAll: true, // no page's pieces are known: any may show the changed one
    },
    { what: 'cut short', damage: (f) => writeFileSync(f, readFileSync(f, 'utf8').slice(0, 100)), renderedAll: true },
    { what: 'of another build', damage: (f) => writeFileSync(f, readFileSync(f, 'utf8').replace(/"build":"[^"]*"/, '"build":"1999-other"')), renderedAll: true },
    {
      what: 'placing pieces past the end of their pages',
      damage: (f) => {
        const reads = JSON.parse(readFileSync(f, 'utf8')) as { placed: Record<string, string> };
        for (const [file, placed] of Object.entries(reads.placed)) if (placed) reads.placed[file] = placed.replace(/\d+$/, '10000000');
        writeFileSync(f, JSON.stringify(reads));
      },
      renderedAll: false,
    },
  ])('a record of what pages read $what: no page is spliced from it, the output is a cold build', async ({ damage, renderedAll }) => {
    const { content, out } = fresh({ english: true });
    await ok(build(content, out));
    damage(readsFile(out), out);
    footerText(content);
    const s = summary(await ok(build(content, out)));
    expect(s.spliced).toBe(0);
    // Without the record, every page is keyed on its whole table (all differ); with pieces not
    // known, every page is rendered; out of bounds, every page that would have been spliced.
    if (renderedAll) expect(s.rendered).toBe(s.total);
    else expect(s.rendered).toBe(englishFooter(out).length);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('templates that list a text table (footer and a page): keyed on every text, so a new text reaches them (as a cold build)', async () => {
    const { content, out } = fresh({ english: true });
    const templates = ownTemplates(content);
    // The footer (a piece) and the About page count their language's texts by listing the table.
    edit(templates, 'components/Footer.tsx', "{t('footer.disclaimer')}</p>", "{t('footer.disclaimer')} ({Object.keys(ctx.site.texts[ctx.lang]!).length})</p>");
    edit(templates, 'pages/About.tsx', '<main id="main" tabIndex={-1}>', '<main id="main" tabIndex={-1} data-texts={Object.keys(ctx.site.texts[ctx.lang]!).length}>');
    await ok(build(content, out));
    const counted = /data-texts="(\d+)"/.exec(readFileSync(path.join(out, 'about.html'), 'utf8'))![1];
    // A text no template asks for by name: only the tables' listings see it.
    edit(content, 'i18n/en.yaml', /^footer:\n/m, 'footer:\n  unusedNote: A note no page names\n');
    const s = summary(await ok(build(content, out)));
    expect(s.spliced + s.rendered).toBeGreaterThanOrEqual(englishFooter(out).length);
    expect(readFileSync(path.join(out, 'about.html'), 'utf8')).toContain(`data-texts="${Number(counted) + 1}"`);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('pieces made on page workers: the build renders one page to make the changed piece, splices the rest (as a cold build)', async () => {
    const { content, out } = fresh({ english: true });
    const workers = { SITE_RENDER_THREADS: '3', SITE_MIN_PARALLEL_ROUTES: '1' };
    await ok(spawnBuild(content, out, [], workers));
    // The footer and a text on the home page: the home pages render on the workers, the footer is spliced.
    footerText(content);
    edit(content, 'i18n/en.yaml', /^(hero:\n(?: {2}.*\n)*? {2}title: )(.*)$/m, '$1A changed title');
    const r = await ok(spawnBuild(content, out, [], workers));
    expect(r.stdout).toMatch(/rendered on 3 threads/);
    expect(summary(r).spliced).toBeGreaterThan(0);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('site watch keys pages on the texts they read too: a text one page shows renders that page; a footer text, the pages showing the footer (as a cold build each time)', async () => {
    const { content, out } = fresh();
    const dev = path.join(path.dirname(out), 'dev');
    const session = new WatchSession({ ...resolveConfig({ content, out: dev, quiet: true }), today: buildDate({ SOURCE_DATE_EPOCH: EPOCH }) });
    const start = await session.rebuild([]);
    expect(start.ok, start.error).toBe(true);
    const total = start.rendered;
    const table = path.join(content, 'i18n/es.yaml');
    edit(content, 'i18n/es.yaml', /^(hero:\n(?: {2}.*\n)*? {2}title: )(.*)$/m, '$1Una compañía elegida con discreción');
    const one = await session.rebuild([table]);
    expect(one.ok, one.error).toBe(true);
    expect(one.rendered).toBeGreaterThan(0);
    expect(one.rendered).toBeLessThan(total / 10);
    expect(await differencesFromCold(content, dev)).toEqual([]);
    // The footer: every Spanish page showing it is rendered again (watch renders; it does not splice).
    edit(content, 'i18n/es.yaml', /^( {2}madeWith: ).*$/m, '$1"Hecho en Madrid, en directo"');
    const footer = await session.rebuild([table]);
    expect(footer.ok, footer.error).toBe(true);
    expect(footer.rendered).toBeGreaterThan(one.rendered);
    expect(await differencesFromCold(content, dev)).toEqual([]);
    // A text no page shows renders nothing.
    edit(content, 'i18n/es.yaml', /^footer:\n/m, 'footer:\n  unusedNote: Una nota que nadie muestra\n');
    expect((await session.rebuild([table])).rendered).toBe(0);
    expect(await differencesFromCold(content, dev)).toEqual([]);
  });
});
