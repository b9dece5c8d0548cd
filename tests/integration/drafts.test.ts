/**
 * R-OPS-8: a language or a city can be a draft. `--drafts` (and `site watch`) build it for review,
 * showing a missing text as its key; a published build leaves it out entirely (pages, sitemap,
 * hreflang, menus, booking) and says what is missing. A published build never shows a raw key.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyContent, has, htmlFiles, read, runCli, runMain, type Out } from '../helpers/site.ts';
import { renderErrors, renderSite } from '../helpers/render.ts';
import { parseHtml } from '../helpers/dom.ts';

type SiteYaml = { languages: string[]; defaultLanguage: string; draftLanguages?: string[] };
const readYaml = <T,>(dir: string, f: string) => parse(readFileSync(path.join(dir, f), 'utf8')) as T;
const writeYaml = (dir: string, f: string, v: unknown) => writeFileSync(path.join(dir, f), stringify(v));

/** The fixture with French as a draft language, and a draft city (vienna) with texts only in the default language. */
function draftContent(): string {
  const content = copyContent();
  const site = readYaml<SiteYaml>(content, 'site.yaml');
  site.languages = site.languages.filter((l) => l !== 'fr');
  site.draftLanguages = ['fr'];
  writeYaml(content, 'site.yaml', site);
  const cities = readYaml<Record<string, unknown>[]>(content, 'data/cities.yaml');
  cities.push({ id: 'vienna', path: '/vienna', timezone: 'Europe/Vienna', status: 'active', draft: true });
  writeYaml(content, 'data/cities.yaml', cities);
  const table = readYaml<{ city: Record<string, unknown>; page: Record<string, unknown> }>(content, `i18n/${site.defaultLanguage}.yaml`);
  const first = Object.keys(table.city)[0]!;
  table.city.vienna = { ...(table.city[first] as object), name: 'Vienna' };
  table.page.vienna = { title: 'Vienna', description: 'Vienna.' };
  writeYaml(content, `i18n/${site.defaultLanguage}.yaml`, table);
  return content;
}

let content: string;
let published: Out;
let notes: string;
let preview: Out;
let previewWarnings: string;
beforeAll(async () => {
  content = draftContent();
  ({ out: published, warnings: notes } = await renderSite(content));
  ({ out: preview, warnings: previewWarnings } = await renderSite(content, { drafts: true }));
});

describe('[R-OPS-8] draft languages and cities', () => {
  it('a published build leaves a draft language out: no pages, no sitemap entry, no hreflang, no switcher link; the build says so', () => {
    expect(htmlFiles(published).filter((f) => f.startsWith('fr/') || f === 'fr.html')).toEqual([]);
    expect(read(published, 'sitemap.xml')).not.toMatch(/\/fr[/<"]/);
    for (const f of htmlFiles(published).slice(0, 40)) {
      const html = read(published, f);
      expect(html, f).not.toMatch(/hreflang="fr"|hrefLang="fr"/i);
      expect(html, f).not.toMatch(/href="\/fr[/"]/);
    }
    expect(notes).toMatch(/i18n\/fr\.yaml: note \[draft\] fr is a draft language .* left out of this build/);
  });

  it('a published build leaves a draft city out: no page, no booking option, no footer link', () => {
    expect(htmlFiles(published).some((f) => /(^|\/)vienna\.html$/.test(f))).toBe(false);
    expect(read(published, 'booking.html')).not.toMatch(/value="vienna"/);
    expect(read(published, 'index.html')).not.toMatch(/href="\/vienna"/);
    expect(notes).toMatch(/data\/cities\.yaml: note \[draft\] vienna: draft/);
  });

  it('--drafts builds both for review: French pages with their hreflang, the Vienna page in every language, raw keys only there, reported', () => {
    expect(has(preview, 'fr.html')).toBe(true);
    expect(read(preview, 'index.html')).toMatch(/hreflang="fr"|hrefLang="fr"/i);
    expect(has(preview, 'vienna.html')).toBe(true);
    expect(has(preview, 'es/vienna.html')).toBe(true);
    // Spanish has no Vienna texts: the draft shows the key and the build names it.
    expect(parseHtml(read(preview, 'es/vienna.html')).querySelector('h1')!.textContent).toMatch(/city\.vienna|page\.vienna/);
    expect(previewWarnings).toMatch(/i18n\/es\.yaml: warning \[missing-translation\] \d+ key\(s\) used by pages but missing in es \(shown as the key in this draft build\): .*vienna/);
  });

  it('the same city made active (draft: false) without its translations fails the published build, naming the keys; no raw key is published', async () => {
    const active = draftContent();
    const cities = readYaml<Record<string, unknown>[]>(active, 'data/cities.yaml');
    cities.find((c) => c.id === 'vienna')!.draft = false;
    writeYaml(active, 'data/cities.yaml', cities);
    // Only its name in the WhatsApp message language (es here): the rest of its Spanish texts are missing.
    const es = readYaml<{ city: Record<string, unknown> }>(active, 'i18n/es.yaml');
    es.city.vienna = { name: 'Viena' };
    writeYaml(active, 'i18n/es.yaml', es);
    const err = await renderErrors(active);
    const messages = err.diagnostics.map((d) => `${d.file}: ${d.message}`).join('\n');
    expect(messages).toMatch(/i18n\/es\.yaml: \d+ key\(s\) used by pages are missing in es: write them, or make es a draft .*city\.vienna/);
  });

  it('site check --missing <lang> lists every missing and untranslated text, not the first ten', async () => {
    const c = copyContent();
    const site = readYaml<SiteYaml>(c, 'site.yaml');
    const lang = site.languages.find((l) => l !== site.defaultLanguage)!;
    const flat = (t: Record<string, unknown>, p = ''): string[] => Object.entries(t).flatMap(([k, v]) => (v && typeof v === 'object' ? flat(v as Record<string, unknown>, `${p}${k}.`) : [`${p}${k}`]));
    const table = readYaml<Record<string, Record<string, unknown>>>(c, `i18n/${lang}.yaml`);
    // Drop a whole group of texts (more than ten keys) and mark one text untranslated.
    const group = Object.keys(table).find((g) => g !== 'lang' && flat(table[g]!).length > 12)!;
    const dropped = flat(table[group]!).map((k) => `${group}.${k}`);
    delete table[group];
    writeYaml(c, `i18n/${lang}.yaml`, table);
    const r = await runCli(['check', '--content', c, '--drafts', '--missing', lang]);
    for (const k of dropped) expect(r.stdout).toContain(`missing       ${k}:`);
    expect(r.stdout).toMatch(new RegExp(`${lang}: ${dropped.length} text\\(s\\) missing`));
  });

  it('a draft city\'s untranslated texts are left out with it: no [untranslated] warning (so --strict passes for them); --drafts shows them', async () => {
    const c = copyContent();
    const added = await runMain(['new', 'city', 'lisbon', '--content', c, '--timezone', 'Europe/Lisbon']);
    expect(added.code, added.stderr).toBe(0);
    const published = await runMain(['check', '--content', c]);
    expect(published.stdout + published.stderr).not.toMatch(/\[untranslated\][^\n]*lisbon/);
    expect(published.stdout + published.stderr).toMatch(/lisbon: draft \(draft: true\), left out of this build/);
    const drafts = await runMain(['check', '--content', c, '--drafts']);
    expect(drafts.stdout + drafts.stderr).toMatch(/\[untranslated\][^\n]*city\.lisbon/);
  });

  it('a draft city\'s missing texts are left out with it too, and only its own groups (city.<id>, page.<id>): a same-named group elsewhere still counts', async () => {
    const c = copyContent();
    const site = readYaml<SiteYaml>(c, 'site.yaml');
    const other = site.languages.find((l) => l !== site.defaultLanguage)!;
    // A city named like a group of another text (services.<id>…), as its id may be.
    const table = readYaml<Record<string, Record<string, unknown>>>(c, `i18n/${other}.yaml`);
    const id = Object.keys(table.services!).find((k) => typeof table.services![k] === 'object')!;
    expect((await runMain(['new', 'city', id, '--content', c, '--timezone', 'Europe/Lisbon', '--path', '/somewhere-new'])).code).toBe(0);
    const written = readYaml<Record<string, Record<string, Record<string, unknown>>>>(c, `i18n/${other}.yaml`);
    // One of the city's texts deleted in that language: a missing key, of the draft only.
    delete written.city![id]!.name;
    // One text of the same-named services group marked untranslated: the build's business.
    let node = written.services![id] as Record<string, unknown>;
    const keyPath: string[] = [];
    for (;;) {
      const k = Object.keys(node)[0]!;
      keyPath.push(k);
      if (typeof node[k] === 'string') {
        node[k] = `[untranslated] ${node[k] as string}`;
        break;
      }
      node = node[k] as Record<string, unknown>;
    }
    const key = keyPath.join('\\.');
    writeFileSync(path.join(c, `i18n/${other}.yaml`), stringify(written));
    const r = await runMain(['check', '--content', c]);
    const report = r.stdout + r.stderr;
    expect(report).not.toMatch(new RegExp(`missing-translation\\][^\\n]*city\\.${id}\\.name`));
    expect(report).toMatch(new RegExp(`\\[untranslated\\][^\\n]*services\\.${id}\\.${key}`));
    expect(report).not.toMatch(new RegExp(`\\[untranslated\\][^\\n]*(city|page)\\.${id}\\.`));
  });

  it('site new city refuses a path the site already builds at (a language, a page with a parameter, the journal, a redirect, a landing page, the build\'s own files), changing no file (exit 2)', async () => {
    const c = copyContent();
    const site = readYaml<SiteYaml>(c, 'site.yaml');
    const other = site.languages.find((l) => l !== site.defaultLanguage)!;
    const pages = readYaml<{ path: string }[]>(c, 'pages.yaml');
    const blog = readYaml<{ path: string }>(c, 'data/blog.yaml').path;
    const post = readdirSync(path.join(c, 'blog'))[0]!;
    const taken = [
      `/${other}`,
      `/${other}${pages.find((p) => p.path !== '/' && !p.path.includes('{'))!.path}`,
      ...(site.draftLanguages ?? []).map((l) => `/${l}`),
      pages.find((p) => p.path.includes('{'))!.path.replace(/\{[^}]+\}/g, 'someone'),
      blog,
      `${blog}/${post}`,
      readYaml<{ from: string }[]>(c, 'data/redirects.yaml')[0]!.from,
      `/s/${readYaml<{ slug: string }[]>(c, 'data/directories.yaml')[0]!.slug}`,
      '/assets',
      '/index',
    ];
    const files = () => ['data/cities.yaml', 'pages.yaml', ...readdirSync(path.join(c, 'i18n')).map((f) => `i18n/${f}`)].map((f) => readFileSync(path.join(c, f), 'utf8'));
    const before = files();
    for (const at of taken) {
      const r = await runMain(['new', 'city', 'lisbon', '--content', c, '--timezone', 'Europe/Lisbon', '--path', at]);
      expect(r.code, at).toBe(2);
      expect(r.stderr, at).toContain(`${at} is taken:`);
    }
    expect(files()).toEqual(before);
    // The default language is at the root: its code is free as a path.
    const free = await runMain(['new', 'city', 'lisbon', '--content', c, '--timezone', 'Europe/Lisbon', '--path', `/${site.defaultLanguage}`]);
    expect(free.code, free.stderr).toBe(0);
  });

  it("site check --missing <lang> after site new city lists every text the city left marked in <lang>, those the default language lacks too (a city name's forms)", async () => {
    const c = copyContent();
    const site = readYaml<SiteYaml>(c, 'site.yaml');
    const added = await runMain(['new', 'city', 'lisbon', '--content', c, '--timezone', 'Europe/Lisbon']);
    expect(added.code, added.stderr).toBe(0);
    for (const lang of [...site.languages, ...(site.draftLanguages ?? [])].filter((l) => l !== site.defaultLanguage)) {
      // Every key the language's table marks untranslated, read from the file the command wrote.
      const text = readFileSync(path.join(c, 'i18n', `${lang}.yaml`), 'utf8');
      const marked: string[] = [];
      const walk = (t: Record<string, unknown>, p: string) => {
        for (const [k, v] of Object.entries(t)) {
          if (v && typeof v === 'object') walk(v as Record<string, unknown>, `${p}${k}.`);
          else if (typeof v === 'string' && v.startsWith('[untranslated]')) marked.push(`${p}${k}`);
        }
      };
      walk(parse(text) as Record<string, unknown>, '');
      expect(marked.length).toBeGreaterThan(0);
      const r = await runMain(['check', '--content', c, '--drafts', '--missing', lang]);
      const listed = [...r.stdout.matchAll(/^ {2}untranslated {2}(\S+):/gm)].map((m) => m[1]);
      expect(listed.sort(), lang).toEqual(marked.sort());
    }
  });
});
