/**
 * The booking form's city choice as built (issue 22, "Defects"), in every language of the shipped
 * site: an explicit, valid empty first choice, and a city that is coming soon says so. Expected
 * values come from the content under test.
 */
import { describe, expect, it } from 'vitest';
import { parseHtml } from '../helpers/dom.ts';
import { shipped } from '../helpers/content.ts';
import { shippedOut } from '../helpers/shared.ts';
import { read, type Out } from '../helpers/site.ts';

const c = shipped();
/** The published languages (draft ones are not in site.yaml languages). */
const languages = c.languages;
const out = shippedOut();
const pagePath = c.pagePath;
const doc = (id: string, lang: string, from: Out = out) => parseHtml(read(from, c.file(pagePath(id), lang)));
const normal = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

describe('the booking form chooses its city explicitly', () => {
  it.each(languages)('[R-UI-11] %s: every required single select starts with an empty choice (a valid placeholder), none preselected', (lang) => {
    const selects = [...doc('booking', lang).querySelectorAll('select[required]')];
    expect(selects.map((s) => s.id)).toContain('booking-city');
    for (const s of selects) {
      // The HTML rule: a required select without `multiple` or a size over 1 has as its first option
      // one with an empty value (or no text): a placeholder, never a real choice.
      const first = s.querySelector('option')!;
      expect(first.getAttribute('value'), `${lang} #${s.id}`).toBe('');
      const selected = [...s.querySelectorAll('option')].filter((o) => o.hasAttribute('selected'));
      expect(selected.every((o) => o.getAttribute('value') === ''), `${lang} #${s.id}: only the placeholder may be selected`).toBe(true);
    }
  });

  it.each(languages)('[R-OPS-3][R-UI-13] %s: a city that is coming soon is marked as such in the choice and has its note', (lang) => {
    const texts = c.texts(lang);
    const page = doc('booking', lang);
    const upcoming = c.cities.filter((city: { status: string }) => city.status === 'upcoming');
    expect(upcoming.length, 'the shipped content has a city coming soon').toBeGreaterThan(0);
    for (const city of c.cities as { id: string; status: string }[]) {
      const name = texts[`city.${city.id}.name`]!;
      const option = normal(page.querySelector(`#booking-city option[value="${city.id}"]`)?.textContent);
      const note = page.querySelector(`[data-upcoming="${city.id}"]`);
      if (city.status === 'upcoming') {
        expect(option, `${lang} ${city.id}`).toContain(name);
        expect(option, `${lang} ${city.id}: the option says it is coming soon`).not.toBe(name);
        expect(note, `${lang} ${city.id}: its note`).not.toBeNull();
        expect(normal(note!.textContent), `${lang} ${city.id}`).not.toBe('');
        // Shown by the client when the city is chosen.
        expect(note!.hasAttribute('hidden')).toBe(true);
      } else {
        expect(option, `${lang} ${city.id}`).toBe(name);
        expect(note).toBeNull();
      }
    }
  });
});
