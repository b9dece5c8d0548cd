/** Bad content fails the build with file, line and field, and the last good dist/ survives. */
import { chmodSync, cpSync, readFileSync, writeFileSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { execSync, spawn } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSite, copyContent, edit, EPOCH, listFiles, read, ROOT, runCli, FIXTURE_CONTENT, tmpDir } from '../helpers/site.ts';
import { renderErrors, renderSite } from '../helpers/render.ts';
import { formatFailure } from '../../src/diagnostics.ts';

let goodOut: string;
let goodFiles: string[];
let goodIndex: string;

beforeAll(async () => {
  ({ out: goodOut } = await buildSite(copyContent()));
  goodFiles = listFiles(goodOut);
  goodIndex = readFileSync(path.join(goodOut, 'index.html'), 'utf8');
});

/**
 * Build broken content with the CLI into the good output folder; it must fail and leave the folder
 * as it was. One test per failing stage does this; the other cases check the report (expectErrors).
 */
async function expectFailure(change: (content: string) => void, ...patterns: RegExp[]) {
  const content = copyContent();
  change(content);
  const result = await runCli(['build', '--content', content, '--out', goodOut]);
  expect(result.code, result.stdout).toBe(1);
  for (const p of patterns) expect(result.stderr).toMatch(p);
  expect(result.stderr).toContain('The previous output was left untouched.');
  expect(listFiles(goodOut)).toEqual(goodFiles);
  expect(readFileSync(path.join(goodOut, 'index.html'), 'utf8')).toBe(goodIndex);
  // No unfinished build is left behind: only the live build and the marker beside the output.
  expect(readdirSync(path.dirname(goodOut)).filter((n) => n !== 'dist.host').sort()).toEqual(['.dist.builds', 'dist']); // dist.host: the host files
  expect(readdirSync(path.join(path.dirname(goodOut), '.dist.builds'))).toHaveLength(3); // the live build, the live link, the marker
  return result.stderr;
}

/** Build broken content in memory; the report the CLI would print must match every pattern. */
async function expectErrors(change: (content: string) => void, ...patterns: RegExp[]) {
  const content = copyContent();
  change(content);
  const err = await renderErrors(content);
  const report = formatFailure(err.stage, err.diagnostics);
  for (const p of patterns) expect(report).toMatch(p);
  return report;
}

describe('[R-BUILD-2][R-BUILD-3] content errors', () => {
  it('malformed YAML names file, line and column', async () => {
    const err = await expectFailure((c) => edit(c, 'data/venues.yaml', '  name: Luxtal Balboa', '  name: [Luxtal Balboa'), /data\/venues\.yaml:\d+:\d+: error \[yaml\] a \[ … \] list starts here and is never closed: add \]/);
    expect(err).toMatch(/> +\d+ \|/); // a code frame
  });

  it('a missing required field names the field and its line', async () => {
    await expectErrors((c) => edit(c, 'data/health.yaml', /lastUpdate: .*\n/, ''), /data\/health\.yaml:\d+:\d+: error \[schema\] lastUpdate: missing required field: expected string/);
  });

  it('a wrong type says what was expected and what was found', async () => {
    await expectErrors((c) => edit(c, 'data/rates.yaml', 'price: 250 }', 'price: "cheap" }'), /data\/rates\.yaml:4:\d+: error \[schema\] tiers\[(?!\d+\])[\w-]+\]\.price: expected number, found the text "cheap"/);
  });

  it('an unknown key is an error naming the key', async () => {
    // The line after minAdvanceHours, wherever the file's comments put it.
    const line = readFileSync(path.join(FIXTURE_CONTENT, 'data/booking.yaml'), 'utf8').split('\n').findIndex((l) => l.startsWith('minAdvanceHours:')) + 2;
    await expectErrors((c) => edit(c, 'data/booking.yaml', /^minAdvanceHours: (.*)$/m, 'minAdvanceHours: $1\nminAdvanceHuors: 4'), new RegExp(`data/booking\\.yaml:${line}:1: error \\[schema\\] minAdvanceHuors: unknown key "minAdvanceHuors"`));
  });

  it('an unknown language code in site.yaml and in a post file name', async () => {
    await expectErrors((c) => edit(c, 'site.yaml', 'languages: [en, es, ru, el]', 'languages: [en, es, ru, el, de]'), /site\.yaml:\d+:\d+: error \[language\] languages\[4\]: unknown language code "de": there is no text table i18n\/de\.yaml/);
    await expectErrors(
      (c) => writeFileSync(path.join(c, 'blog/monaco-grand-prix/pt.md'), readFileSync(path.join(FIXTURE_CONTENT, 'blog/monaco-grand-prix/en.md'))),
      /blog\/monaco-grand-prix\/pt\.md: error \[language\] language: unknown language code "pt"/,
    );
  });

  it('duplicate slugs: a landing page and a page id', async () => {
    await expectErrors((c) => edit(c, 'data/directories.yaml', '- { slug: xbiz,', '- { slug: avn,'), /data\/directories\.yaml:\d+:\d+: error \[duplicate\] \[(?!\d+\])[\w-]+\]\.slug: duplicate slug "avn"/);
    await expectErrors((c) => edit(c, 'pages.yaml', '{ id: legal,', '{ id: privacy,'), /pages\.yaml:\d+:\d+: error \[duplicate\] \[(?!\d+\])[\w-]+\]\.id: duplicate id "privacy"/);
  });

  it('duplicate ids inside lists (a picture, a service card, a rate extra, a booking duration and place, a language): each at its line, in one run', async () => {
    await expectErrors(
      (c) => {
        edit(c, 'data/gallery.yaml', 'id: lifestyle-4,', 'id: lifestyle-3,');
        edit(c, 'data/gallery.yaml', 'id: featured-1,', 'id: lifestyle-1,');
        edit(c, 'data/services.yaml', '{ id: events,', '{ id: dinner,');
        edit(c, 'data/rates.yaml', '{ id: wellness,', '{ id: hotels,');
        edit(c, 'data/booking.yaml', '{ id: 2h,', '{ id: 1h,');
        edit(c, 'data/booking.yaml', /locations: \[hotel, \w+/, 'locations: [hotel, hotel');
        edit(c, 'site.yaml', /^languages: \[en, /m, 'languages: [en, en, ');
      },
      /data\/gallery\.yaml:\d+:\d+: error \[duplicate\] images\[lifestyle-3\]\.id: duplicate id "lifestyle-3" \(first used at \[2\]\)/,
      /data\/gallery\.yaml:\d+:\d+: error \[duplicate\] featured\[lifestyle-1\]\.id: duplicate id "lifestyle-1" \(first used at images\[0\]\)/,
      /data\/services\.yaml:\d+:\d+: error \[duplicate\] cards\[dinner\]\.id: duplicate id "dinner"/,
      /data\/rates\.yaml:\d+:\d+: error \[duplicate\] extras\[hotels\]\.id: duplicate id "hotels"/,
      /data\/booking\.yaml:\d+:\d+: error \[duplicate\] durations\[1h\]\.id: duplicate id "1h"/,
      /data\/booking\.yaml:\d+:\d+: error \[duplicate\] locations\[1\]: duplicate entry "hotel"/,
    );
    await expectErrors((c) => edit(c, 'site.yaml', /^languages: \[en, /m, 'languages: [en, en, '), /site\.yaml:\d+:\d+: error \[duplicate\] languages\[1\]: duplicate entry "en"/);
  });

  it('a number where a text belongs is an error with the quotes it needs, not the number as text ("10.000" is not 10)', async () => {
    await expectErrors(
      (c) => {
        edit(c, 'i18n/en.yaml', /^(  title: ).*$/m, '$110.000  # ten thousand');
        edit(c, 'i18n/es.yaml', /^(    name: )Madrid$/m, '$108001');
      },
      /i18n\/en\.yaml:\d+:\d+: error \[schema\] [\w.]+\.title: expected a text, found the number 10 \(YAML reads 10\.000 without quotes as that\): write it in quotes, "10\.000"/,
      /i18n\/es\.yaml:\d+:\d+: error \[schema\] city\.madrid\.name: expected a text, found the number 8001 .*"08001"/,
    );
  });

  it('a number YAML changed where a text belongs says what was written and the quotes it needs, in a data file and inside { … } in a text table', async () => {
    await expectErrors(
      (c) => {
        edit(c, 'data/legal.yaml', /^taxId: .*$/m, 'taxId: 08001234');
        edit(c, 'i18n/en.yaml', /^( {2}title: ).*$/m, '$1{ a: 1e3, b: 2 }');
      },
      /data\/legal\.yaml:\d+:\d+: error \[schema\] taxId: expected a text, found the number 8001234 \(YAML reads 08001234 without quotes as that\): write it in quotes, "08001234"/,
      /i18n\/en\.yaml:\d+:\d+: error \[schema\] [\w.]+\.title\.a: expected a text, found the number 1000 \(YAML reads 1e3 without quotes as that\): write it in quotes, "1e3"/,
    );
  });

  it('a control character (an escape in YAML, a raw one in markdown) is an error at its line, never published', async () => {
    const post = readdirSync(path.join(FIXTURE_CONTENT, 'blog')).sort()[0]!;
    await expectErrors(
      (c) => {
        edit(c, 'i18n/en.yaml', /^(  title: ).*$/m, '$1"Good\\0company\\x1b[31m"');
        edit(c, `blog/${post}/en.md`, /^title: .*$/m, 'title: "A bell\\x07"');
        edit(c, `blog/${post}/es.md`, /\n*$/, '\n\nA bell \u0007 in the body.\n');
        // C1 controls too: a Windows-1252 quote pasted as its byte (U+0092), NEL written as an escape.
        edit(c, `blog/${post}/el.md`, /\n*$/, '\n\nIt\u0092s pasted.\n');
        edit(c, 'i18n/es.yaml', /^( {2}title: ).*$/m, '$1"Buena\\x85compañía"');
      },
      /i18n\/en\.yaml:\d+:\d+: error \[not-text\] [\w.]+\.title: a control character \(U\+0000\) that no page can show/,
      new RegExp(`blog/${post}/en\\.md:2:\\d+: error \\[not-text\\] title: a control character \\(U\\+0007\\)`),
      new RegExp(`blog/${post}/es\\.md:\\d+:\\d+: error \\[not-text\\] a control character \\(U\\+0007\\)`),
      new RegExp(`blog/${post}/el\\.md:\\d+:\\d+: error \\[not-text\\] a control character \\(U\\+0092\\)`),
      /i18n\/es\.yaml:\d+:\d+: error \[not-text\] [\w.]+\.title: a control character \(U\+0085\)/,
    );
  });

  it('a form feed in a post (whitespace in HTML and markdown) is no control character: the post builds', async () => {
    const c = copyContent();
    const post = readdirSync(path.join(c, 'blog')).sort()[0]!;
    edit(c, `blog/${post}/en.md`, /\n*$/, '\n\n\fA page break an old editor left.\n');
    const { out } = await renderSite(c);
    expect(read(out, `blog/${post}.html`)).toContain('A page break an old editor left.');
  });

  it('two routes writing one file name both sources', async () => {
    await expectErrors(
      (c) => {
        mkdirSync(path.join(c, 'blog', 'category'), { recursive: true });
        writeFileSync(path.join(c, 'blog/category/en.md'), readFileSync(path.join(FIXTURE_CONTENT, 'blog/monaco-grand-prix/en.md')));
        edit(c, 'data/blog.yaml', 'categories: [', 'categories: [en, ');
        edit(c, 'i18n/en.yaml', '    lifestyle: Lifestyle\n    travel: Travel', '    lifestyle: Lifestyle\n    en: English\n    travel: Travel');
        edit(c, 'pages.yaml', '{ id: rates, path: /rates,', '{ id: rates, path: /blog/category/en,');
      },
      /pages\.yaml:\d+:\d+: error \[duplicate\] \[\d+\]\.path: two routes write blog\/category\/en\.html/,
    );
  });

  it('a redirect or directory target that is not a route', async () => {
    await expectErrors((c) => edit(c, 'data/redirects.yaml', 'to: /madrid-vip-escort }', 'to: /madrid-vip }'), /data\/redirects\.yaml:\d+:\d+: error \[reference\] \[0\]\.to: target "\/madrid-vip" of "\/madrid-escort" is not a page/);
    await expectErrors((c) => edit(c, 'data/directories.yaml', 'to: /about, source: avn', 'to: /aboot, source: avn'), /data\/directories\.yaml:\d+:\d+: error \[reference\] \[13\]\.to: target "\/aboot" of \/s\/avn is not a page/);
  });

  it('[R-SEO-11] the page the business offers link to must be a page of pages.yaml', async () => {
    await expectErrors((c) => edit(c, 'data/business.yaml', /^offersPage: .*$/m, 'offersPage: nowhere'), /data\/business\.yaml:\d+:\d+: error \[reference\] offersPage: "nowhere"/);
  });

  it('[R-SAFE-11] a post slug too long for a file name is an error naming the post, in check and build alike (not ENAMETOOLONG)', async () => {
    const slug = `a-${'long-'.repeat(48)}slug`; // 246 characters: the folder exists, its page file (251 bytes) could not
    await expectErrors(
      (c) => {
        mkdirSync(path.join(c, 'blog', slug));
        writeFileSync(path.join(c, 'blog', slug, 'en.md'), readFileSync(path.join(FIXTURE_CONTENT, 'blog/monaco-grand-prix/en.md')));
      },
      new RegExp(`blog/${slug}/en\\.md: error \\[too-long\\] path: the page /blog/${slug} .* 251 bytes long; at most 200`),
    );
  });

  it('[R-SAFE-14] absurd values are errors: a price of 9,007,199,254,740,991 or 0, a venue range upside down, booking at least 0 hours', async () => {
    await expectErrors((c) => edit(c, 'data/rates.yaml', 'price: 250 }', 'price: 9007199254740991 }'), /data\/rates\.yaml:4:\d+: error \[schema\] tiers\[(?!\d+\])[\w-]+\]\.price: (?:expected )?a price of at most 100,000/);
    await expectErrors((c) => edit(c, 'data/rates.yaml', 'price: 250 }', 'price: 0 }'), /data\/rates\.yaml:4:\d+: error \[schema\] tiers\[(?!\d+\])[\w-]+\]\.price: (?:expected )?a price above 0/);
    await expectErrors((c) => edit(c, 'data/venues.yaml', 'price: { min: 35, max: 38 }', 'price: { min: 38, max: 35 }'), /data\/venues\.yaml:\d+:\d+: error \[schema\] \[(?!\d+\])[\w-]+\]\.price: (?:expected )?a range whose min is not above its max/);
    await expectErrors((c) => edit(c, 'data/booking.yaml', /^minAdvanceHours: .*$/m, 'minAdvanceHours: 0'), /data\/booking\.yaml:\d+:\d+: error \[schema\] minAdvanceHours: (?:expected )?at least 1 hour/);
  });

  it('[R-SAFE-11] reserved paths are errors naming the content: a redirect over robots.txt or sw.js, a route at a page file\'s URL, a page under /assets/', async () => {
    for (const from of ['/robots.txt', '/sw.js', '/sitemap.xml', '/favicon.ico', '/manifest.webmanifest'])
      await expectErrors((c) => edit(c, 'data/redirects.yaml', '{ from: /madrid-escort,', `{ from: ${from},`), new RegExp(`data/redirects\\.yaml:3:\\d+: error \\[reserved\\] \\[0\\]\\.from: ${from.replace('.', '\\.')} \\(data/redirects\\.yaml`));
    await expectErrors((c) => edit(c, 'data/redirects.yaml', '{ from: /madrid-escort,', '{ from: /rates.html,'), /data\/redirects\.yaml:3:\d+: error \[reserved\] \[0\]\.from: \/rates\.html .* is the URL of the file of \/rates/);
    await expectErrors((c) => edit(c, 'pages.yaml', '{ id: rates, path: /rates,', '{ id: rates, path: /assets/rates,'), /pages\.yaml:\d+:\d+: error \[reserved\] \[\d+\]\.path: \/assets\/rates \(pages\.yaml\[\d+\] \(rates\)\)/);
  });

  it('a baseUrl with a query or fragment is an error naming site.yaml and the field', async () => {
    await expectErrors((c) => edit(c, 'site.yaml', /^baseUrl: (.*)$/m, 'baseUrl: $1/?ref=x'), /site\.yaml:\d+:\d+: error \[schema\] baseUrl: expected an absolute http\(s\) URL without a \?query or #fragment/);
  });

  it('a redirect loop', async () => {
    await expectFailure(
      (c) => writeFileSync(path.join(c, 'data/redirects.yaml'), '- { from: /a, to: /b }\n- { from: /b, to: /a }\n'),
      /data\/redirects\.yaml:1:\d+: error \[redirect-loop\] \[0\]\.to: redirect loop: \/a → \/b → \/a/,
    );
  });

  it('bad front matter in a post names the file, line and field', async () => {
    await expectErrors((c) => edit(c, 'blog/monaco-grand-prix/es.md', /^date: .*$/m, 'date: 22/04/2025'), /blog\/monaco-grand-prix\/es\.md:4:\d+: error \[schema\] date: expected a date written YYYY-MM-DD/);
  });

  it('a post whose front matter is never closed names the file and says what is missing', async () => {
    await expectErrors(
      (c) => edit(c, 'blog/monaco-grand-prix/en.md', /^---\n\n/m, '\n'),
      /blog\/monaco-grand-prix\/en\.md:1: error \[front-matter\] the front matter is not closed: add a line --- after it/,
    );
  });

  it('front matter whose --- lines end in spaces or a tab is read as front matter (an editor may leave them)', async () => {
    const c = copyContent();
    edit(c, 'blog/monaco-grand-prix/en.md', /^---\n/, '---   \n');
    edit(c, 'blog/monaco-grand-prix/en.md', /\n---\n/, '\n--- \t\n');
    const { out } = await renderSite(c);
    const plain = await renderSite(copyContent());
    expect(read(out, 'blog/monaco-grand-prix.html')).toBe(read(plain.out, 'blog/monaco-grand-prix.html'));
  });

  it('an error in site.yaml (not in its languages) does not hide the errors of the text tables and posts', async () => {
    await expectErrors(
      (c) => {
        edit(c, 'site.yaml', /^currency: .*$/m, 'currency: 12');
        edit(c, 'i18n/es.yaml', /\n*$/, '\nbroken: "unclosed\n');
        edit(c, 'blog/monaco-grand-prix/en.md', /^category: .*$/m, 'category: nope');
      },
      /site\.yaml:\d+:\d+: error \[schema\] currency: expected a text, found the number 12$/m,
      /i18n\/es\.yaml:\d+:\d+: error \[yaml\] a quoted text starts here and is never closed/,
      /blog\/monaco-grand-prix\/en\.md:\d+: error \[reference\] category: unknown category "nope"/,
    );
  });

  it('a text written twice, in a group and as a dotted key, is an error at the later one (the file\'s order chose one silently)', async () => {
    const report = await expectErrors((c) => edit(c, 'i18n/en.yaml', /\n*$/, '\nfooter.tagline: "Dotted"\n'), /i18n\/en\.yaml:(\d+):\d+: error \[duplicate\] footer\.tagline: the text "footer\.tagline" is written twice, in a group and as a dotted key: keep one/);
    const line = Number(report.match(/i18n\/en\.yaml:(\d+):\d+: error \[duplicate\]/)![1]);
    const content = copyContent();
    edit(content, 'i18n/en.yaml', /\n*$/, '\nfooter.tagline: "Dotted"\n');
    expect(readFileSync(path.join(content, 'i18n/en.yaml'), 'utf8').split('\n')[line - 1]).toBe('footer.tagline: "Dotted"');
  });

  it('two routes that write one file through two paths (/index and /) are a duplicate error before anything is written (site check agrees with site build)', async () => {
    await expectErrors((c) => edit(c, 'pages.yaml', /\n*$/, '\n- { id: index-again, path: /index, template: legal }\n'), /error \[duplicate\] .*two routes write index\.html/);
  });

  it('a currency that is not an ISO 4217 code (a typo of three capitals) is an error at its line', async () => {
    await expectErrors((c) => edit(c, 'site.yaml', /^currency: .*$/m, 'currency: EUO'), /site\.yaml:\d+:\d+: error \[schema\] currency: expected an ISO 4217 currency code like EUR, found the text "EUO"/);
    // Said once for a code in lower case (the pattern's message, not the list's as well).
    const report = await expectErrors((c) => edit(c, 'site.yaml', /^currency: .*$/m, 'currency: eur'), /error \[schema\] currency: expected an ISO 4217 currency code like EUR, found the text "eur"/);
    expect(report.match(/error \[schema\] currency/g)).toHaveLength(1);
  });

  it('schema messages are plain words with what was found, not the validator library\'s (limits, colours, email, an empty file, deep nesting)', async () => {
    const report = await expectErrors(
      (c) => {
        edit(c, 'data/reviews.yaml', /rating: \d/, 'rating: 7');
        edit(c, 'site.yaml', /^( {2}theme: ).*$/m, '$1red');
        edit(c, 'site.yaml', /^( {2}email: ).*$/m, '$1nope');
        writeFileSync(path.join(c, 'data/blog.yaml'), '# nothing yet\n');
        writeFileSync(path.join(c, 'data/redirects.yaml'), `deep: ${'['.repeat(100_000)}\n`);
      },
      /data\/reviews\.yaml:\d+:\d+: error \[schema\] \[[\w-]+\]\.rating: expected at most 5, found number 7/,
      /site\.yaml:\d+:\d+: error \[schema\] colors\.theme: expected a colour written #rrggbb, such as #8a5a44, found the text "red"/,
      /site\.yaml:\d+:\d+: error \[schema\] contact\.email: expected an email address such as name@example\.com, found the text "nope"/,
      /data\/blog\.yaml:1:1: error \[schema\] \(root\): the file is empty \(or holds only comments\): write its fields/,
      /data\/redirects\.yaml:\d+:\d+: error \[yaml\] lists or groups are nested inside each other thousands of levels deep/,
    );
    expect(report).not.toMatch(/Too big|Invalid |must match pattern|Maximum call stack/);
  });

  it("a schema error in a data file hides neither that file's broken references nor the ids others refer to", async () => {
    const report = await expectErrors(
      (c) => {
        edit(c, 'data/reviews.yaml', /rating: \d/, 'rating: 7');
        edit(c, 'data/reviews.yaml', /city: madrid/, 'city: madird');
        // A city entry with a bad time zone: the reviews and venues naming it still find it.
        edit(c, 'data/cities.yaml', /timezone: Europe\/Madrid/, 'timezone: Europe/Nowhere');
      },
      /data\/reviews\.yaml:\d+:\d+: error \[schema\] \[[\w-]+\]\.rating: expected at most 5, found number 7/,
      /data\/reviews\.yaml:\d+:\d+: error \[reference\] \[[\w-]+\]\.city: "madird" is not a city id/,
      /data\/cities\.yaml:\d+:\d+: error \[schema\] \[madrid\]\.timezone/,
    );
    expect(report).not.toMatch(/"madrid" is not a city id/);
    // A file of another shape altogether (the checks cannot read it as parsed): its schema errors, no crash.
    const other = await expectErrors(
      (c) => {
        writeFileSync(path.join(c, 'data/reviews.yaml'), 'not: a list\n');
        writeFileSync(path.join(c, 'data/rates.yaml'), 'tiers: 5\nextras: []\n');
      },
      /data\/reviews\.yaml:1:1: error \[schema\] \(root\): expected array, found a mapping/,
      /data\/rates\.yaml:1:\d+: error \[schema\] tiers: expected array, found number 5/,
    );
    expect(other).not.toMatch(/TypeError|is not a function/);
  });

  it('all errors of a build are reported at once', async () => {
    const err = await expectFailure(
      (c) => {
        edit(c, 'data/health.yaml', 'intervalMonths: 3', 'intervalMonths: three');
        edit(c, 'data/venues.yaml', 'phone: "+34 910 000 002"', 'phone: "call me"');
      },
      /data\/health\.yaml/,
      /data\/venues\.yaml/,
    );
    expect(err).toMatch(/Build failed \(load\): 2 problem/);
  });
});

describe('[R-UI-19][R-BUILD-12] strict mode', () => {
  it('turns warnings (samples, stale content) into errors and keeps the old output', async () => {
    const result = await runCli(['build', '--content', copyContent(), '--out', goodOut, '--strict']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Build failed \(strict\)/);
    expect(result.stderr).toMatch(/warning \[sample\]/);
    expect(result.stderr).toMatch(/warning \[stale\]/);
    expect(listFiles(goodOut)).toEqual(goodFiles);
  });

  it('[R-OPS-8] reports missing translation keys per language: shown as the key in a draft build, never published', async () => {
    const content = copyContent();
    edit(content, 'i18n/es.yaml', /^ {2}tagline: .*\n/m, '');
    const { out, warnings } = await renderSite(content, { drafts: true });
    expect(warnings).toMatch(/i18n\/es\.yaml: warning \[missing-translation\] 1 key\(s\) missing in es \(shown as the key\): footer\.tagline/);
    const page = read(out, 'es.html');
    expect(page).toContain('>footer.tagline<');
    const err = await renderErrors(content);
    expect(formatFailure(err.stage, err.diagnostics)).toMatch(/i18n\/es\.yaml: error \[missing-translation\] 1 key\(s\) used by pages are missing in es: write them, or make es a draft .*: footer\.tagline/);
  });
});

describe('command line', () => {
  it('[R-BUILD-1] --help explains the options', async () => {
    const result = await runCli(['build', '--help']);
    for (const opt of ['--content', '--out', '--base-url', '--strict', '--drafts', '--quiet']) expect(result.stdout).toContain(opt);
    expect(result.code).toBe(0);
  });

  it('[R-BUILD-1] refuses an output folder that would replace the sources', async () => {
    const result = await runCli(['build', '--out', '.']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--out .* is or contains the project root/);
  });

  it('[R-BUILD-1] an unknown option fails with a non-zero exit', async () => {
    const result = await runCli(['build', '--colour']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/unknown option/);
  });
});

describe('[R-OPS-10] every independent error in the first run', () => {
  it('a duplicate review id shows with a bad rating; a HEIC photo with a missing image', async () => {
    const reviews = readFileSync(path.join(FIXTURE_CONTENT, 'data/reviews.yaml'), 'utf8');
    const ids = [...reviews.matchAll(/id: ([\w-]+)/g)].map((m) => m[1]!);
    expect(ids.length).toBeGreaterThan(1);
    await expectErrors(
      (c) => {
        // The second review takes the first one's id, and the first gets an impossible rating.
        edit(c, 'data/reviews.yaml', `id: ${ids[1]}`, `id: ${ids[0]}`);
        edit(c, 'data/reviews.yaml', /rating: [\d.]+/, 'rating: 7');
      },
      new RegExp(`data/reviews\\.yaml:\\d+:\\d+: error \\[duplicate\\] \\[${ids[0]}\\]\\.id: duplicate id "${ids[0]}"`),
      /data\/reviews\.yaml:\d+:\d+: error \[schema\] \[[\w-]+\]\.rating/,
    );
    await expectErrors(
      (c) => {
        // A phone photo nobody converted, and a gallery entry whose file is gone.
        writeFileSync(path.join(c, 'images', 'IMG_0042.HEIC'), 'not really a heic');
        edit(c, 'data/gallery.yaml', /file: ([\w/-]+)\.(jpe?g|png|webp|avif|svg)/, 'file: gone/missing.jpg');
      },
      /images\/IMG_0042\.HEIC: error \[image\] not an image the build can convert/,
      /data\/gallery\.yaml:\d+:\d+: error \[missing-image\] .*images\/gone\/missing\.jpg does not exist/,
    );
  });
});

describe('[R-SAFE-12] content the build cannot read', () => {
  it('an unreadable post folder is an error naming it, not a post silently dropped in every language', async () => {
    const content = copyContent();
    const slug = readdirSync(path.join(content, 'blog'))[0]!;
    // Root reads any folder: run the check as an unprivileged user then (nobody), else as ourselves.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) execSync(`chmod -R a+rX ${JSON.stringify(path.dirname(content))}`);
    chmodSync(path.join(content, 'blog', slug), 0o000);
    try {
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'site.js'), 'check', '--content', content], {
          cwd: ROOT,
          env: { ...process.env, SOURCE_DATE_EPOCH: EPOCH, HOME: '/tmp' },
          ...(asRoot && { uid: 65534, gid: 65534 }),
        });
        let stderr = '';
        child.stderr.on('data', (c: Buffer) => (stderr += c));
        child.on('close', (code) => resolve({ code, stderr }));
      });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`blog/${slug}: error \\[blog\\] cannot read this folder \\(EACCES\\)`));
    } finally {
      chmodSync(path.join(content, 'blog', slug), 0o755);
    }
  });
});

describe('[R-BUILD-3] a template that fails while deriving files', () => {
  it("an assetFiles export that throws fails the build naming templates/index.tsx and the export, with the template's message", async () => {
    // A copy of the templates beside the client they import from.
    const project = tmpDir();
    const templates = path.join(project, 'templates');
    cpSync(path.join(ROOT, 'templates'), templates, { recursive: true });
    symlinkSync(path.join(ROOT, 'client'), path.join(project, 'client'));
    edit(templates, 'index.tsx', /(export function assetFiles\([^)]*\)[^{]*\{)/, "$1\n  if (site.languages.length) throw new Error('cannot derive the shared data');");
    const err = await renderErrors(copyContent(), { templates });
    expect(err.stage).toBe('templates');
    expect(formatFailure(err.stage, err.diagnostics)).toMatch(/templates\/index\.tsx: error \[template\] assetFiles: cannot derive the shared data/);
  });
});
