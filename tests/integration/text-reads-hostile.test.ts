/**
 * [R-INC-1] [R-INC-2] Hostile cases for pages keyed on the texts they read and layout pieces
 * spliced (render/reads.ts, output/pieces.ts, render/splice.ts, build.ts planRoutes/nextReads),
 * written by a hostile review of the change (a helper; 27 cases, these 10 kept). As in
 * text-reads.test.ts, every incremental output (web root and host folder) must equal a cold build
 * of the same content, file by file: a piece shown twice in a page, pieces shrinking and growing
 * with their offsets moved, odd characters, texts reached through list facts, the locale, pages
 * damaged in the output, templates that nest pieces or read texts through the table or t.has, and
 * a failed build between two splices.
 * Known and left (docs/architecture.md, incremental builds): a page edited by hand to the same size
 * with its modification time set back is carried or spliced as it is (output files are trusted by
 * size and time, as before splicing), and a reads record forged by hand is trusted like the record.
 */
import { mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, differencesFromCold, fresh, ok, summary, ownTemplates } from '../helpers/incremental.ts';
import { edit, listFiles } from '../helpers/site.ts';

const pagesOf = (out: string) => listFiles(out).filter((f) => f.endsWith('.html'));
const englishFooter = (out: string) => pagesOf(out).filter((f) => !/^(es|ru|el|fr)(\/|\.html$)/.test(f) && readFileSync(path.join(out, f), 'utf8').includes('class="site-footer'));
/** Set a text `key: value` under a top-level group of `i18n/<lang>.yaml` (the line `  key: …`, first one after `group:`). */
function setText(content: string, lang: string, group: string, key: string, value: string): void {
  edit(content, `i18n/${lang}.yaml`, new RegExp(`^(${group}:\\n(?: {2}.*\\n|\\n)*? {2}${key}: ).*$`, 'm'), `$1${JSON.stringify(value).replace(/\$/g, '$$$$')}`);
}
async function same(content: string, out: string, extra: string[] = []): Promise<void> {
  expect(await differencesFromCold(content, out, extra)).toEqual([]);
}

describe('[R-INC-1] texts and pieces, hostile', () => {
  it('a text only the navigation shows (the nav piece is placed twice in each page, one per current page): spliced, as a cold build', async () => {
    const { content, out } = fresh({ english: true });
    await ok(build(content, out));
    setText(content, 'en', 'nav', 'gallery', 'Pictures & more');
    const s = summary(await ok(build(content, out)));
    expect(s.spliced).toBeGreaterThan(10);
    await same(content, out);
    // Twice in a row, longer then shorter: both placements of each page move.
    setText(content, 'en', 'nav', 'gallery', 'G');
    await ok(build(content, out));
    await same(content, out);
  });

  it('the consent banner (before the footer in each page) then the footer: the second splice works from the offsets the first moved', async () => {
    const { content, out } = fresh({ english: true });
    await ok(build(content, out));
    setText(content, 'en', 'consent', 'title', 'Privacy choices, with a much longer title than before — «ñ» 🍷');
    expect(summary(await ok(build(content, out))).spliced).toBeGreaterThan(10);
    await same(content, out);
    setText(content, 'en', 'footer', 'madeWith', 'Made in Madrid');
    expect(summary(await ok(build(content, out))).spliced).toBeGreaterThan(10);
    await same(content, out);
    // Both at once, the consent title shorter again: two pieces of a page replaced, lengths changing in opposite ways.
    setText(content, 'en', 'consent', 'title', 'P');
    setText(content, 'en', 'footer', 'madeWith', 'Made in Madrid, with a footer note far longer than the one it replaces, to move every later byte');
    expect(summary(await ok(build(content, out))).spliced).toBeGreaterThan(10);
    await same(content, out);
  });

  // (A NUL or another control character is an error of its own: errors.test.)
  it('odd characters in a piece text (newline, tab, a marker-like "<!--x:0-->", "</script>", U+2028) and an unused key holding invisible ones', async () => {
    const { content, out } = fresh({ english: true });
    await ok(build(content, out));
    edit(content, 'i18n/en.yaml', /^( {2}madeWith: ).*$/m, '$1"nl\\n tab\\t <!--abc:0--> </script> \\u2028 end"');
    edit(content, 'i18n/en.yaml', /^footer:\n/m, 'footer:\n  "odd\\u00a0key": "a value\\u200bwith a zero-width space"\n');
    await ok(build(content, out));
    await same(content, out);
    edit(content, 'i18n/en.yaml', /^( {2}madeWith: ).*$/m, '$1"plain again"');
    await ok(build(content, out));
    await same(content, out);
  });

  it('a piece text referencing a list fact by a form the piece never reads itself ({cities:in}); then that form added for one city', async () => {
    const { content, out } = fresh({ english: true });
    edit(content, 'i18n/en.yaml', /^( {2}madeWith: ).*$/m, '$1"Made in {cities:in}"');
    await ok(build(content, out));
    // city.madrid.in: read by no template, only shown through the fact.
    edit(content, 'i18n/en.yaml', /^( {2}madrid:\n)( {4}name: .*\n)/m, '$1$2    in: in-the-capital-Madrid\n');
    const s = summary(await ok(build(content, out)));
    expect(readFileSync(path.join(out, 'about.html'), 'utf8')).toContain('in-the-capital-Madrid');
    expect(s.rendered).toBeLessThan(s.total);
    await same(content, out);
  });

  it('the locale changed (lang.locale): every page of the language formats with it, as a cold build', async () => {
    const { content, out } = fresh({ english: true });
    await ok(build(content, out));
    edit(content, 'i18n/en.yaml', /^( {2}locale: ).*$/m, '$1en-US');
    await ok(build(content, out));
    await same(content, out);
  });
});

describe('[R-INC-1] the output and the reads record between builds, hostile', () => {
  const footer = (content: string, n: number) => setText(content, 'en', 'footer', 'madeWith', `Made in Madrid, round ${n}${'!'.repeat(n)}`);

  it('pages to be spliced deleted, truncated, or grown by hand in the live output: rendered instead, as a cold build', async () => {
    const { content, out } = fresh({ english: true });
    await ok(build(content, out));
    const pages = englishFooter(out);
    const [gone, cut, grown] = [pages.at(-1)!, pages.at(-2)!, pages.at(-3)!];
    rmSync(path.join(out, gone));
    truncateSync(path.join(out, cut), 100);
    writeFileSync(path.join(out, grown), `${readFileSync(path.join(out, grown), 'utf8')}<!-- hand -->`);
    footer(content, 1);
    await ok(build(content, out));
    await same(content, out);
  });
});

/** A post `blog/<slug>/en.md` (as unread-posts.test.ts writes them). */
function addPost(content: string, slug: string, title: string): void {
  mkdirSync(path.join(content, 'blog', slug), { recursive: true });
  writeFileSync(path.join(content, 'blog', slug, 'en.md'), `---\ntitle: "${title}"\nexcerpt: "About ${title}."\ndate: 2025-05-01\ncategory: travel\nauthor: "Aurelia"\ntags: []\n---\n\nThe body of ${title}.\n`);
}

describe('[R-INC-1] templates that read texts and posts in other ways, hostile', () => {
  it('nested pieces: an inner piece made only inside the footer piece, reading the list of posts; a post added, then its text edited', async () => {
    const { content, out } = fresh({ english: true });
    const templates = ownTemplates(content);
    edit(templates, 'components/Footer.tsx', "{t('footer.madeWith')}", "<span dangerouslySetInnerHTML={{ __html: ctx.once('inner', () => <i>{ctx.t('footer.madeWith')} ({ctx.site.posts.length})</i>) }} />");
    await ok(build(content, out));
    addPost(content, 'nested-post', 'Nested post');
    await ok(build(content, out));
    await same(content, out);
    setText(content, 'en', 'footer', 'madeWith', 'Inner edit');
    await ok(build(content, out));
    await same(content, out);
  });

  // Each access path in a build of its own (two edits in one build would hide an untracked one);
  // the steps in two tests, each under a few seconds on a busy machine.
  it.each([
    { paths: 'a key of site.texts, `in`, Object.hasOwn, t.has', steps: [0, 1, 2, 3] },
    { paths: '?.[] on site.texts, ctx.textsOf(ctx.lang), a text removed', steps: [4, 5, 6] },
  ])('a footer reading texts through $paths: each text added or edited reaches every page', async ({ steps: chosen }) => {
    const { content, out } = fresh({ english: true });
    const templates = ownTemplates(content);
    edit(
      templates,
      'components/Footer.tsx',
      "{t('footer.madeWith')}",
      [
        "{ctx.site.texts[ctx.lang]!['footer.madeWith']}",
        "{'footer.extraIn' in ctx.site.texts[ctx.lang]! ? ' in:' + ctx.t('footer.extraIn') : ''}",
        "{Object.hasOwn(ctx.site.texts[ctx.lang]!, 'footer.extraOwn') ? ' own:' + ctx.t('footer.extraOwn') : ''}",
        "{ctx.t.has('footer.extraHas') ? ' has:' + ctx.t('footer.extraHas') : ''}",
        "{' via:' + ctx.textsOf(ctx.lang)('footer.tagline')}",
        "{ctx.site.texts[ctx.lang]?.['footer.extraOpt'] ?? ''}",
      ].join(''),
    );
    // The tagline is read only through textsOf: its other reading in the footer removed.
    edit(templates, 'components/Footer.tsx', "<p>{t('footer.tagline')}</p>", '');
    await ok(build(content, out));
    const steps: [string, () => void][] = [
      ['madeWith', () => setText(content, 'en', 'footer', 'madeWith', 'Through the table')],
      ['extraIn', () => edit(content, 'i18n/en.yaml', /^footer:\n/m, 'footer:\n  extraIn: IN\n')],
      ['extraOwn', () => edit(content, 'i18n/en.yaml', /^footer:\n/m, 'footer:\n  extraOwn: OWN\n')],
      ['extraHas', () => edit(content, 'i18n/en.yaml', /^footer:\n/m, 'footer:\n  extraHas: HAS\n')],
      ['extraOpt', () => edit(content, 'i18n/en.yaml', /^footer:\n/m, 'footer:\n  extraOpt: OPT\n')],
      ['tagline', () => setText(content, 'en', 'footer', 'tagline', 'Tagline through textsOf')],
      ['extraIn removed', () => edit(content, 'i18n/en.yaml', /^ {2}extraIn: IN\n/m, '')],
    ];
    // The last step removes what the second adds.
    if (chosen[0] !== 0) edit(content, 'i18n/en.yaml', /^footer:\n/m, 'footer:\n  extraIn: IN\n');
    if (chosen[0] !== 0) await ok(build(content, out));
    for (const [what, step] of chosen.map((i) => steps[i]!)) {
      step();
      await ok(build(content, out));
      expect(await differencesFromCold(content, out), what).toEqual([]);
    }
  });
});

describe('[R-INC-1] sequences, hostile', () => {
  it('a text only the client data shows off the home page (a CTA text, inside <script type="application/json">) with script-breaking characters', async () => {
    const { content, out } = fresh({ english: true });
    await ok(build(content, out));
    edit(content, 'i18n/en.yaml', /^( {4}urgency: )Weekends are best planned.*$/m, '$1"</script><!-- <script> \\"q\\" \\u2028 \\u2029 ü 🍷"');
    // One client-data piece per kind of page: each made by rendering a page, the rest spliced.
    expect(summary(await ok(build(content, out))).spliced).toBeGreaterThan(0);
    await same(content, out);
  });

  it('splice, then an unrelated page edit (spliced pages carried, not rendered), then a failed build, then a splice again', async () => {
    const { content, out } = fresh({ english: true });
    await ok(build(content, out));
    const withFooter = englishFooter(out).length;
    setText(content, 'en', 'footer', 'madeWith', 'Round one, somewhat longer');
    expect(summary(await ok(build(content, out)))).toMatchObject({ rendered: 1, spliced: withFooter - 1 });
    // A text only the home pages show: the spliced pages are carried as they are now.
    edit(content, 'i18n/en.yaml', /^(hero:\n(?: {2}.*\n)*? {2}title: )(.*)$/m, '$1Round two title');
    const two = summary(await ok(build(content, out)));
    expect(two.rendered).toBeLessThan(5);
    await same(content, out);
    // A text that does not parse (ICU): the build fails and publishes nothing.
    setText(content, 'en', 'footer', 'madeWith', 'Broken {');
    expect((await build(content, out)).code).not.toBe(0);
    setText(content, 'en', 'footer', 'madeWith', 'Round four');
    expect(summary(await ok(build(content, out)))).toMatchObject({ rendered: 1, spliced: withFooter - 1 });
    await same(content, out);
  });
});
