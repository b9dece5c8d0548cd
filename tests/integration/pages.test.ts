/** The shipped site as built: valid HTML, translated text, structured data that matches the page. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { HtmlValidate } from 'html-validate';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSite, copyContent, htmlFiles, read, SHIPPED_CONTENT } from '../helpers/site.ts';
import { headOf, parseHtml } from '../helpers/dom.ts';

let out: string;
beforeAll(async () => {
  ({ out } = await buildSite(copyContent()));
});

const flatten = (tree: Record<string, unknown>, prefix = '', acc: Record<string, string> = {}) => {
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object') flatten(v as Record<string, unknown>, key, acc);
    else acc[key] = String(v);
  }
  return acc;
};
const table = (lang: string) => flatten(parse(readFileSync(path.join(SHIPPED_CONTENT, 'i18n', `${lang}.yaml`), 'utf8')) as Record<string, unknown>);

describe('HTML', () => {
  it('[R-UI-18] every page passes html-validate (standard and accessibility rules) with no errors', async () => {
    const validator = new HtmlValidate({
      extends: ['html-validate:standard', 'html-validate:a11y'],
      rules: { 'tel-non-breaking': 'error', 'long-title': 'error', 'no-dup-id': 'error' },
    });
    const problems: string[] = [];
    for (const f of htmlFiles(out)) {
      const report = await validator.validateString(read(out, f), f);
      for (const r of report.results) for (const m of r.messages) problems.push(`${f}:${m.line}:${m.column} ${m.ruleId} ${m.message}`);
    }
    expect(problems).toEqual([]);
  });
});

describe('languages', () => {
  it('[R-SEO-1][R-UI-19] each page has its language, a title and a description, and shows no text key', () => {
    const keys = new Set(Object.keys(table('en')));
    for (const f of htmlFiles(out)) {
      const doc = parseHtml(read(out, f));
      const lang = f.match(/^(es|ru|el)\//)?.[1] ?? (/^(es|ru|el)\.html$/.test(f) ? f.slice(0, 2) : 'en');
      const head = headOf(doc);
      expect(head.lang, f).toBe(lang);
      expect(head.title, f).toBeTruthy();
      const text = doc.body.textContent ?? '';
      const shown = text.split(/\s+/).filter((w) => keys.has(w.replace(/[.,:;]$/, '')));
      expect(shown, `${f} shows text keys`).toEqual([]);
    }
  });

  it('[R-UI-19] the shipped tables have every key of the default language', () => {
    const en = Object.keys(table('en')).sort();
    for (const lang of ['es', 'ru', 'el', 'fr']) expect(Object.keys(table(lang)).sort(), lang).toEqual(en);
  });

  it('no English sentence is left in the es, ru and el tables (names and symbols excepted)', () => {
    const en = table('en');
    // Values that are the same in every language: names, symbols, codes, numbers.
    const allowed = /^(?:[\d\s:–\-+h{}.·/()€,]+|\{title\} · \{brand\}|\{brand\}.*|© \{year\} \{brand\}|Instagram|WhatsApp|Telegram|X|Email|VIP|Madrid|Salamanca|Centro|Chamberí|Las Rozas|Monaco|Monaco-Ville|Fontvieille|Port Hercule|Monte Carlo|ltr|Premium|Variable|Bar|Popular|Aperitivo|Lifestyle|Portfolio|\+34 612 345 678|\{rating\}.*|\{min\}–\{max\}|\{n\}.*|\{category\}.*|\{operator\}.*|Aurelia.*)$/;
    for (const lang of ['es', 'ru', 'el']) {
      const t = table(lang);
      const same = Object.keys(en).filter((k) => t[k] === en[k] && !allowed.test(en[k]!) && !k.startsWith('lang.'));
      expect(same, `${lang}: untranslated keys`).toEqual([]);
    }
  });

  it('[R-UI-20] prices are formatted per language', () => {
    const price = (f: string) => parseHtml(read(out, f)).querySelector('#rate-hour .price')!.textContent;
    expect(price('rates.html')).toBe('€250');
    expect(price('es/rates.html')).toBe('250\u00a0€');
    expect(price('ru/rates.html')).toBe('250\u00a0€');
    expect(price('el/rates.html')).toBe('250\u00a0€');
    expect(parseHtml(read(out, 'es/rates.html')).querySelector('#rate-overnight .price')!.textContent).toBe('1800\u00a0€');
  });
});

describe('structured data', () => {
  it('[R-SEO-6][R-SEO-7][R-SEO-11] business markup: 24/7, cash and card, EUR, offers priced as on the rates page; no sample review marked up', () => {
    for (const lang of ['', 'es/', 'ru/', 'el/']) {
      const home = headOf(parseHtml(read(out, lang ? `${lang.slice(0, -1)}.html` : 'index.html')));
      const biz = home.jsonLd.find((d) => d['@type'] === 'ProfessionalService') as Record<string, any>;
      expect(biz.openingHoursSpecification.dayOfWeek).toHaveLength(7);
      expect(biz.openingHoursSpecification.opens).toBe('00:00');
      expect(biz.paymentAccepted).toBe('Cash, Credit Card');
      expect(biz.currenciesAccepted).toBe('EUR');
      expect(biz.areaServed).toHaveLength(3);
      expect(biz.makesOffer.map((o: any) => o.priceSpecification.price)).toEqual([500, 800, 2000]);
      // All five shipped reviews are samples: shown on the page, never marked up, no rating claim.
      expect(biz.aggregateRating).toBeUndefined();
      expect(JSON.stringify(home.jsonLd)).not.toMatch(/4\.9|"reviewCount":47/);
      const rates = parseHtml(read(out, `${lang}rates.html`));
      const shown = [...rates.querySelectorAll('.rate .price')].map((p) => p.textContent!.replace(/\D/g, ''));
      for (const p of ['500', '800', '2000']) expect(shown).toContain(p);
    }
    expect(parseHtml(read(out, 'index.html')).querySelectorAll('.review .badge-sample')).toHaveLength(5);
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
    const { out: o } = await buildSite(content);
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
    expect(gallery.image).toHaveLength(8);
    const shown = [...doc.querySelectorAll('#gallery-lifestyle .carousel-slide img')].map((i) => i.getAttribute('src'));
    for (const img of gallery.image) expect(shown).toContain(new URL(img.contentUrl).pathname);
  });
});
