/**
 * The legal pages and the offline page (issue 22, "Defects"), in every language of the shipped site:
 * "Last updated" is the content's date, not the build's, and the offline page's "call if urgent"
 * comes with a call button. Expected values come from the content under test.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parseHtml } from '../helpers/dom.ts';
import { shipped } from '../helpers/content.ts';
import { shippedOut } from '../helpers/shared.ts';
import { copyContent, edit, EPOCH, read, SHIPPED_CONTENT, type Out } from '../helpers/site.ts';
import { renderSite } from '../helpers/render.ts';

const c = shipped();
/** The published languages (draft ones are not in site.yaml languages). */
const languages = c.languages;
const out = shippedOut();
const pagePath = c.pagePath;
const doc = (id: string, lang: string, from: Out = out) => parseHtml(read(from, c.file(pagePath(id), lang)));
const normal = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

describe('"Last updated" on the legal pages', () => {
  let first: Out;
  let later: Out;
  let edited: Out;
  beforeAll(async () => {
    const content = copyContent(SHIPPED_CONTENT);
    // The same content built on two days a year apart, and once more with the legal notice's date changed.
    ({ out: first } = await renderSite(content));
    ({ out: later } = await renderSite(content, { epoch: String(Number(EPOCH) + 400 * 86_400) }));
    edit(content, 'data/legal.yaml', /^ {2}legal: \d{4}-\d{2}-\d{2}$/m, '  legal: 2024-02-29');
    ({ out: edited } = await renderSite(content));
  });

  it.each(languages)('[R-ROUTE-12] %s: the date comes from the content, not from the build date', (lang) => {
    for (const id of ['legal', 'privacy']) {
      // The line that ends the page's text.
      const line = (from: Out) => normal(doc(id, lang, from).querySelector('main article > p:last-child')?.textContent);
      expect(line(first), `${lang} ${id}`).not.toBe('');
      expect(line(later), `${lang} ${id}: another build day, the same date`).toBe(line(first));
      if (id === 'legal') expect(line(edited), `${lang} ${id}: the content's date changed`).not.toBe(line(first));
      else expect(line(edited), `${lang} ${id}: only the legal notice's date changed`).toBe(line(first));
    }
  });
});

describe('the offline page', () => {
  it.each(languages)('[R-JS-13] %s: "call if urgent" comes with a call button, first', (lang) => {
    const tel = `tel:${String(c.site.contact.phone).replace(/\s+/g, '')}`;
    const page = parseHtml(read(out, c.file(pagePath('offline'), lang)));
    const buttons = [...page.querySelectorAll('main a.button')];
    expect(buttons[0]?.getAttribute('href'), lang).toBe(tel);
    // Its label names the number, as every call link does.
    expect(normal(buttons[0]!.textContent).replace(/\s/g, '')).toContain(String(c.site.contact.phone).replace(/\s+/g, ''));
  });
});
