/** The client's pure logic: variant rules, attribution, message builder, time zones, trackers. */
import { describe, expect, it, vi } from 'vitest';
import { chooseVariant } from '../../../client/variant.ts';
import { encodeLabel, nameHash } from '../../../client/names.ts';
import { currentTouch, parseAttribution, reference, updateAttribution } from '../../../client/attribution.ts';
import { buildMessage, MAX_MESSAGE, whatsappUrl } from '../../../client/message.ts';
import { zonedInstant, zonedToday } from '../../../client/zoned.ts';
import { validateBooking } from '../../../client/booking.ts';
import { createTracker } from '../../../client/analytics.ts';
import { createScrollTracker, scrollPercent, watchHighEngagement, watchTimeOnPage } from '../../../client/trackers.ts';
import { wrapIndex } from '../../../client/gallery.ts';
import { savedLanguageTarget } from '../../../client/language.ts';
import { watchEngagement } from '../../../client/cta.ts';

// As the page data carries them: hashes of the utm_source values (client/names.ts).
const base = { directActionSources: ['girlsmadrid', 'girlsbcn', 'eurogirlsescort'].map(nameHash), defaultVariant: 'emotional_exclusive', returning: false, hour: 12 };

describe('[R-JS-5] call-to-action variant', () => {
  it('applies the four rules in order', () => {
    expect(chooseVariant({ ...base, utmSource: 'girlsbcn', returning: true, hour: 22 })).toBe('direct_action');
    expect(chooseVariant({ ...base, utmSource: 'GirlsMadrid' })).toBe('direct_action');
    expect(chooseVariant({ ...base, utmSource: 'eros', returning: true, hour: 22 })).toBe('premium_service');
    expect(chooseVariant({ ...base, hour: 20 })).toBe('personal_connection');
    expect(chooseVariant({ ...base, hour: 6 })).toBe('personal_connection');
    expect(chooseVariant({ ...base, hour: 0 })).toBe('personal_connection');
    expect(chooseVariant({ ...base, hour: 7 })).toBe('emotional_exclusive');
    expect(chooseVariant({ ...base, hour: 19 })).toBe('emotional_exclusive');
  });
});

describe('[R-JS-7] attribution', () => {
  // As the page data carries them: hash of the domain → base64 label (client/names.ts).
  const referrers = { [nameHash('eurogirlsescort.com')]: encodeLabel('eurogirlsescort'), [nameHash('slixa.com')]: encodeLabel('slixa') };
  const url = (q = '') => new URL(`https://site.example/madrid-vip-escort${q}`);
  it('reads utm parameters, else maps a listing referrer with medium referral', () => {
    expect(currentTouch(url('?utm_source=eros&utm_medium=cpc&utm_campaign=spring&utm_content=banner'), '', referrers)).toEqual({ source: 'eros', medium: 'cpc', campaign: 'spring', content: 'banner' });
    expect(currentTouch(url(), 'https://www.slixa.com/madrid/x', referrers)).toEqual({ source: 'slixa', medium: 'referral' });
    expect(currentTouch(url(), 'https://notslixa.com/', referrers)).toBeUndefined();
    expect(currentTouch(url(), 'https://site.example/about', referrers)).toBeUndefined();
    expect(currentTouch(url(), 'not a url', referrers)).toBeUndefined();
  });

  it('keeps the first touch, moves the last, and clears everything after 90 days without a touch', () => {
    const day = 86_400_000;
    const a = updateAttribution(undefined, { source: 'eros' }, 0, 90)!;
    const b = updateAttribution(a, { source: 'slixa', medium: 'referral' }, 10 * day, 90)!;
    expect(b.first).toEqual({ source: 'eros', at: 0 });
    expect(b.last).toEqual({ source: 'slixa', medium: 'referral', at: 10 * day });
    expect(updateAttribution(b, undefined, 100 * day, 90)).toEqual(b);
    expect(updateAttribution(b, undefined, 100 * day + 1, 90)).toBeUndefined();
    const c = updateAttribution(b, { source: 'avn' }, 101 * day, 90)!;
    expect(c.first.source).toBe('avn');
    expect(reference(c.last)).toBe('avn');
    expect(parseAttribution('{"broken')).toBeUndefined();
    expect(parseAttribution(JSON.stringify(c))).toEqual(c);
  });
});

const templates = {
  intro: { emotional_exclusive: 'Hola, me gustaría conocerte{city}.', direct_action: 'Hola, quiero reservar{city}.', premium_service: 'Hola de nuevo{city}.', personal_connection: 'Hola, ¿cenamos{city}?' },
  city: { madrid: ' en Madrid', athens: ' en Atenas', monaco: ' en Mónaco', general: '' },
  fields: { name: 'Nombre: {value}', phone: 'Teléfono: {value}', email: 'Email: {value}', date: 'Fecha: {value}', time: 'Hora: {value}', duration: 'Duración: {value}', location: 'Lugar: {value}', message: 'Mensaje: {value}' },
  reference: 'Ref: {value}',
  duration: { '1h': '1 hora', dinner: 'Cena' },
  location: { hotel: 'mi hotel' },
  locale: 'es-ES',
};

describe('[R-BOOK-3][R-BOOK-6] message builder', () => {
  it('builds the Spanish message for every city and variant', () => {
    for (const variant of Object.keys(templates.intro))
      for (const city of Object.keys(templates.city)) {
        const text = buildMessage({ templates, variant, city });
        expect(text).toBe(templates.intro[variant as keyof typeof templates.intro].replace('{city}', templates.city[city as keyof typeof templates.city]));
      }
  });

  it('adds the fields with Spanish option labels and the reference', () => {
    const text = buildMessage({ templates, variant: 'direct_action', city: 'madrid', fields: { name: ' Ana ', duration: 'dinner', location: 'hotel', message: 'Привет\nκαλησπέρα' }, reference: 'eros / cpc' });
    expect(text).toBe('Hola, quiero reservar en Madrid.\nNombre: Ana\nDuración: Cena\nLugar: mi hotel\nMensaje: Привет καλησπέρα\nRef: eros / cpc');
    const url = whatsappUrl('34600000000', text);
    expect(url.startsWith('https://wa.me/34600000000?text=')).toBe(true);
    expect(decodeURIComponent(url.split('text=')[1]!)).toBe(text);
  });

  it('[R-BOOK-3] writes the date as the message language does (issue 22: not 2026-11-30), anything unreadable as typed', () => {
    const date = (d: string, locale = 'es-ES') => buildMessage({ templates: { ...templates, locale }, variant: 'direct_action', city: 'general', fields: { date: d } }).split('\n')[1];
    expect(date('2026-11-30')).toBe(`Fecha: ${new Intl.DateTimeFormat('es-ES', { dateStyle: 'full', timeZone: 'UTC' }).format(Date.UTC(2026, 10, 30))}`);
    expect(date('2026-11-30')).toMatch(/^Fecha: lunes, 30 de noviembre de 2026$/);
    expect(date('2026-11-30', 'el-GR')).toMatch(/Νοεμβρίου 2026/);
    // The same calendar day whatever the browser's time zone (the form's value is a day, not an instant).
    expect(date('2027-01-01')).toMatch(/1 de enero de 2027/);
    expect(date('2026-02-30')).toBe('Fecha: 2026-02-30');
    expect(date('mañana')).toBe('Fecha: mañana');
  });

  it('stays under 1,000 characters by shortening the free text', () => {
    const text = buildMessage({ templates, variant: 'direct_action', city: 'athens', fields: { name: 'Ana', message: 'ж'.repeat(3000) }, reference: 'eros' });
    expect(text.length).toBeLessThanOrEqual(MAX_MESSAGE);
    expect(text).toContain('Nombre: Ana');
    expect(text.endsWith('Ref: eros')).toBe(true);
  });
});

describe('[R-BOOK-2] booking validation in the city time zone', () => {
  const booking = { minAdvanceHours: 3, timezone: 'Europe/Madrid' };
  it('converts a Madrid wall-clock time to an instant, across DST', () => {
    expect(new Date(zonedInstant('2026-01-15', '21:00', 'Europe/Madrid')!).toISOString()).toBe('2026-01-15T20:00:00.000Z');
    expect(new Date(zonedInstant('2026-07-15', '21:00', 'Europe/Madrid')!).toISOString()).toBe('2026-07-15T19:00:00.000Z');
    expect(new Date(zonedInstant('2026-07-15', '21:00', 'Europe/Athens')!).toISOString()).toBe('2026-07-15T18:00:00.000Z');
    expect(zonedInstant('2026-13-01', '10:00', 'Europe/Madrid')).toBeUndefined();
    expect(zonedToday(Date.UTC(2026, 0, 1, 23, 30), 'Europe/Madrid')).toBe('2026-01-02');
  });

  it('requires name, date, time, duration and location, and 3 hours notice in Madrid time', () => {
    const now = Date.UTC(2026, 0, 15, 12, 0); // 13:00 in Madrid
    expect(validateBooking({}, now, booking)).toEqual({ name: 'required', date: 'required', time: 'required', duration: 'required', location: 'required' });
    const ok = { name: 'Ana', date: '2026-01-15', time: '16:00', duration: '1h', location: 'hotel' };
    expect(validateBooking(ok, now, booking)).toEqual({});
    expect(validateBooking({ ...ok, time: '15:59' }, now, booking)).toEqual({ time: 'tooSoon' });
    // A day already over is the date's error (the field a screen reader names), not the time's.
    expect(validateBooking({ ...ok, date: '2026-01-14' }, now, booking)).toEqual({ date: 'tooSoon' });
    expect(validateBooking({ ...ok, date: '2020-01-01', time: '23:00' }, now, booking)).toEqual({ date: 'tooSoon' });
    // Just after midnight tomorrow is within 3 hours of 22:30 today: the time's error.
    expect(validateBooking({ ...ok, date: '2026-01-16', time: '00:30' }, Date.UTC(2026, 0, 15, 21, 30), booking)).toEqual({ time: 'tooSoon' });
    expect(validateBooking({ ...ok, email: 'nope', phone: 'call me' }, now, booking)).toEqual({ email: 'invalidEmail', phone: 'invalidPhone' });
  });
});

describe('[R-JS-10][R-JS-11] analytics and trackers', () => {
  it('queues events until started, then sends each once', () => {
    const sent: string[] = [];
    const t = createTracker();
    t.track('page_view');
    t.once('x', 'directory_first_contact');
    t.once('x', 'directory_first_contact');
    expect(sent).toEqual([]);
    t.start((n) => sent.push(n));
    t.start((n) => sent.push(`again:${n}`));
    t.once('x', 'directory_first_contact');
    t.track('booking_submit');
    expect(sent).toEqual(['page_view', 'directory_first_contact', 'booking_submit']);
    t.stop();
    t.track('after_stop');
    expect(sent).toHaveLength(3);
  });

  it('reports scroll milestones 25/50/75/90 and each new 10 % step, once', () => {
    const sent: string[] = [];
    const t = createTracker();
    t.start((n, p) => sent.push(`${n}:${p.percent}`));
    const on = createScrollTracker(t);
    on(scrollPercent(300, 1000, 2000));
    on(scrollPercent(250, 1000, 2000));
    on(scrollPercent(1000, 1000, 2000));
    expect(sent).toEqual([
      'scroll_depth:25', 'scroll_progress:10', 'scroll_progress:20', 'scroll_progress:30',
      'scroll_depth:50', 'scroll_depth:75', 'scroll_depth:90',
      'scroll_progress:40', 'scroll_progress:50', 'scroll_progress:60', 'scroll_progress:70', 'scroll_progress:80', 'scroll_progress:90', 'scroll_progress:100',
    ]);
  });

  it('reports time on page at 10/30/60/120/300 s and high engagement at the 5th scroll within 5 minutes', () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const t = createTracker();
    t.start((n, p) => sent.push(`${n}:${p.seconds ?? p.scrolls}`));
    watchTimeOnPage(t);
    vi.advanceTimersByTime(61_000);
    expect(sent).toEqual(['time_on_page:10', 'time_on_page:30', 'time_on_page:60']);
    vi.advanceTimersByTime(300_000);
    expect(sent.slice(3)).toEqual(['time_on_page:120', 'time_on_page:300']);

    const target = new EventTarget() as unknown as Window;
    watchHighEngagement(t, target);
    for (let i = 0; i < 6; i++) target.dispatchEvent(new Event('scroll'));
    expect(sent.filter((s) => s.startsWith('high_engagement'))).toEqual(['high_engagement:5']);
    const late = new EventTarget() as unknown as Window;
    const t2 = createTracker();
    const sent2: string[] = [];
    t2.start((n) => sent2.push(n));
    watchHighEngagement(t2, late);
    vi.advanceTimersByTime(5 * 60_000);
    for (let i = 0; i < 5; i++) late.dispatchEvent(new Event('scroll'));
    expect(sent2).toEqual([]); // listener removed after 5 minutes
    vi.useRealTimers();
  });

  it('[R-JS-6] urgency when fewer than 2 interactions in 45 s; valued line at 120 s', () => {
    vi.useFakeTimers();
    const calm = new EventTarget() as unknown as Window;
    const shown: string[] = [];
    watchEngagement(calm, () => shown.push('urgency'), () => shown.push('valued'));
    calm.dispatchEvent(new Event('click'));
    vi.advanceTimersByTime(45_000);
    expect(shown).toEqual(['urgency']);
    vi.advanceTimersByTime(75_000);
    expect(shown).toEqual(['urgency', 'valued']);
    const busy = new EventTarget() as unknown as Window;
    const shown2: string[] = [];
    watchEngagement(busy, () => shown2.push('urgency'), () => {});
    busy.dispatchEvent(new Event('scroll'));
    busy.dispatchEvent(new Event('keydown'));
    vi.advanceTimersByTime(45_000);
    expect(shown2).toEqual([]);
    vi.useRealTimers();
  });
});

describe('[R-JS-2][R-JS-4] gallery index and saved language', () => {
  it('wraps around both ways', () => {
    expect(wrapIndex(0, -1, 8)).toBe(7);
    expect(wrapIndex(7, 1, 8)).toBe(0);
    expect(wrapIndex(3, 2, 8)).toBe(5);
  });

  it('only the root home honours a saved, supported language', () => {
    const langs = ['en', 'es', 'ru', 'el'];
    expect(savedLanguageTarget('/', 'es', langs, 'en')).toBe('/es');
    expect(savedLanguageTarget('/', 'en', langs, 'en')).toBeUndefined();
    expect(savedLanguageTarget('/', 'de', langs, 'en')).toBeUndefined();
    expect(savedLanguageTarget('/rates', 'es', langs, 'en')).toBeUndefined();
    expect(savedLanguageTarget('/ru', 'es', langs, 'en')).toBeUndefined();
  });

  it('[R-HOST-4] under a base path the returning visitor goes from /site/ to /site/es', () => {
    const langs = ['en', 'es', 'ru', 'el'];
    expect(savedLanguageTarget('/site/', 'es', langs, 'en', '/site')).toBe('/site/es');
    expect(savedLanguageTarget('/', 'es', langs, 'en', '/site')).toBeUndefined();
    expect(savedLanguageTarget('/site/rates', 'es', langs, 'en', '/site')).toBeUndefined();
  });
});

describe('[R-SAFE-13] the handoff works for any input', () => {
  const templates = {
    intro: { emotional_exclusive: 'Hola{city}.' },
    city: { general: '', madrid: ' en Madrid' },
    fields: { name: 'Nombre: {value}', message: 'Mensaje: {value}', duration: 'Duración: {value}' },
    reference: 'Ref: {value}',
    duration: { '1h': '1 hora' },
    location: {},
  } as unknown as Parameters<typeof buildMessage>[0]['templates'];
  const lone = (s: string) => /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

  it('a UTM value cut inside an emoji is stored well-formed, and the WhatsApp URL never throws', () => {
    const url = new URL(`https://site.example/?utm_source=${'a'.repeat(99)}${encodeURIComponent('😀')}&utm_campaign=${'b'.repeat(99)}${encodeURIComponent('😀x')}`);
    const touch = currentTouch(url, '', {})!;
    expect(lone(touch.source)).toBe(false);
    expect(touch.source).toBe('a'.repeat(99)); // cut before the emoji, not inside it
    expect(lone(touch.campaign!)).toBe(false);
    const text = buildMessage({ templates, variant: 'emotional_exclusive', city: 'general', reference: reference(touch), fields: { name: 'Ana \uDE00' } });
    expect(() => whatsappUrl('34600000000', text)).not.toThrow();
    expect(() => whatsappUrl('34600000000', 'broken \uD83D')).not.toThrow();
  });

  it('shortening the message never splits an emoji', () => {
    const message = '😀'.repeat(MAX_MESSAGE);
    for (let extra = 0; extra < 4; extra++) {
      const text = buildMessage({ templates, variant: 'emotional_exclusive', city: 'general', fields: { name: 'x'.repeat(extra), message } });
      expect(text.length).toBeLessThanOrEqual(MAX_MESSAGE);
      expect(lone(text), `extra ${extra}`).toBe(false);
    }
  });

  it('$&, $` and $\' in a name, a message or a reference are sent as typed', () => {
    const text = buildMessage({ templates, variant: 'emotional_exclusive', city: 'madrid', reference: "src $' $&", fields: { name: 'A$&B$`C', message: "x$'y" } });
    expect(text).toContain('Nombre: A$&B$`C');
    expect(text).toContain("Mensaje: x$'y");
    expect(text).toContain("Ref: src $' $&");
    expect(buildMessage({ templates, variant: 'emotional_exclusive', city: 'general', fields: { duration: 'constructor' } })).toContain('Duración: constructor');
  });

  it('a stored attribution record of the wrong shape is dropped, not used', () => {
    const ok = { first: { source: 'eros', at: 1 }, last: { source: 'slixa', medium: 'referral', at: 2 } };
    expect(parseAttribution(JSON.stringify(ok))).toEqual(ok);
    for (const bad of [
      { first: { source: 1, at: 1 }, last: { source: 'x', at: 2 } },
      { first: { source: 'x', at: 1 }, last: { source: 2, at: 2 } },
      { first: { source: 'x', at: 1 }, last: { source: 'y', at: '2' } },
      { first: { source: 'x', at: 1 }, last: { source: 'y', at: 2, medium: 5 } },
      { first: null, last: { source: 'y', at: 2 } },
      [],
      'text',
      7,
    ])
      expect(parseAttribution(JSON.stringify(bad)), JSON.stringify(bad)).toBeUndefined();
    expect(parseAttribution('{"first":')).toBeUndefined();
  });
});
