/**
 * [R-INC-2] Hostile cases for pages keyed on the data kinds they read (render/page.ts notes
 * `site.data.<kind>` and `site.facts`, routes/inputs.ts keys on them), kept from a hostile review
 * of 31 (the others held too): each builds, edits, builds again and compares the incremental
 * output with a cold build of the same content, file by file. Stale before their fixes: the admin
 * list of landings and the watch session (a page reading the route table: `listed`), the redirect
 * to a post (the redirect rule), the memo keyed on the data (each page its own view of it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, differencesFromCold, fresh, ok, ownTemplates } from '../helpers/incremental.ts';
import { edit, EPOCH } from '../helpers/site.ts';
import { WatchSession } from '../../src/watch/session.ts';
import { buildDate, resolveConfig } from '../../src/config.ts';


const MAIN = '<main id="main" tabIndex={-1}>';
/** The first venue's phone in data/venues.yaml (the footer edits below show it). */
const firstVenuePhone = (content: string, phone: string) => edit(content, 'data/venues.yaml', /^( {2}phone: ")[^"]*"$/m, `$1${phone}"`);
/** JSX put into the footer (a piece) after its disclaimer, in a copy of the templates. */
const afterDisclaimer = (templates: string, jsx: string) => edit(templates, 'components/Footer.tsx', "{t('footer.disclaimer')}</p>", `{t('footer.disclaimer')}</p>${jsx}`);

describe('[R-INC-2] data reads, hostile (incremental builds equal cold builds)', () => {
  // --- shipped templates ---

  it("admin directory-profiles page (lists landings through routes.routes): a landing's source changed", async () => {
    const { content, out } = fresh({ english: true });
    edit(content, 'site.yaml', /^ {2}admin: false$/m, '  admin: true');
    await ok(build(content, out));
    edit(content, 'data/directories.yaml', 'source: eurogirlsescort }', 'source: eurogirlsnew }');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it("a redirect to a blog post (its stub's title is the post's): the post's title changed", async () => {
    const { content, out } = fresh({ english: true });
    writeFileSync(path.join(content, 'data/redirects.yaml'), `${readFileSync(path.join(content, 'data/redirects.yaml'), 'utf8')}- { from: /riviera, to: /blog/a-weekend-on-the-riviera }\n`);
    await ok(build(content, out));
    edit(content, 'blog/a-weekend-on-the-riviera/en.md', /^title: .*$/m, 'title: "A Long Weekend on the Riviera"');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it("a city's status flipped (upcoming → active): the {cities:active}/{cities:upcoming} texts and the city pages", async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    edit(content, 'data/cities.yaml', /^( {2}status: )upcoming$/m, '$1active');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a price and a text naming it in the message language (es), two languages', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    edit(content, 'i18n/es.yaml', /^( {2}duration:\n {4}1h: ).*$/m, '$1"1 hora ({price:hour})"');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
    edit(content, 'data/rates.yaml', /price: (\d+)/, 'price: 7$1');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  // --- templates edited to read data in hostile ways ---

  it.each([
    ['Object.keys(site.facts)', "Object.keys(ctx.site.facts).join(',') + JSON.stringify(ctx.site.facts['price:hour'])"],
  ])('the About page reads the price through %s', async (_name, expr) => {
    const { content, out } = fresh({ english: true });
    const templates = ownTemplates(content);
    edit(templates, 'pages/About.tsx', MAIN, `<main id="main" tabIndex={-1} data-x={${expr}}>`);
    await ok(build(content, out));
    edit(content, 'data/rates.yaml', /price: (\d+)/, 'price: 5$1');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a memo keyed on site.data in a helper module (WeakMap: one read per render environment)', async () => {
    const { content, out } = fresh({ english: true });
    const templates = ownTemplates(content);
    writeFileSync(
      path.join(templates, 'memo.ts'),
      `const memo = new WeakMap<object, string>();\nexport function firstPhone(data: { venues: { phone: string }[] }): string {\n  let v = memo.get(data);\n  if (v === undefined) memo.set(data, (v = data.venues[0]!.phone));\n  return v;\n}\n`,
    );
    edit(templates, 'pages/About.tsx', MAIN, `<main id="main" tabIndex={-1} data-phone={firstPhone(ctx.site.data)}>`);
    edit(templates, 'pages/Contact.tsx', MAIN, `<main id="main" tabIndex={-1} data-phone={firstPhone(ctx.site.data)}>`);
    for (const f of ['pages/About.tsx', 'pages/Contact.tsx']) writeFileSync(path.join(templates, f), `import { firstPhone } from '../memo.ts';\n${readFileSync(path.join(templates, f), 'utf8')}`);
    await ok(build(content, out));
    firstVenuePhone(content, '+34 910 000 333');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a data kind read only when another field says so (business.open247 gates reviews), then the gate flipped, then the gated kind edited', async () => {
    const { content, out } = fresh({ english: true });
    const templates = ownTemplates(content);
    edit(templates, 'pages/About.tsx', MAIN, '<main id="main" tabIndex={-1} data-r={ctx.site.data.business.open247 ? "none" : ctx.site.data.reviews.map((r) => r.rating).join(",")}>');
    await ok(build(content, out));
    edit(content, 'data/business.yaml', /^open247: true$/m, 'open247: false');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
    edit(content, 'data/reviews.yaml', /(id: review-2, .*?)rating: 5/, '$1rating: 4');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a piece nested in the footer piece reads venues; the gate for it in the footer reads business', async () => {
    const { content, out } = fresh({ english: true });
    const templates = ownTemplates(content);
    afterDisclaimer(templates, `<p dangerouslySetInnerHTML={{ __html: ctx.site.data.business.open247 ? ctx.once('inner-phone', () => 'phone ' + ctx.site.data.venues[0]!.phone) : 'closed' }} />`);
    await ok(build(content, out));
    firstVenuePhone(content, '+34 910 000 444');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
    edit(content, 'data/business.yaml', /^open247: true$/m, 'open247: false');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
    edit(content, 'data/business.yaml', /^open247: false$/m, 'open247: true');
    firstVenuePhone(content, '+34 910 000 555');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a piece whose content is data the page read outside it (closure)', async () => {
    const { content, out } = fresh({ english: true });
    const templates = ownTemplates(content);
    afterDisclaimer(templates, `{(() => { const phone = ctx.site.data.venues[0]!.phone; return <p dangerouslySetInnerHTML={{ __html: ctx.once('closure-phone', () => 'p ' + phone) }} />; })()}`);
    await ok(build(content, out));
    firstVenuePhone(content, '+34 910 000 666');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a watch session: a price, then a landing source (admin on)', async () => {
    const { content, out } = fresh({ english: true });
    edit(content, 'site.yaml', /^ {2}admin: false$/m, '  admin: true');
    const session = new WatchSession({ ...resolveConfig({ content, out, quiet: true }), today: buildDate({ SOURCE_DATE_EPOCH: EPOCH }) });
    expect((await session.rebuild([])).ok).toBe(true);
    const rates = path.join(content, 'data/rates.yaml');
    edit(content, 'data/rates.yaml', /price: (\d+)/, 'price: 4$1');
    expect((await session.rebuild([rates])).ok).toBe(true);
    expect(await differencesFromCold(content, out)).toEqual([]);
    edit(content, 'data/directories.yaml', 'source: eros }', 'source: erosnew }');
    expect((await session.rebuild([path.join(content, 'data/directories.yaml')])).ok).toBe(true);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

});

