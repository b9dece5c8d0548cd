/**
 * The privacy policy as built (issue 16 part 6, decisions.md "Privacy and consent"): in every
 * language it names every storage key the client script uses, every GDPR right, a legal basis per
 * purpose, the configured analytics provider and the visitor's own authority. Expected values come
 * from content/ and client/keys.ts, never from one language's wording.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../client/keys.ts';
import { parseHtml } from '../helpers/dom.ts';
import { copyContent, publishLanguage, read, SHIPPED_CONTENT, type Out } from '../helpers/site.ts';
import { renderSite } from '../helpers/render.ts';

/** GDPR Art. 15-18, 20, 21, 7(3) and 77: the rights the policy must list. */
const RIGHTS = ['access', 'rectification', 'erasure', 'restriction', 'portability', 'objection', 'withdrawal', 'complaint'];
/** Every purpose the site stores or sends data for, each needing its legal basis. */
const PURPOSES = ['language', 'consent', 'attribution', 'returning', 'analytics', 'booking'];

const yaml = <T,>(dir: string, file: string) => parse(readFileSync(path.join(dir, file), 'utf8')) as T;
type Site = { languages: string[]; defaultLanguage: string; storageKey: string; analytics: Record<string, string> };
type Legal = { authorities: { country: string; url: string }[]; authoritiesList: string; processors: { ga4: { name: string; url: string } } };

let out: Out;
let site: Site;
let legal: Legal;
let privacyPath: string;
beforeAll(async () => {
  const content = copyContent(SHIPPED_CONTENT);
  // The fixture names an analytics provider (the policy must then say who receives the events) and
  // builds the fr table too, which ships complete but is off by default.
  site = yaml<Site>(content, 'site.yaml');
  site.analytics = { provider: 'ga4', id: 'G-TEST123' };
  writeFileSync(path.join(content, 'site.yaml'), stringify(site));
  if (existsSync(path.join(content, 'i18n', 'fr.yaml'))) site.languages = publishLanguage(content, 'fr');
  legal = yaml<Legal>(SHIPPED_CONTENT, 'data/legal.yaml');
  privacyPath = yaml<{ id: string; path: string }[]>(SHIPPED_CONTENT, 'pages.yaml').find((p) => p.id === 'privacy')!.path;
  ({ out } = await renderSite(content));
});

const page = (lang: string) => {
  const file = lang === site.defaultLanguage ? `${privacyPath.slice(1)}.html` : `${lang}${privacyPath}.html`;
  return parseHtml(read(out, file));
};
/** The text of each listed item in a section, by item id. */
const items = (doc: Document, section: string, ids: string[]) =>
  Object.fromEntries(ids.map((id) => [id, doc.querySelector(`#${section} li[data-item="${id}"]`)?.textContent?.trim() ?? '']));

describe('privacy policy', () => {
  it('[R-VIS-7] the fixture builds every language with a text table, fr included', () => {
    expect(site.languages).toContain('fr');
  });

  // One test per language: each reads one page.
  for (const lang of ['en', 'es', 'ru', 'el', 'fr']) {
    it(`[R-VIS-7] ${lang}: lists every GDPR right and a legal basis for each purpose`, () => {
      if (!site.languages.includes(lang)) return;
      const doc = page(lang);
      for (const [section, ids] of [
        ['rights', RIGHTS],
        ['basis', PURPOSES],
      ] as const) {
        const texts = items(doc, section, [...ids]);
        for (const [id, text] of Object.entries(texts)) {
          expect(text, `${lang} #${section} ${id}`).not.toBe('');
          // A missing translation renders its key.
          expect(text, `${lang} #${section} ${id}`).not.toContain(`privacy.${section}.items`);
        }
        expect(new Set(Object.values(texts)).size, `${lang} #${section}: one distinct text per item`).toBe(ids.length);
      }
    });

    it(`[R-VIS-7] ${lang}: names every storage key the client uses and the analytics provider`, () => {
      if (!site.languages.includes(lang)) return;
      const doc = page(lang);
      const stored = doc.querySelector('#stored')?.textContent ?? '';
      for (const key of Object.values(keys(site.storageKey))) expect(stored, `${lang}: ${key}`).toContain(key);
      const analytics = doc.querySelector('#analytics')!;
      expect(analytics.textContent).toContain(legal.processors.ga4.name);
      expect(analytics.querySelector(`a[href="${legal.processors.ga4.url}"]`)).not.toBeNull();
      // The old text called these statistics anonymous; they are linked to stored campaign data.
      expect(analytics.textContent).not.toMatch(/anonymous (?:visit )?statistics|estadísticas anónimas|анонимная статистика|ανώνυμα στατιστικά|statistiques de visite anonymes/i);
    });

    it(`[R-BRAND-5] ${lang}: the service worker and its cache are listed as stored only with consent, like the other consent-only items`, () => {
      if (!site.languages.includes(lang)) return;
      const stored = items(page(lang), 'stored', ['language', 'consent', 'dismissed', 'attribution', 'returning', 'visit', 'offline']);
      // The words every consent-only item opens with ("Only with your consent"), cut at a word's end.
      const common = [stored.attribution!, stored.returning!, stored.visit!].reduce((a, b) => {
        let i = 0;
        while (i < a.length && a[i] === b[i]) i++;
        return a.slice(0, i);
      });
      const opening = common.replace(/[\s\p{P}]*[\p{L}]*$/u, '');
      expect(opening.length, `${lang}: the consent-only items open alike`).toBeGreaterThan(8);
      expect(stored.offline!.startsWith(opening), `${lang}: "${stored.offline}" opens with "${opening}"`).toBe(true);
      for (const id of ['language', 'consent', 'dismissed']) expect(stored[id]!.startsWith(opening), `${lang}: ${id} is stored without consent`).toBe(false);
    });

    it(`[R-VIS-7] ${lang}: points to the visitor's own supervisory authority and the EDPB list`, () => {
      if (!site.languages.includes(lang)) return;
      const section = page(lang).querySelector('#authority')!;
      for (const a of legal.authorities) {
        const item = section.querySelector(`li[data-authority="${a.country}"]`);
        expect(item?.querySelector(`a[href="${a.url}"]`), `${lang}: ${a.country}`).not.toBeNull();
      }
      expect(section.querySelector(`a[href="${legal.authoritiesList}"]`)).not.toBeNull();
    });
  }
});
