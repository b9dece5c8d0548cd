/** Time-bound content on built pages: nothing past is ever presented as upcoming (SOURCE_DATE_EPOCH). */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dump, load } from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyContent, EPOCH, htmlFiles, read, SHIPPED_CONTENT, type Out } from '../helpers/site.ts';
import { renderSite } from '../helpers/render.ts';
import { parseHtml } from '../helpers/dom.ts';

const TODAY = new Date(Number(EPOCH) * 1000).toISOString().slice(0, 10);
const shiftYears = (iso: string, years: number) => `${Number(iso.slice(0, 4)) + years}${iso.slice(4)}`;
const site = load(readFileSync(path.join(SHIPPED_CONTENT, 'site.yaml'), 'utf8')) as { languages: string[]; defaultLanguage: string };
type City = { id: string; timeline?: { id: string; due: string }[] };
const texts = (lang: string) => load(readFileSync(path.join(SHIPPED_CONTENT, 'i18n', `${lang}.yaml`), 'utf8')) as Record<string, any>;
/** The fixed part of a message before its first argument ("Next scheduled check:"). */
const prefix = (message: string) => message.split('{')[0]!.trim();

describe('[R-VIS-4] time-bound content', () => {
  let out: Out;
  let warnings: string;
  let timelineCity: City;
  beforeAll(async () => {
    // Fixture: one city's timeline straddles the build date, and the health check fell due a year ago.
    const content = copyContent(SHIPPED_CONTENT);
    const citiesFile = path.join(content, 'data', 'cities.yaml');
    const cities = load(readFileSync(citiesFile, 'utf8')) as City[];
    timelineCity = cities.find((c) => c.timeline?.length)!;
    const ids = timelineCity.timeline!.map((m) => m.id);
    timelineCity.timeline = ids.map((id, i) => ({ id, due: i === 0 ? shiftYears(TODAY, -1) : shiftYears(TODAY, i) }));
    writeFileSync(citiesFile, dump(cities));
    const healthFile = path.join(content, 'data', 'health.yaml');
    writeFileSync(healthFile, readFileSync(healthFile, 'utf8').replace(/^lastUpdate: .*$/m, `lastUpdate: ${shiftYears(TODAY, -1)}`));
    const built = await renderSite(content);
    out = built.out;
    warnings = built.warnings;
  });

  it('[R-VIS-4] a passed milestone is left out of every language, upcoming ones stay, and the build still warns', () => {
    const [past, ...future] = timelineCity.timeline!;
    const pages = htmlFiles(out).filter((f) => read(out, f).includes(`data-city="${timelineCity.id}"`));
    expect(pages.length).toBeGreaterThanOrEqual(site.languages.length);
    for (const file of pages) {
      const doc = parseHtml(read(out, file));
      const lang = doc.documentElement.getAttribute('lang')!.split('-')[0]!;
      const milestones = texts(lang).city[timelineCity.id].timeline as Record<string, string>;
      const items = [...doc.querySelectorAll('#timeline li')].map((li) => li.textContent ?? '');
      expect(items, file).toHaveLength(future.length);
      expect(items.join('\n'), file).not.toContain(milestones[past!.id]);
      for (const m of future) expect(items.join('\n'), file).toContain(milestones[m.id]);
    }
    expect(warnings).toContain(`[${timelineCity.id}].timeline[${past!.id}].due`);
  });

  it('[R-VIS-4] a next check date in the past is not shown, in any language; the build warns', () => {
    const homes = site.languages.map((l) => (l === site.defaultLanguage ? 'index.html' : `${l}.html`));
    for (const file of homes) {
      const doc = parseHtml(read(out, file));
      const lang = doc.documentElement.getAttribute('lang')!.split('-')[0]!;
      const details = doc.querySelector('#health-details')!.textContent ?? '';
      expect(details, file).toContain(prefix(texts(lang).health.lastUpdate));
      expect(details, file).not.toContain(prefix(texts(lang).health.nextCheck));
    }
    expect(warnings).toMatch(/health\.yaml.*lastUpdate|lastUpdate.*health\.yaml/s);
  });

  it('[R-VIS-4] the copyright year is the build date\'s year', () => {
    const footer = parseHtml(read(out, 'index.html')).querySelector('footer')!.textContent ?? '';
    const brand = (site as unknown as { brand: string }).brand;
    expect(footer).toContain((texts(site.defaultLanguage).footer.copyright as string).replace('{year}', TODAY.slice(0, 4)).replace('{brand}', brand));
  });
});

describe('[R-VIS-4] a next check still ahead is shown', () => {
  it('[R-VIS-4] shows the next check date when it lies after the build date', async () => {
    const content = copyContent(SHIPPED_CONTENT);
    const healthFile = path.join(content, 'data', 'health.yaml');
    writeFileSync(healthFile, readFileSync(healthFile, 'utf8').replace(/^lastUpdate: .*$/m, `lastUpdate: ${TODAY}`));
    const { out } = await renderSite(content);
    const doc = parseHtml(read(out, 'index.html'));
    expect(doc.querySelector('#health-details')!.textContent).toContain(prefix(texts(site.defaultLanguage).health.nextCheck));
  });
});

describe('[R-OPS-9] timeline dates as the content gives them', () => {
  it('a milestone shows its day, its month, or a range in each language, not only a quarter', async () => {
    const content = copyContent(SHIPPED_CONTENT);
    const citiesFile = path.join(content, 'data', 'cities.yaml');
    const cities = load(readFileSync(citiesFile, 'utf8')) as (City & { path: string; timeline?: Record<string, unknown>[] })[];
    const city = cities.find((c) => c.timeline && c.timeline.length >= 3)!;
    const [a, b, c] = city.timeline!;
    const day = shiftYears(TODAY, 1);
    const from = shiftYears(TODAY, 2);
    const to = `${from.slice(0, 8)}${String(Math.min(28, Number(from.slice(8)) + 4)).padStart(2, '0')}`;
    Object.assign(a!, { due: day, show: 'day' });
    Object.assign(b!, { due: from, until: to, show: 'day' });
    Object.assign(c!, { due: shiftYears(TODAY, 3), show: 'month' });
    writeFileSync(citiesFile, dump(cities));
    const { out } = await renderSite(content);
    const at = (iso: string) => new Date(`${iso}T00:00:00Z`);
    for (const lang of site.languages) {
      const locale = texts(lang).lang.locale as string;
      const file = lang === site.defaultLanguage ? `${city.path.slice(1)}.html` : `${lang}${city.path}.html`;
      const items = [...parseHtml(read(out, file)).querySelectorAll('#timeline li strong')].map((s) => s.textContent);
      const dayFmt = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
      expect(items, lang).toEqual([
        dayFmt.format(at(day)),
        dayFmt.formatRange(at(from), at(to)),
        new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(at(shiftYears(TODAY, 3))),
      ]);
    }
  });
});
