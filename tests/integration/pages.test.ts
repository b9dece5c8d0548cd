/** The shipped site as built: valid HTML, translated text, structured data that matches the page. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { HtmlValidate } from 'html-validate';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { copyContent, FIXTURE_CONTENT, htmlFiles, read, SHIPPED_CONTENT } from '../helpers/site.ts';
import { renderSite } from '../helpers/render.ts';
import { shippedOut } from '../helpers/shared.ts';
import { headOf, parseHtml } from '../helpers/dom.ts';
import { flatten, shipped } from '../helpers/content.ts';

const out = shippedOut();

const c = shipped();
const table = (lang: string, dir = SHIPPED_CONTENT) => flatten(parse(readFileSync(path.join(dir, 'i18n', `${lang}.yaml`), 'utf8')) as Record<string, unknown>);
/** The language of a dist file: its first folder or its name when that is a language, else the default. */
const langOf = (f: string) => c.others.find((l) => f.startsWith(`${l}/`) || f === `${l}.html`) ?? c.defaultLanguage;

describe('HTML', () => {
  // One test per language: a sweep of every page would not fit one test's time on a busy machine.
  it.each(c.languages)('[R-UI-18] every page passes html-validate (standard and accessibility rules) with no errors: %s', async (lang) => {
    const validator = new HtmlValidate({
      extends: ['html-validate:standard', 'html-validate:a11y'],
      rules: { 'tel-non-breaking': 'error', 'long-title': 'error', 'no-dup-id': 'error' },
    });
    const problems: string[] = [];
    for (const f of htmlFiles(out).filter((file) => langOf(file) === lang)) {
      const report = await validator.validateString(read(out, f), f);
      for (const r of report.results) for (const m of r.messages) problems.push(`${f}:${m.line}:${m.column} ${m.ruleId} ${m.message}`);
    }
    expect(problems).toEqual([]);
  }, 180_000); // the default language also holds the redirect stubs and landing pages
});

describe('languages', () => {
  it.each(c.languages)('[R-SEO-1][R-UI-19] each page has its language, a title and a description, and shows no text key: %s', (lang) => {
    const keys = new Set(Object.keys(table(c.defaultLanguage)));
    for (const f of htmlFiles(out).filter((file) => langOf(file) === lang)) {
      const doc = parseHtml(read(out, f));
      const head = headOf(doc);
      expect(head.lang, f).toBe(lang);
      expect(head.title, f).toBeTruthy();
      const text = doc.body.textContent ?? '';
      const shown = text.split(/\s+/).filter((w) => keys.has(w.replace(/[.,:;]$/, '')));
      expect(shown, `${f} shows text keys`).toEqual([]);
    }
  });

  it('[R-UI-19] the shipped tables have every key of the default language', () => {
    const en = Object.keys(table(c.defaultLanguage)).sort();
    // Beyond the default's keys, a language may only add the inflected forms of city names (R-OPS-9).
    for (const lang of c.others) expect(Object.keys(table(lang)).filter((k) => !/^city\.[^.]+\.(?:in|from|of)$/.test(k) || en.includes(k)).sort(), lang).toEqual(en);
  });

  // The sample content's translations (a fixture: this checks the repository's own tables).
  it('no English sentence is left in the es, ru and el tables (names and symbols excepted)', () => {
    const table = (lang: string) => flatten(parse(readFileSync(path.join(FIXTURE_CONTENT, 'i18n', `${lang}.yaml`), 'utf8')) as Record<string, unknown>);
    const en = table('en');
    // Values that are the same in every language: names, symbols, codes, numbers.
    const allowed = /^(?:[\d\s:–\-+h{}.·/()€,]+|\{title\} · \{brand\}|\{brand\}.*|© \{year\} \{brand\}|Instagram|WhatsApp|Telegram|X|Email|VIP|Madrid|Salamanca|Centro|Chamberí|Las Rozas|Monaco|Monaco-Ville|Fontvieille|Port Hercule|Monte Carlo|ltr|Premium|Variable|Bar|Popular|Aperitivo|Lifestyle|Portfolio|\+34 612 345 678|\{rating\}.*|\{min\}–\{max\}|\{n\}.*|\{category\}.*|\{operator\}.*|\{cities:\w+\}|Aurelia.*)$/;
    for (const lang of ['es', 'ru', 'el']) {
      const t = table(lang);
      const same = Object.keys(en).filter((k) => t[k] === en[k] && !allowed.test(en[k]!) && !k.startsWith('lang.'));
      expect(same, `${lang}: untranslated keys`).toEqual([]);
    }
  });

  it('[R-UI-20][R-OPS-7] the rates page shows every price of rates.yaml in every language, formatted for its locale', () => {
    for (const lang of c.languages) {
      const doc = parseHtml(read(out, c.file('/rates', lang)));
      for (const tier of c.rates.tiers) {
        if (tier.price === null) continue;
        expect(doc.querySelector(`#rate-${tier.id} .price`)!.textContent, `${lang} ${tier.id}`).toContain(c.money(tier.price, lang));
      }
      const extras = doc.querySelector('#extras')!.textContent!;
      for (const x of c.rates.extras) expect(extras, `${lang} ${x.id}`).toContain(c.money(x.price, lang));
    }
  });
});

describe('structured data', () => {
  it('[R-SEO-6][R-SEO-7][R-SEO-11] business markup: 24/7, cash and card, EUR, offers priced as on the rates page; no sample review marked up', () => {
    const offered = c.business.offers.map((id: string) => c.rates.tiers.find((t: { id: string }) => t.id === id).price);
    const cities = c.cities;
    const real = c.reviews.filter((r: { sample?: boolean }) => !r.sample);
    for (const l of c.languages) {
      const home = headOf(parseHtml(read(out, c.file('/', l))));
      const biz = home.jsonLd.find((d) => d['@type'] === 'ProfessionalService') as Record<string, any>;
      expect(biz.openingHoursSpecification.dayOfWeek).toHaveLength(7);
      expect(biz.openingHoursSpecification.opens).toBe('00:00');
      expect(biz.paymentAccepted).toBe('Cash, Credit Card');
      expect(biz.currenciesAccepted).toBe('EUR');
      expect(biz.areaServed).toHaveLength(cities.length);
      expect(biz.makesOffer.map((o: any) => o.priceSpecification.price)).toEqual(offered);
      // Sample reviews are shown on the page, never marked up; the rating is computed from the real ones.
      if (real.length) {
        const mean = Math.round((real.reduce((n: number, r: { rating: number }) => n + r.rating, 0) / real.length) * 10) / 10;
        expect(biz.aggregateRating, l).toMatchObject({ ratingValue: mean, reviewCount: real.length });
      } else expect(biz.aggregateRating).toBeUndefined();
      expect(JSON.stringify(home.jsonLd)).not.toMatch(/"reviewCount":47/);
      const rates = parseHtml(read(out, c.file('/rates', l)));
      const shown = [...rates.querySelectorAll('.rate .price')].map((p) => p.textContent!.replace(/\D/g, ''));
      for (const p of offered) expect(shown).toContain(String(p));
    }
    expect(parseHtml(read(out, 'index.html')).querySelectorAll('.review .badge-sample')).toHaveLength(c.reviews.filter((r: { sample?: boolean }) => r.sample).length);
  });

  it('[R-SEO-7] with real reviews the aggregate is their mean to one decimal and each is visible', async () => {
    const content = copyContent();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      path.join(content, 'data/reviews.yaml'),
      [
        '- { id: r1, author: Ana, rating: 5, body: "Wonderful evening.", date: 2025-05-10, city: madrid }',
        '- { id: r2, author: Ben, rating: 4, body: "Great conversation.", date: 2025-05-11, city: monaco }',
        '- { id: r3, author: Cy, rating: 4, body: "Very discreet.", date: 2025-05-12, city: madrid }',
        '- { id: r4, author: Placeholder, rating: 1, body: "x", date: 2025-05-12, city: madrid, sample: true }',
      ].join('\n'),
    );
    const { out: o } = await renderSite(content);
    const doc = parseHtml(read(o, 'index.html'));
    const biz = headOf(doc).jsonLd.find((d) => d['@type'] === 'ProfessionalService') as Record<string, any>;
    expect(biz.aggregateRating).toMatchObject({ ratingValue: 4.3, reviewCount: 3 });
    expect(biz.review.map((r: any) => r.reviewBody)).toEqual(['Wonderful evening.', 'Great conversation.', 'Very discreet.']);
    const visible = doc.querySelector('#reviews')!.textContent!;
    for (const r of biz.review) expect(visible).toContain(r.reviewBody);
    // Only the page that shows the reviews marks them up.
    const rates = headOf(parseHtml(read(o, 'rates.html'))).jsonLd.find((d) => d['@type'] === 'ProfessionalService') as Record<string, any>;
    expect(rates.aggregateRating).toBeUndefined();
  });

  it('[R-SEO-6] the home page marks up the gallery with every image it shows', () => {
    const doc = parseHtml(read(out, 'index.html'));
    const gallery = headOf(doc).jsonLd.find((d) => d['@type'] === 'ImageGallery') as Record<string, any>;
    expect(gallery.image).toHaveLength(c.gallery.images.length);
    const shown = [...doc.querySelectorAll('[data-carousel^="gallery-"] .carousel-slide img')].map((i) => i.getAttribute('src'));
    for (const img of gallery.image) expect(shown).toContain(new URL(img.contentUrl).pathname);
  });
});
