/** The operator's commands, run with the real CLI on fixture copies: version, usage errors, help, check, scaffolding. */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { postSchema } from '../../src/content/schema.ts';
import { splitFrontMatter } from '../../src/content/post-body.ts';
import { buildSite, copyContent, edit, EPOCH, listFiles, read, ROOT, runCli, runMain, tmpDir, type CliResult } from '../helpers/site.ts';
import { flatten } from '../helpers/content.ts';
import { parseHtml } from '../helpers/dom.ts';

describe('version, usage errors and help', () => {
  it('[R-OPS-6] site --version prints the package version', async () => {
    const r = await runCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
  });

  it('[R-OPS-6] usage errors exit 2 (unknown command or option, bad or missing argument); a failed build exits 1', async () => {
    const usage: string[][] = [['bogus'], ['build', '--bogus'], ['serve', '--port', 'eighty'], ['new', 'city', 'x'], ['new', 'post', 'Not A Slug'], ['build', '--base-url', 'not-a-url'], []];
    for (const args of usage) {
      const r = await runCli(args);
      expect(r.code, `site ${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/error|must|not a|--help|Usage/);
    }
    const content = copyContent();
    edit(content, 'data/health.yaml', /lastUpdate: .*\n/, '');
    const failed = await runCli(['build', '--content', content, '--out', path.join(tmpDir(), 'dist')]);
    expect(failed.code).toBe(1);
    // A mistyped content folder is said as such (not as every content file missing).
    for (const [cmd, dir, said] of [
      [['check'], path.join(content, 'nope'), 'no such folder'],
      [['build'], path.join(content, 'site.yaml'), 'is a file, not a folder'],
      [['check'], path.join(content, 'blog'), `${path.join(content, 'blog')} holds no site.yaml, so it is not a content folder`],
      [['schemas'], path.join(content, 'nope'), 'no such folder'],
      [['new', 'post', 'a-post'], path.join(content, 'nope'), 'no such folder'],
    ] as const) {
      const r = await runMain([...cmd, '--content', dir, ...(cmd[0] === 'build' ? ['--out', path.join(tmpDir(), 'dist')] : [])]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`--content ${dir}: ${said}`);
      expect(r.stderr).not.toContain('missing-file');
    }
    // --missing takes a language code, never a path.
    for (const lang of ['../site', '.es']) {
      const r = await runMain(['check', '--content', content, '--missing', lang]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`--missing ${lang}: not a language code`);
    }
  });

  it('[R-OPS-6] help wraps cleanly at 80 columns: no line longer, no line broken before it had to be', async () => {
    const helps: CliResult[] = [];
    for (const args of [['--help'], ['build', '--help'], ['watch', '--help'], ['serve', '--help'], ['check', '--help'], ['new', '--help'], ['new', 'post', '--help'], ['new', 'language', '--help'], ['new', 'city', '--help'], ['schemas', '--help']]) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).toBe(0);
      helps.push(r);
    }
    for (const { stdout } of helps) {
      const lines = stdout.split('\n');
      lines.forEach((line, i) => {
        expect(line.length, line).toBeLessThanOrEqual(80);
        const next = lines[i + 1];
        // A continuation (same paragraph: not blank, not a new option or item) must not have fitted on this line.
        if (!line.trim() || !next?.trim() || /^\s*(-|\S+:$)/.test(next) || /^ {2}\S/.test(next)) return;
        const indent = /^\s*/.exec(next)![0].length;
        if (indent !== 0 && indent < 10) return; // examples and sub-lists are laid out by hand
        const firstWord = next.trim().split(/\s+/)[0]!;
        expect(line.length + 1 + firstWord.length, `"${line}" was broken before "${firstWord}"`).toBeGreaterThan(80);
      });
    }
  });
});

describe('site check', () => {
  it('[R-OPS-6] check reports like build, writes nothing, and its exit code says the result', async () => {
    const content = copyContent();
    const before = listFiles(path.dirname(content));
    const ok = await runCli(['check', '--content', content]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/pages in \d+ languages would be built; nothing was written/);
    expect(ok.stdout).toMatch(/warning \[sample\]/); // the same warnings build prints
    expect(listFiles(path.dirname(content))).toEqual(before);
    // The sample content has warnings: --strict turns them into a failure, as for build.
    // de is a draft language: --drafts checks it (a published check leaves it out).
    const strict = await runCli(['check', '--content', content, '--strict', '--drafts']);
    expect(strict.code).toBe(1);
    edit(content, 'data/business.yaml', /offers: \[/, 'offers: [nonexistent, ');
    const bad = await runCli(['check', '--content', content]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/data\/business\.yaml:\d+:\d+: error \[reference\] offers\[0\]: "nonexistent" is not a rate tier id/);
    expect(listFiles(path.dirname(content))).toEqual(before);
  });
});

describe('scaffolding: site new post|language|city', () => {
  let content: string;
  let out: string;
  let build: CliResult;
  let enKeys: string[];
  const scaffold: CliResult[] = [];
  /** The operator's YAML files as they were before the commands ran, by path. */
  const before = new Map<string, string>();

  beforeAll(async () => {
    content = copyContent();
    enKeys = Object.keys(flatten(parse(readFileSync(path.join(content, 'i18n/en.yaml'), 'utf8'))));
    for (const f of ['site.yaml', 'data/cities.yaml', ...readdirSync(path.join(content, 'i18n')).map((n) => `i18n/${n}`)]) before.set(f, readFileSync(path.join(content, f), 'utf8'));
    for (const args of [
      ['new', 'post', 'barcelona-evenings', '--langs', 'en,es', '--content', content],
      ['new', 'language', 'de', '--content', content],
      // A draft language's posts are written as its translators work.
      ['new', 'post', 'translators-notes', '--langs', 'de', '--content', content],
      ['new', 'city', 'barcelona', '--timezone', 'Europe/Madrid', '--content', content],
    ])
      scaffold.push(await runCli(args));
    ({ out, result: build } = await buildSite(content, ['--drafts']));
  });

  it('[R-OPS-6] new post writes each language with front matter valid for the schema, today\'s date and the first category', () => {
    for (const r of scaffold) expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(path.join(content, 'blog/barcelona-evenings')).sort()).toEqual(['en.md', 'es.md']);
    const blog = parse(readFileSync(path.join(content, 'data/blog.yaml'), 'utf8'));
    for (const lang of ['en', 'es']) {
      const matter = parse(splitFrontMatter(readFileSync(path.join(content, `blog/barcelona-evenings/${lang}.md`), 'utf8'))!.matter);
      expect(postSchema.safeParse(matter).success, lang).toBe(true);
      expect(matter.date).toBe(new Date(Number(EPOCH) * 1000).toISOString().slice(0, 10));
      expect(matter.category).toBe(blog.categories[0]);
      expect(matter.draft).toBe(true);
      expect(existsSync(path.join(out, lang === 'en' ? 'blog/barcelona-evenings.html' : `${lang}/blog/barcelona-evenings.html`)), lang).toBe(true);
    }
    expect(existsSync(path.join(out, 'ru/blog/barcelona-evenings.html'))).toBe(false);
    expect(readdirSync(path.join(content, 'blog/translators-notes'))).toEqual(['de.md']);
  });

  it('[R-OPS-6] new post: an empty --title or a slug too long for a file name is a usage error (a check would refuse them), and a language named twice is written once', async () => {
    const empty = await runMain(['new', 'post', 'untitled-one', '--title', ' ', '--content', content]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--title: a post needs a title');
    expect(existsSync(path.join(content, 'blog/untitled-one'))).toBe(false);
    // A slug whose page's file name no file system takes: refused, as the build would refuse it.
    const long = Array(25).fill('abcdefghi').join('-');
    const tooLong = await runMain(['new', 'post', long, '--content', content]);
    expect(tooLong.code).toBe(2);
    expect(tooLong.stderr).toContain(`the slug is ${long.length} characters long`);
    expect(existsSync(path.join(content, 'blog', long))).toBe(false);
    const twice = await runMain(['new', 'post', 'said-twice', '--langs', 'en,en', '--content', content]);
    expect(twice.code, twice.stderr).toBe(0);
    expect(twice.stdout.match(/said-twice\/en\.md/g)).toHaveLength(1);
    rmSync(path.join(content, 'blog/said-twice'), { recursive: true });
  });

  it('[R-OPS-6] new language writes every key of the default language, marked untranslated; the build counts them and shows the text', () => {
    const de = flatten(parse(readFileSync(path.join(content, 'i18n/de.yaml'), 'utf8')));
    expect(Object.keys(de).sort()).toEqual([...enKeys, ...Object.keys(de).filter((k) => k.includes('barcelona'))].sort());
    // [R-OPS-8] a new language starts as a draft: a published build leaves it out until it moves to languages.
    expect(parse(readFileSync(path.join(content, 'site.yaml'), 'utf8')).draftLanguages).toContain('de');
    expect(parse(readFileSync(path.join(content, 'site.yaml'), 'utf8')).languages).not.toContain('de');
    const marked = Object.values(de).filter((v) => v.startsWith('[untranslated] ')).length;
    expect(marked).toBeGreaterThan(enKeys.length - 10);
    expect(build.stdout).toContain(`i18n/de.yaml: warning [untranslated] ${marked} untranslated key(s) in de`);
    const page = parseHtml(read(out, 'de/rates.html'));
    expect(page.documentElement.getAttribute('lang')).toBe('de');
    expect(page.body.textContent).not.toContain('[untranslated]');
    const en = flatten(parse(readFileSync(path.join(content, 'i18n/en.yaml'), 'utf8')));
    expect(page.querySelector('title')!.textContent).toContain(en['page.rates.title']!.split('{')[0]!.trim());
  });

  it('[R-OPS-6] new city adds its entry, its page in every language and its texts, marked untranslated', () => {
    const cities = parse(readFileSync(path.join(content, 'data/cities.yaml'), 'utf8'));
    // [R-OPS-8] a draft until its texts are written (built here with --drafts).
    expect(cities.at(-1)).toMatchObject({ id: 'barcelona', timezone: 'Europe/Madrid', status: 'active', draft: true });
    const languages: string[] = parse(readFileSync(path.join(content, 'site.yaml'), 'utf8')).languages;
    for (const lang of languages) {
      const file = lang === 'en' ? 'barcelona.html' : `${lang}/barcelona.html`;
      const doc = parseHtml(read(out, file));
      expect(doc.querySelector('h1')!.textContent, file).toContain('Barcelona');
      expect(doc.body.textContent, file).not.toContain('[untranslated]');
      const name = flatten(parse(readFileSync(path.join(content, `i18n/${lang}.yaml`), 'utf8')))['city.barcelona.name'];
      expect(name, lang).toBe(lang === 'en' ? 'Barcelona' : '[untranslated] Barcelona');
      // The build lists the first keys of each language (de has hundreds before these).
      if (lang !== 'en' && lang !== 'de') expect(build.stdout).toMatch(new RegExp(`untranslated key\\(s\\) in ${lang}[^\\n]*city\\.barcelona\\.name`));
    }
    // Draft languages get the city's texts too: each is published once its table is complete.
    const drafts: string[] = parse(readFileSync(path.join(content, 'site.yaml'), 'utf8')).draftLanguages;
    expect(drafts).toContain('de');
    for (const lang of drafts) {
      const table = flatten(parse(readFileSync(path.join(content, `i18n/${lang}.yaml`), 'utf8')));
      expect(table['city.barcelona.name'], lang).toBe('[untranslated] Barcelona');
      expect(Object.keys(table).some((k) => k.startsWith('page.barcelona.')), lang).toBe(true);
    }
  });

  it('[R-OPS-6] the operator\'s files only gain what the commands add: every line kept as written (escapes, quotes, flow lists, comments)', () => {
    const NBSP = '\u00a0';
    for (const [file, text] of before) {
      const now = readFileSync(path.join(content, file), 'utf8');
      // Each line as it was, in order (site.yaml's draft list gains the new language on its own line).
      const lines = now.split('\n');
      let at = 0;
      for (const line of text.split('\n')) {
        if (file === 'site.yaml' && /^draftLanguages:/.test(line)) continue;
        const found = lines.indexOf(line, at);
        expect(found, `${file}: the line "${line}" was changed or moved`).toBeGreaterThanOrEqual(at);
        at = found + 1;
      }
      expect(now.split(NBSP).length, `${file}: no-break spaces written`).toBe(text.split(NBSP).length);
    }
    // The new table keeps the default table's escapes as escapes (a no-break space is invisible in an editor).
    const de = readFileSync(path.join(content, 'i18n/de.yaml'), 'utf8');
    const en = before.get('i18n/en.yaml')!;
    expect(de.split('\\u00a0').length).toBe(en.split('\\u00a0').length);
    expect(de.includes(NBSP)).toBe(en.includes(NBSP));
  });

  it('[R-OPS-6] --strict fails while texts are untranslated; scaffolding never overwrites', async () => {
    // de is a draft language: --drafts checks it (a published check leaves it out).
    const strict = await runCli(['check', '--content', content, '--strict', '--drafts']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/untranslated key\(s\) in de/);
    const again = await runCli(['new', 'language', 'de', '--content', content]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/i18n\/de\.yaml already exists/);
    const city = await runCli(['new', 'city', 'barcelona', '--timezone', 'Europe/Madrid', '--content', content]);
    expect(city.code).toBe(2);
    const tz = await runCli(['new', 'city', 'lisbon', '--timezone', 'Mars/Olympus', '--content', content]);
    expect(tz.code).toBe(2);
    expect(tz.stderr).toMatch(/not an IANA time zone/);
    // Texts for the id left in a table (a city removed from data/cities.yaml only): refused, and no file changed.
    const lang = (parse(readFileSync(path.join(content, 'site.yaml'), 'utf8')).languages as string[]).at(-1)!;
    edit(content, `i18n/${lang}.yaml`, /^city:\n/m, 'city:\n  lisbon:\n    name: Lisboa\n');
    const files = () => listFiles(content).map((f) => `${f}:${readFileSync(path.join(content, f), 'utf8').length}`);
    const unchanged = files();
    const stale = await runCli(['new', 'city', 'lisbon', '--timezone', 'Europe/Lisbon', '--content', content]);
    expect(stale.code).toBe(2);
    expect(stale.stderr).toContain(`i18n/${lang}.yaml already has texts for "lisbon" (city.lisbon)`);
    expect(files()).toEqual(unchanged);
  });
});
