/**
 * [R-INC-1] [R-INC-2] Pages keyed on the data kinds they read (render/page.ts notes `site.data.<kind>`
 * and `site.facts`, routes/inputs.ts keys on those kinds' values): a price renders the pages that
 * show the rates (or a text naming a price), not every page; a data entry a page is made from
 * renders that page; a template listing the data kinds is keyed on all of them. Each result is
 * compared with a cold build of the same content, file by file.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, differencesFromCold, fresh, ok, summary, ownTemplates } from '../helpers/incremental.ts';
import { edit, listFiles } from '../helpers/site.ts';

const pagesOf = (out: string) => listFiles(out).filter((f) => f.endsWith('.html'));
const snapshot = (out: string) => new Map(pagesOf(out).map((f) => [f, readFileSync(path.join(out, f))]));
const changedSince = (out: string, before: Map<string, Buffer>) => pagesOf(out).filter((f) => !readFileSync(path.join(out, f)).equals(before.get(f) ?? Buffer.alloc(0)));

describe('[R-INC-1] pages keyed on the data they read', () => {
  it('a price renders the pages that show it, not every page, as a cold build', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    const before = snapshot(out);
    edit(content, 'data/rates.yaml', /price: (\d+)/, 'price: 1$1');
    const s = summary(await ok(build(content, out)));
    const changed = changedSince(out, before);
    expect(changed.length, 'pages showing the new price').toBeGreaterThan(0);
    expect(s.rendered + s.spliced).toBeGreaterThanOrEqual(changed.length);
    expect(s.rendered).toBeLessThan(s.total);
    // Posts show no price: none of them is rendered for it.
    expect(s.kept).toBeGreaterThanOrEqual(listFiles(out).filter((f) => /(^|\/)blog\/[^/]+\.html$/.test(f) && !f.includes('/category/')).length);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it("a city's entry (its areas) renders its page, made from that entry, and the pages that read the cities: as a cold build", async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    const before = snapshot(out);
    edit(content, 'data/cities.yaml', /^( {2}areas: \[)([^,\]]+), ([^\]]*)\]$/m, '$1$3, $2]');
    const s = summary(await ok(build(content, out)));
    expect(changedSince(out, before).length).toBeGreaterThan(0);
    expect(s.rendered).toBeLessThan(s.total);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it("a city page's path: every page linking it, and the sitemap and host rules, as a cold build", async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    // The first city's path, and every reference to it (redirects, directories, posts), moved.
    const from = /^ {2}path: (\/[^\n]+)$/m.exec(readFileSync(path.join(content, 'data/cities.yaml'), 'utf8'))![1]!;
    for (const e of readdirSync(content, { recursive: true, withFileTypes: true })) {
      const file = path.join(e.parentPath, e.name);
      if (e.isFile() && /\.(ya?ml|md)$/.test(e.name) && readFileSync(file, 'utf8').includes(from)) writeFileSync(file, readFileSync(file, 'utf8').replaceAll(`${from}`, `${from}-new`));
    }
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a template reading the data through a listing of its kinds is keyed on every kind; a footer reading one kind gets it spliced', async () => {
    const { content, out } = fresh({ english: true });
    const templates = ownTemplates(content);
    // The About page shows the first price, found through a listing of the kinds; the footer the first venue's phone.
    edit(templates, 'pages/About.tsx', '<main id="main" tabIndex={-1}>', '<main id="main" tabIndex={-1} data-first-price={(Object.entries(ctx.site.data).find(([k]) => k === "rates")![1] as { tiers: { price: number }[] }).tiers[0]!.price}>');
    edit(templates, 'components/Footer.tsx', "{t('footer.disclaimer')}</p>", "{t('footer.disclaimer')} {ctx.site.data.venues[0]!.phone}</p>");
    await ok(build(content, out));
    edit(content, 'data/rates.yaml', /price: (\d+)/, 'price: 3$1');
    await ok(build(content, out));
    expect(readFileSync(path.join(out, 'about.html'), 'utf8')).toMatch(/data-first-price="3\d+"/);
    expect(await differencesFromCold(content, out)).toEqual([]);
    // The first venue's phone: only the footer shows it, so it is spliced into the pages.
    edit(content, 'data/venues.yaml', /^( {2}phone: ")[^"]*"$/m, '$1+34 910 000 111"');
    const s = summary(await ok(build(content, out)));
    expect(s).toMatchObject({ spliced: expect.any(Number), pieces: expect.stringContaining('footer') });
    expect(s.spliced).toBeGreaterThan(0);
    expect(readFileSync(path.join(out, 'index.html'), 'utf8')).toContain('+34 910 000 111');
    expect(await differencesFromCold(content, out)).toEqual([]);
    expect((await ok(build(content, out))).stdout).toMatch(/Nothing changed/);
  });
});
