/**
 * Copy rules (decisions.md "Languages and URLs", issue 16 part 6) checked on the shipped texts and
 * posts: no wording the reviewer flagged as escort-advert euphemism, one Spanish register (tú), and
 * posts in the first person singular. Works on any content folder (SHIPPED_CONTENT).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SHIPPED_CONTENT } from '../helpers/site.ts';
import { flatten } from '../helpers/content.ts';

const read = (file: string) => readFileSync(file, 'utf8');
const i18n = path.join(SHIPPED_CONTENT, 'i18n');
const blog = path.join(SHIPPED_CONTENT, 'blog');

/** Every text table and post in `lang`, as [file, text]. */
function sources(lang: string): [string, string][] {
  const out: [string, string][] = [];
  const table = path.join(i18n, `${lang}.yaml`);
  if (existsSync(table)) out.push([table, read(table)]);
  out.push(...posts(lang));
  return out;
}
function posts(lang: string): [string, string][] {
  if (!existsSync(blog)) return [];
  return readdirSync(blog)
    .map((slug) => path.join(blog, slug, `${lang}.md`))
    .filter((f) => existsSync(f))
    .map((f) => [f, read(f)]);
}

/** `pattern` hits in the sources, as "file:line: text" (empty when clean). */
function hits(files: [string, string][], pattern: RegExp): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    text.split('\n').forEach((line, i) => {
      const m = line.match(pattern);
      if (m) found.push(`${path.relative(SHIPPED_CONTENT, file)}:${i + 1}: "${m[0]}" in ${line.trim().slice(0, 120)}`);
    });
  }
  return found;
}

// Letters only: \b does not know Cyrillic or Greek.
const word = (alternatives: string) => new RegExp(`(?<![\\p{L}])(?:${alternatives})(?![\\p{L}])`, 'iu');

/** The reviewer's list (issue 16 "Language") and the same kind of wording in en and fr. */
const BANNED: Record<string, RegExp[]> = {
  en: [/available now/i, /full availability/i, /shorter meetings/i, /companion services?/i, /escort service/i, /private companionship/i, /still awake/i],
  es: [
    /disponible ahora/i,
    /disponibilidad completa/i,
    /encuentros? más breves/i,
    /servicio premium/i,
    /encuentro exclusivo/i,
    /servicios? de (?:acompañantes?|compañía)/i,
    /compañía privada/i,
    /todavía sin dormir/i,
  ],
  ru: [
    /приватн/i,
    /(?:сервис|услуг)\p{L}* сопровождени/iu,
    /светск\p{L}* сопровождени/iu,
    /деликатн\p{L}* встреч/iu,
    /полная доступность/i,
    /коротких встреч/i,
    /независимо, деликатно/i,
    /уже не спите|ещё не спите/i,
    // A Russian date ends in "г.": a full stop after it doubles ("2025 г..").
    /\{date\}\./,
  ],
  el: [
    /διαθέσιμη τώρα/i,
    /υπηρεσί\p{L}* συνοδ/iu,
    /συνοδεί/i,
    /θέντρο/i,
    /ημερολόγιο/i,
    /πλήρης διαθεσιμότητα/i,
    /σύντομες συναντήσεις/i,
    /ιδιωτική συντροφιά/i,
    /ΑΦΜ \{taxId\}/,
  ],
  fr: [/disponible dès maintenant/i, /disponibilité complète/i, /rencontres? plus courtes?/i, /services? d.accompagnement/i, /compagnie privée/i, /vous ne dormez pas/i],
};

/** Markers of a provider speaking as "we" (exclusive plural), per language. */
const PLURAL: Record<string, RegExp> = {
  en: word("we|we're|we’re|we'll|we’ll|we've|we’ve|our|ours|us"),
  es: word('nosotros|nosotras|nuestro|nuestra|nuestros|nuestras|estamos|pedimos|ofrecemos|trabajamos|requerimos|recomendamos'),
  ru: word('мы|нас|нам|нами|наш\\p{L}*|просим|предлагаем|рекомендуем|работаем|готовимся'),
  el: word('εμείς|μας|\\p{L}+όμαστε|\\p{L}+ούμαστε|συνιστούμε|ζητάμε|ζητούμε|προσφέρουμε'),
  fr: word('nous|notre|nos'),
};

/** Usted (formal) markers in Spanish: pronouns, formal imperatives and possessives the site does not use. */
const USTED = [
  word('usted|ustedes|acompañarle|contáctenos|escríbanos|llámenos|le (?:gustaría|permite|ofrece)'),
  word('su (?:solicitud|reserva|velada|visita|fin de semana|lugar|tiempo)|sus (?:fechas|planes|datos|noches|desplazamientos|preferencias)'),
  // Formal imperatives where a sentence or list item starts (mid-sentence they are often subjunctives).
  /(?:^|[.!?:]\s+|\*\*|\d\.\s+)(?:Reserve|Vista|Tómese|Déjese|Mantenga|Cene|Pida|Descubra|Disfrute|Confirme|Asegure|Planifique|Organice|Piense|Envíe|Utilice|Contacte|Consulte|Decida|Escriba|Llame)(?![\p{L}])/u,
];
/** Tú markers: the register the site uses (docs/operator.md). */
const TU = word('tú|tu|tus|te|contigo|puedes|quieres|escríbeme');

const languages = readdirSync(i18n)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => f.replace(/\.yaml$/, ''));

describe('copy: wording', () => {
  for (const lang of languages.filter((l) => BANNED[l])) {
    it(`[R-VIS-7] ${lang}: no phrase the reviewer replaced, in texts and posts`, () => {
      const files = sources(lang);
      // The Spanish WhatsApp openers live in data/cta.yaml (messageLanguage: es).
      const cta = path.join(SHIPPED_CONTENT, 'data', 'cta.yaml');
      if (lang === 'es' && existsSync(cta)) files.push([cta, read(cta)]);
      expect(files.length).toBeGreaterThan(0);
      expect(BANNED[lang]!.flatMap((re) => hits(files, re))).toEqual([]);
    });
  }

  it('[R-VIS-7] the euphemism scan finds what it is meant to find', () => {
    const sample: [string, string][] = [
      [path.join(i18n, 'x.yaml'), 'a: Διαθέσιμη τώρα\nb: "последнее обновление — {date}. Документы"\nc: Сервис сопровождения'],
    ];
    expect(hits(sample, BANNED.el![0]!)).toHaveLength(1);
    expect(hits(sample, BANNED.ru![8]!)).toHaveLength(1);
    expect(hits(sample, BANNED.ru![1]!)).toHaveLength(1);
  });
});

describe('copy: voice', () => {
  for (const lang of languages.filter((l) => PLURAL[l])) {
    it(`[R-VIS-7] ${lang}: posts speak in the first person singular, never as "we"`, () => {
      expect(hits(posts(lang), PLURAL[lang]!)).toEqual([]);
    });
  }

  it('[R-VIS-7] the plural scan finds "we" in every language', () => {
    const probe = (lang: string, text: string) => hits([[path.join(blog, 'x', `${lang}.md`), text]], PLURAL[lang]!).length;
    expect(probe('en', 'Discover our service.')).toBe(1);
    expect(probe('es', 'Descubra nuestro servicio.')).toBe(1);
    expect(probe('ru', 'Мы готовимся открыть сервис.')).toBe(1);
    expect(probe('el', 'Ετοιμαζόμαστε να έρθουμε.')).toBe(1);
    expect(probe('fr', 'Découvrez notre service.')).toBe(1);
    expect(probe('ru', 'Я готова: пишите мне.')).toBe(0);
  });
});

describe('copy: Spanish register', () => {
  it('[R-VIS-7] es: one register (tú) in the text table and every post, no usted forms', () => {
    const files = sources('es');
    expect(files.length).toBeGreaterThan(0);
    expect(USTED.flatMap((re) => hits(files, re))).toEqual([]);
    // The register is tú, not an impersonal text that merely avoids usted.
    for (const [file, text] of files) expect(TU.test(text), path.relative(SHIPPED_CONTENT, file)).toBe(true);
  });

  it('[R-VIS-7] the usted scan finds formal forms', () => {
    const probe = (text: string) => USTED.flatMap((re) => hits([[path.join(blog, 'x', 'es.md'), text]], re)).length;
    expect(probe('1. **Reserve con antelación.**')).toBe(1);
    expect(probe('Si lo desea, le acompaño. Piense en la ocasión.')).toBeGreaterThan(0);
    expect(probe('Envíe su solicitud por WhatsApp.')).toBeGreaterThan(0);
    expect(probe('Reserva con antelación y envíame tu solicitud.')).toBe(0);
  });
});

/**
 * A booking request described as already sent (issue 22, decisions.md "Booking and WhatsApp"): the
 * form only opens WhatsApp with the message; the visitor sends it there, or not.
 */
const CLAIMS_SENT: Record<string, RegExp> = {
  en: /\b(?:request|message)\b[^.]*?\b(?:sent|handed|passed|delivered)\b|\bsent (?:via|to)\b/i,
  es: /\b(?:solicitud|mensaje)\b[^.]*?\b(?:enviad[oa]|pasad[oa]|entregad[oa])\b/i,
  ru: word('передан\\p{L}*|отправлен\\p{L}*|доставлен\\p{L}*'),
  el: word('στάλθηκε|εστάλη|μεταφέρθηκε|παραδόθηκε'),
  fr: /\b(?:demande|message)\b[^.]*?\b(?:envoyée?|transmise?|remise?)\b/i,
};
/** One language's text table, flattened ('booking.success.title' → text). */
const table = (lang: string) => flatten(parse(read(path.join(i18n, `${lang}.yaml`))) as Record<string, unknown>);

describe('copy: the WhatsApp handoff', () => {
  for (const lang of languages.filter((l) => CLAIMS_SENT[l])) {
    it(`[R-BOOK-5] ${lang}: the page after the handoff says WhatsApp opened, never that the request was sent`, () => {
      const texts = table(lang);
      const shown = ['booking.success.title', 'booking.success.text'].map((k) => texts[k] ?? '');
      expect(shown.every(Boolean), `${lang}: the success texts exist`).toBe(true);
      expect(shown.filter((s) => CLAIMS_SENT[lang]!.test(s))).toEqual([]);
    });
  }

  it('[R-BOOK-5] the "sent" scan finds the claims it is meant to find', () => {
    expect(CLAIMS_SENT.en!.test('Request sent via WhatsApp')).toBe(true);
    expect(CLAIMS_SENT.es!.test('Solicitud enviada a WhatsApp')).toBe(true);
    expect(CLAIMS_SENT.ru!.test('Заявка передана в WhatsApp')).toBe(true);
    expect(CLAIMS_SENT.el!.test('Το αίτημα στάλθηκε στο WhatsApp')).toBe(true);
    expect(CLAIMS_SENT.fr!.test('Demande transmise à WhatsApp')).toBe(true);
    expect(CLAIMS_SENT.en!.test('Your message is ready in WhatsApp. Once you send it there, I will reply.')).toBe(false);
  });

  it('[R-BOOK-3] every language names each place in the client\'s own words for the message ("mi hotel"), not as the form asks it ("Tu hotel")', () => {
    const locations = (parse(read(path.join(SHIPPED_CONTENT, 'data', 'booking.yaml'))) as { locations: string[] }).locations;
    const problems: string[] = [];
    for (const lang of languages) {
      const texts = table(lang);
      for (const id of locations) if (!texts[`booking.messageLocation.${id}`]) problems.push(`${lang}: booking.messageLocation.${id} is missing`);
      // Some places read the same either way ("private apartment"); not all of them ("your hotel").
      const same = locations.filter((id) => texts[`booking.messageLocation.${id}`]?.toLowerCase() === texts[`booking.location.${id}`]?.toLowerCase());
      if (same.length === locations.length) problems.push(`${lang}: the message names every place as the form asks it`);
    }
    expect(problems).toEqual([]);
  });
});
