/**
 * [R-INC-2] An incremental `site build` is byte-identical to a cold build of the same content: random
 * sequences of an operator's edits (a post's body, date, category or title, a price, a city's
 * entry, a venue's phone, a text every page shows (the footer's: spliced), a text one page shows, a
 * city's name (read through list facts too), a language's name, a new language, a deleted
 * translation, a deleted post, a renamed image, a template change), each followed by an
 * incremental build of one output folder and a cold build in memory, compared file by file (pages,
 * assets, sitemap, service worker and the host's files beside the web root).
 * [R-INC-1] A paragraph added to a post renders exactly that post's page and says which file changed;
 * a post's new title renders under a quarter of the pages.
 *
 * The sequences are random per run; a failure names its seed, and SITE_TEST_SEED=<seed> replays it.
 */
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { build, type BuildResult } from '../../src/build.ts';
import { buildDate, resolveConfig } from '../../src/config.ts';
import { readRecord } from '../../src/output/carry.ts';
import { hostFolder } from '../../src/output/host-folder.ts';
import { DiskWriter, MemoryWriter } from '../../src/output/writer.ts';
import { EPOCH, FIXTURE_CONTENT, listFiles, publishLanguage, ROOT, tmpDir } from '../helpers/site.ts';

/** A small seeded generator (mulberry32): the same seed, the same edits. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Site {
  content: string;
  templates: string;
  rnd: () => number;
  step: number;
}

const pick = <T,>(s: Site, xs: readonly T[]): T => xs[Math.floor(s.rnd() * xs.length)]!;
const read = (f: string) => readFileSync(f, 'utf8');
function rewrite(file: string, from: RegExp, to: (m: string, ...g: string[]) => string): void {
  const before = read(file);
  if (!new RegExp(from.source, from.flags.replace('g', '')).test(before)) throw new Error(`edit: ${String(from)} not found in ${file}`);
  writeFileSync(file, before.replace(from, to as never));
}
function posts(s: Site): string[] {
  const blog = path.join(s.content, 'blog');
  return readdirSync(blog).flatMap((slug) => readdirSync(path.join(blog, slug)).map((f) => `blog/${slug}/${f}`));
}
const siteYaml = (s: Site) => parse(read(path.join(s.content, 'site.yaml'))) as { languages: string[]; draftLanguages?: string[] };
const languages = (s: Site) => siteYaml(s).languages;
const publishedPosts = (s: Site) => posts(s).filter((p) => languages(s).includes(path.basename(p, '.md')));

/** Each edit changes the content copy and says what it did; `postsOnly` edits touch no page but posts and lists. */
const EDITS: { name: string; apply(s: Site): string }[] = [
  {
    name: 'post body',
    apply(s) {
      const p = pick(s, publishedPosts(s));
      writeFileSync(path.join(s.content, p), `${read(path.join(s.content, p))}\nA paragraph added in step ${s.step}.\n`);
      return `${p}: body`;
    },
  },
  {
    name: 'post date',
    apply(s) {
      const p = pick(s, publishedPosts(s));
      const day = String(1 + Math.floor(s.rnd() * 28)).padStart(2, '0');
      const month = String(1 + Math.floor(s.rnd() * 9)).padStart(2, '0');
      rewrite(path.join(s.content, p), /^date: .*$/m, () => `date: 2025-${month}-${day}`);
      return `${p}: date 2025-${month}-${day}`;
    },
  },
  {
    name: 'post category',
    apply(s) {
      const p = pick(s, publishedPosts(s));
      const categories = /^categories: \[(.*)\]/m.exec(read(path.join(s.content, 'data/blog.yaml')))![1]!.split(',').map((c) => c.trim());
      const category = pick(s, categories);
      rewrite(path.join(s.content, p), /^category: .*$/m, () => `category: ${category}`);
      return `${p}: category ${category}`;
    },
  },
  {
    name: 'post title',
    apply(s) {
      const p = pick(s, publishedPosts(s));
      rewrite(path.join(s.content, p), /^title: .*$/m, () => `title: "A title of step ${s.step}"`);
      return `${p}: title`;
    },
  },
  {
    name: 'price',
    apply(s) {
      const price = 300 + 10 * s.step;
      rewrite(path.join(s.content, 'data/rates.yaml'), /price: \d+/, () => `price: ${price}`);
      return `data/rates.yaml: first price ${price}`;
    },
  },
  {
    // A data entry a page is made from (route.entry), which other pages read from the data too
    // (the booking form's cities, the contact listings): its areas rotated.
    name: 'city entry',
    apply(s) {
      rewrite(path.join(s.content, 'data/cities.yaml'), /^( {2}areas: \[)([^\]]*)\]$/m, (_m, key, list) => {
        const areas = list.split(',').map((a) => a.trim());
        return `${key}${[...areas.slice(1), areas[0]].join(', ')}]`;
      });
      return 'data/cities.yaml: first areas rotated';
    },
  },
  {
    // A data kind a few pages show: a venue's phone.
    name: 'venue phone',
    apply(s) {
      rewrite(path.join(s.content, 'data/venues.yaml'), /^( {2}phone: ")([^"]*)"$/m, (_m, key) => `${key}+34 910 000 ${String(100 + s.step).padStart(3, '0')}"`);
      return 'data/venues.yaml: first phone';
    },
  },
  {
    name: 'text on every page',
    apply(s) {
      const lang = pick(s, languages(s));
      rewrite(path.join(s.content, `i18n/${lang}.yaml`), /^( {2}madeWith: )(.*)$/m, (_m, key, text) => `${key}${text.replace(/ \(\d+\)$/, '')} (${s.step})`);
      return `i18n/${lang}.yaml: footer.madeWith`;
    },
  },
  {
    // A text the home page shows (its hero): only the pages that read it are rendered.
    name: 'text on one page',
    apply(s) {
      const lang = pick(s, languages(s));
      rewrite(path.join(s.content, `i18n/${lang}.yaml`), /^(hero:\n(?: {2}.*\n)*? {2}title: )(.*)$/m, (_m, key, text) => `${key}${text.replace(/ \(\d+\)$/, '')} (${s.step})`);
      return `i18n/${lang}.yaml: hero.title`;
    },
  },
  {
    // A city's name: shown as itself (footer, city page) and inside texts listing the cities
    // through a list fact (`{cities:line}`, `{cities:names}`), whose pages read only those texts.
    name: 'city name',
    apply(s) {
      const lang = pick(s, languages(s));
      rewrite(path.join(s.content, `i18n/${lang}.yaml`), /^( {2}madrid:\n {4}name: )(.*)$/m, (_m, key, text) => `${key}${text.replace(/ \(\d+\)$/, '')} (${s.step})`);
      return `i18n/${lang}.yaml: city.madrid.name`;
    },
  },
  {
    // Read by every language's pages (the language switcher), not only its own.
    name: 'language name',
    apply(s) {
      const lang = pick(s, languages(s));
      rewrite(path.join(s.content, `i18n/${lang}.yaml`), /^(lang:\n {2}name: )(.*)$/m, (_m, key, text) => `${key}${text.replace(/ \d+$/, '')} ${s.step}`);
      return `i18n/${lang}.yaml: lang.name`;
    },
  },
  {
    name: 'new language',
    apply(s) {
      const draft = siteYaml(s).draftLanguages ?? [];
      if (!draft.length) return 'no draft language left to publish';
      publishLanguage(s.content, draft[0]!);
      return `site.yaml: ${draft[0]} published`;
    },
  },
  {
    name: 'deleted translation',
    apply(s) {
      const p = pick(s, publishedPosts(s).filter((f) => !f.endsWith('/en.md')));
      if (!p) return 'no translation left to delete';
      rmSync(path.join(s.content, p));
      return `${p}: deleted`;
    },
  },
  {
    // No shipped post links another post: a whole post can go (its folder, every language).
    name: 'deleted post',
    apply(s) {
      const slugs = readdirSync(path.join(s.content, 'blog'));
      if (slugs.length < 3) return 'too few posts left to delete one';
      const slug = pick(s, slugs);
      rmSync(path.join(s.content, 'blog', slug), { recursive: true });
      return `blog/${slug}/: deleted`;
    },
  },
  {
    name: 'renamed image',
    apply(s) {
      const dir = path.join(s.content, 'images/gallery');
      const from = pick(s, readdirSync(dir));
      const to = from.replace(/(-renamed\d+)?\.svg$/, `-renamed${s.step}.svg`);
      renameSync(path.join(dir, from), path.join(dir, to));
      rewrite(path.join(s.content, 'data/gallery.yaml'), new RegExp(`gallery/${from.replace('.', '\\.')}`, 'g'), () => `gallery/${to}`);
      return `images/gallery/${from} → ${to}`;
    },
  },
  {
    name: 'template change',
    apply(s) {
      rewrite(path.join(s.templates, 'components/Footer.tsx'), /<footer className="site-footer( step\d+)?"/, () => `<footer className="site-footer step${s.step}"`);
      return 'templates/components/Footer.tsx: footer class';
    },
  },
];

/** Every file of the disk build (web root and host folder) against the cold in-memory build's. */
function compare(out: string, cold: MemoryWriter, seed: number, steps: string[]): void {
  const where = `seed ${seed} (SITE_TEST_SEED=${seed} replays it) after: ${steps.join('; ')}`;
  const memory = cold.output;
  expect(listFiles(out).sort(), where).toEqual([...memory.keys()].sort());
  for (const f of listFiles(out)) {
    const want = memory.get(f)!;
    const got = readFileSync(path.join(out, f));
    if (!got.equals(Buffer.from(want as Uint8Array | string))) expect(got.toString('utf8'), `${f} differs from the cold build: ${where}`).toBe(Buffer.from(want as string).toString('utf8'));
  }
  const host = hostFolder(out);
  const beside = cold.beside;
  expect(existsSync(host) ? readdirSync(host).sort() : [], where).toEqual([...beside.keys()].sort());
  for (const [f, want] of beside) expect(read(path.join(host, f)), `${f} beside the output: ${where}`).toBe(Buffer.from(want as string).toString('utf8'));
}

/** A copy of the shipped content with its templates and client beside it (a template edit stays in the copy). */
function siteCopy(rnd: () => number): Site {
  const root = path.join(tmpDir('site-inc-'), 'site');
  cpSync(FIXTURE_CONTENT, path.join(root, 'content'), { recursive: true });
  // The admin pages (off in the shipped site) read every post and the whole route table.
  rewrite(path.join(root, 'content/site.yaml'), /^( {2}admin: )false$/m, (_m, key) => `${key}true`);
  cpSync(path.join(ROOT, 'templates'), path.join(root, 'templates'), { recursive: true });
  cpSync(path.join(ROOT, 'client'), path.join(root, 'client'), { recursive: true });
  return { content: path.join(root, 'content'), templates: path.join(root, 'templates'), rnd, step: 0 };
}

/** A cold build of the same content and output path, in memory (no record, nothing on disk). */
async function coldBuild(s: Site, out: string): Promise<MemoryWriter> {
  const writer = new MemoryWriter();
  await build(configOf(s, out), writer);
  return writer;
}

function configOf(s: Site, out: string) {
  return { ...resolveConfig({ content: s.content, out, quiet: true }), today: buildDate({ SOURCE_DATE_EPOCH: EPOCH }) };
}

async function diskBuild(s: Site, out: string): Promise<BuildResult> {
  const config = configOf(s, out);
  const last = await readRecord(config);
  return build(config, new DiskWriter(out, { known: last?.files }));
}

const pageCount = (r: BuildResult) => Object.values(r.stats.pages).reduce((n, byLang) => n + Object.values(byLang).reduce((a, b) => a + b, 0), 0);
const STEPS = 3;
const baseSeed = Number(process.env.SITE_TEST_SEED) || Math.floor(Math.random() * 2 ** 31);

// Each sequence is a few tests in order (its first build, then one test a step): no single test
// holds a busy machine for long (one test a sequence took 11.8 s beside other work).
describe('[R-INC-2] incremental builds equal cold builds', () => {
  describe.each([0, 1, 2, 3])('random edit sequence %i', (n) => {
    const seed = baseSeed + n;
    let s: Site;
    let out: string;
    const steps: string[] = [];
    it('first build', async () => {
      s = siteCopy(random(seed));
      out = path.join(tmpDir('site-inc-out-'), 'dist');
      await diskBuild(s, out);
    });
    it.each(Array.from({ length: STEPS }, (_, i) => i))('edit %i: an incremental build equals a cold build', async (i) => {
      expect(s, 'the sequence\'s first build did not run').toBeDefined();
      s.step = n * 10 + i + 1;
      const edit = pick(s, EDITS);
      steps.push(edit.apply(s));
      const result = await diskBuild(s, out);
      // [R-INC-1] a paragraph added to a post renders that one page (no image or link of it changed), and says which file changed.
      if (edit.name === 'post body') expect(result.stats.incremental, `seed ${seed}, ${steps.join('; ')}`).toMatchObject({ rendered: 1, why: expect.stringMatching(/^blog\/.*changed/) });
      // A title shows on the post's pages, the lists holding it and the pages that read every post (admin): not the whole site.
      if (edit.name === 'post title') expect(result.stats.incremental!.rendered, `seed ${seed}, ${steps.join('; ')}`).toBeLessThan(pageCount(result) / 4);
      // A text only the footer shows: the footer is made once and spliced into its language's pages, which are not rendered again.
      if (edit.name === 'text on every page') {
        expect(result.stats.incremental!.spliced, `seed ${seed}, ${steps.join('; ')}`).toBeGreaterThan(0);
        expect(result.stats.incremental!.rendered, `seed ${seed}, ${steps.join('; ')}`).toBeLessThan(pageCount(result) / 4);
      }
      // A price renders the pages that read the rates (or a text naming a price), not every page.
      if (edit.name === 'price') expect(result.stats.incremental!.rendered, `seed ${seed}, ${steps.join('; ')}`).toBeLessThan(pageCount(result));
      // A text one page shows renders the pages that read it (the home page, in its language), not the rest.
      if (edit.name === 'text on one page') expect(result.stats.incremental!.rendered, `seed ${seed}, ${steps.join('; ')}`).toBeLessThan(pageCount(result) / 4);
      compare(out, await coldBuild(s, out), seed, steps);
    });
  });
});
