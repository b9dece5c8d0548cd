/**
 * R-OPS-9: lists of cities in texts come from data/cities.yaml ({cities:names}, {cities:in}…), in
 * each language's form, so a fourth city joins every sentence that lists them; a text that types
 * such a list is reported. `site new city` drafts neutral texts (no other city's places, no endings
 * glued onto a foreign name). Expected names and forms are read from the content.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse, parseDocument } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyContent, read, runCli } from '../helpers/site.ts';
import { renderSite } from '../helpers/render.ts';
import { parseHtml } from '../helpers/dom.ts';
import { flatten } from '../helpers/content.ts';

type SiteYaml = { languages: string[]; defaultLanguage: string; draftLanguages?: string[] };
const yamlOf = <T,>(dir: string, f: string) => parse(readFileSync(path.join(dir, f), 'utf8')) as T;

let content: string;
let site: SiteYaml;
let published: string[];
let created: Awaited<ReturnType<typeof runCli>>;
beforeAll(async () => {
  content = copyContent();
  created = await runCli(['new', 'city', 'vienna', '--timezone', 'Europe/Vienna', '--name', 'Vienna', '--content', content]);
  site = yamlOf<SiteYaml>(content, 'site.yaml');
  published = site.languages.filter((l) => !(site.draftLanguages ?? []).includes(l));
});

describe('[R-OPS-9] city lists and new city drafts', () => {
  it('site new city drafts neutral texts: none of the first city\'s places or words, no endings glued onto the name', () => {
    expect(created.code, created.stderr).toBe(0);
    const cities = yamlOf<{ id: string; areas?: string[] }[]>(content, 'data/cities.yaml');
    const first = cities[0]!;
    for (const lang of site.languages) {
      const table = flatten(yamlOf(content, `i18n/${lang}.yaml`));
      const drafts = Object.entries(table).filter(([k]) => k.startsWith('city.vienna.') || k.startsWith('page.vienna.'));
      expect(drafts.length, lang).toBeGreaterThan(2);
      const firstWords = [table[`city.${first.id}.name`]!, ...Object.entries(table).filter(([k]) => k.startsWith(`city.${first.id}.area.`)).map(([, v]) => v)];
      for (const [key, value] of drafts) {
        for (const w of firstWords) expect(value, `${lang} ${key}`).not.toContain(w);
        // The name stands alone: "Vienna", never "Viennaе"/"Viennaς".
        expect(value, `${lang} ${key}`).not.toMatch(/Vienna\p{L}/u);
        if (lang !== site.defaultLanguage || !key.endsWith('.name')) expect(value.startsWith('[untranslated] ') || !value.includes(' '), `${lang} ${key}`).toBe(true);
      }
    }
  });

  it('made active, the fourth city joins every list of cities in every language, in that language\'s form', async () => {
    // Publish Vienna with the drafts as they are (the text after the mark shows).
    const doc = parseDocument(readFileSync(path.join(content, 'data/cities.yaml'), 'utf8'));
    doc.setIn([doc.toJS().length - 1, 'draft'], false);
    writeFileSync(path.join(content, 'data/cities.yaml'), doc.toString());
    const ids = yamlOf<{ id: string }[]>(content, 'data/cities.yaml').map((c) => c.id);
    expect(ids).toHaveLength(4);
    const { out } = await renderSite(content);
    for (const lang of published) {
      const table = flatten(yamlOf(content, `i18n/${lang}.yaml`));
      const strip = (v: string | undefined) => v?.replace(/^\[untranslated\] /, '');
      // The home page's title lists the cities in the page language's locative form where it has one.
      const expected = ids.map((id) => strip(table[`city.${id}.in`]) ?? strip(table[`city.${id}.name`])!);
      const file = lang === site.defaultLanguage ? 'index.html' : `${lang}.html`;
      const title = parseHtml(read(out, file)).querySelector('title')!.textContent!;
      const list = new Intl.ListFormat(table['lang.locale'], { style: 'long', type: 'conjunction' }).format(expected);
      expect(title, lang).toContain(list);
    }
  });

  it('a text that types a list of cities is reported, naming file, line and key', async () => {
    const c = copyContent();
    const table = flatten(yamlOf(c, `i18n/${site.defaultLanguage}.yaml`));
    const names = yamlOf<{ id: string }[]>(c, 'data/cities.yaml').map((x) => table[`city.${x.id}.name`]!);
    const doc = parseDocument(readFileSync(path.join(c, `i18n/${site.defaultLanguage}.yaml`), 'utf8'));
    doc.setIn(['blog', 'intro'], `Notes from ${names.slice(0, -1).join(', ')} and ${names.at(-1)}.`);
    writeFileSync(path.join(c, `i18n/${site.defaultLanguage}.yaml`), doc.toString());
    const { warnings } = await renderSite(c);
    expect(warnings).toMatch(new RegExp(`i18n/${site.defaultLanguage}\\.yaml:\\d+:\\d+: warning \\[city-list\\] blog\\.intro: types a list of cities: write \\{cities:names\\}`));
  });
});
