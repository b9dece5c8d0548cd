/** Every screen of the spec, as built: the parts a visitor should find on each page. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { copyContent, edit, EPOCH, htmlFiles, read } from '../helpers/site.ts';
import { renderSite } from '../helpers/render.ts';
import { shippedOut } from '../helpers/shared.ts';
import { parseHtml } from '../helpers/dom.ts';
import { shipped } from '../helpers/content.ts';

// Expectations come from the shipped content (SITE_CONTENT or content/), never from literals.
const c = shipped();
const en = c.defaultLanguage;
/** A language other than the default (the first), or the default when the site has one language. */
const other = c.others[0] ?? en;
const T = (lang: string, key: string) => c.texts(lang)[key] ?? key;
const pagePath = (id: string) => c.pages.find((p: { id: string }) => p.id === id)!.path as string;
const localize = (p: string, lang: string) => (lang === en ? p : p === '/' ? `/${lang}` : `/${lang}${p}`);
const href = (id: string, lang: string) => localize(pagePath(id), lang);
/** A city's page path: its own `path`, or (older content shape) its page's in pages.yaml. */
const cityPath = (city: { path?: string; page?: string }) => city.path ?? pagePath(city.page!);
/** The build date of the tests (SOURCE_DATE_EPOCH), YYYY-MM-DD. */
const today = new Date(Number(EPOCH) * 1000).toISOString().slice(0, 10);
const digits = (s: string) => s.replace(/[^\d+]/g, '');

const out = shippedOut();
const page = (f: string) => parseHtml(read(out, f));
const text = (doc: Document, sel = 'main') => (doc.querySelector(sel)?.textContent ?? '').replace(/\s+/g, ' ');


describe('header, skip links and footer', () => {
  it('[R-UI-1] logo, navigation with plain anchors on home and /#… elsewhere, language switcher, social and phone links', () => {
    const home = page('index.html');
    const nav = home.querySelector('.nav-desktop')!;
    const hrefs = [...nav.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    const blog = (lang: string) => (lang === en ? c.blog.path : `/${lang}${c.blog.path}`);
    const navHrefs = (lang: string) => [...['home', 'about', 'rates', 'booking', 'contact'].map((id) => href(id, lang)), blog(lang)];
    expect(hrefs).toEqual([...navHrefs(en), '#services', '#gallery']);
    expect(home.querySelector('a.logo')!.getAttribute('href')).toBe(href('home', en));
    const es = page(c.file('/rates', other)).querySelector('.nav-desktop')!;
    expect([...es.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([...navHrefs(other), `${href('home', other)}#services`, `${href('home', other)}#gallery`]);
    const last = c.languages.at(-1)!;
    const langs = [...page(c.file('/contact', last)).querySelectorAll('.header-tools-desktop .lang-switch a')].map((a) => a.getAttribute('href'));
    expect(langs).toEqual(c.languages.map((l) => href('contact', l)));
    // The desktop bar shows each language's code; its name is read after it, so the accessible name
    // holds what is shown (WCAG 2.5.3: a voice user says "RU").
    for (const a of page(c.file('/contact', last)).querySelectorAll('.header-tools-desktop .lang-switch a')) {
      const code = a.getAttribute('hreflang')!.toUpperCase();
      expect(a.querySelector('[aria-hidden="true"]'), code).toBeNull();
      expect(a.textContent!.startsWith(`${code} `), a.textContent!).toBe(true);
      expect(a.querySelector('.visually-hidden')!.textContent!.trim().length, code).toBeGreaterThan(0);
    }
    for (const url of Object.values(c.site.social) as string[]) expect(home.querySelector(`.header-tools a[href="${url}"]`), url).not.toBeNull();
    expect(home.querySelector(`.header-tools a[href="tel:${digits(c.site.contact.phone)}"]`)).not.toBeNull();
    expect(home.querySelector('details[data-menu] summary')).not.toBeNull();
  });

  // One test per language: a sweep of every page would not fit one test's time on a busy machine.
  it.each(c.languages)('[R-UI-1] the shared layout pieces (rendered once per language) fit every page: current item, home anchors, language: %s', (only) => {
    // Menus, footer and consent banner are rendered once per build and language (ctx.once) and
    // reused; on every page they must still mark that page current and be in its language.
    const inLang = (f: string) => (c.others.find((l) => f.startsWith(`${l}/`) || f === `${l}.html`) ?? en) === only;
    for (const file of htmlFiles(out).filter(inLang)) {
      const doc = page(file);
      if (!doc.querySelector('.nav-desktop')) continue; // redirect stubs and landing pages have no chrome
      const lang = doc.documentElement.getAttribute('lang')!;
      const self = doc.querySelector('link[rel="canonical"]')?.getAttribute('href')?.replace(/^https?:\/\/[^/]+/, '');
      for (const nav of doc.querySelectorAll('.nav-desktop, .menu-panel nav:not(.lang-switch)')) {
        const current = [...nav.querySelectorAll('a[aria-current="page"]')].map((a) => a.getAttribute('href'));
        if (self) expect(current.every((h) => h === self), `${file}: ${current} vs ${self}`).toBe(true);
        const services = nav.querySelector('a[href$="#services"]')!.getAttribute('href')!;
        const home = nav.querySelector('a')!.getAttribute('href'); // the first item is the home page
        expect(services.startsWith('#'), file).toBe(self === home);
      }
      const prefix = lang === en ? new RegExp(`^/(?!(?:${c.others.join('|') || '-'})(?:/|$))`) : new RegExp(`^/${lang}(/|$)`);
      // Social profiles (rel="me") are the footer's only links off the site.
      for (const a of doc.querySelectorAll('footer a:not([rel~="me"]), .consent a')) expect(a.getAttribute('href'), file).toMatch(prefix);
    }
    expect(page('rates.html').querySelector('.nav-desktop a[aria-current="page"]')!.getAttribute('href')).toBe(href('rates', en));
    const blogFile = c.file(c.blog.path, other);
    expect(page(blogFile).querySelector('.menu-panel a[aria-current="page"]')!.getAttribute('href')).toBe(blogFile.replace(/\.html$/, '').replace(/^/, '/'));
  });

  it('[R-UI-2] skip links to main content, services and contact', () => {
    const links = [...page('index.html').querySelectorAll('.skip-links a')].map((a) => a.getAttribute('href'));
    expect(links).toEqual(['#main', '#services', '#contact']);
    const home = page('index.html');
    for (const id of ['main', 'services', 'contact']) expect(home.getElementById(id), id).not.toBeNull();
  });

  it('[R-UI-16] footer: brand, tagline, cities, disclaimer, 18+, copyright, made-with-love, contact and privacy links', () => {
    const lang = c.languages.at(-1)!;
    const footer = page(c.file('/about', lang)).querySelector('footer')!;
    const t = footer.textContent!;
    const year = new Date(Number(EPOCH) * 1000).getUTCFullYear();
    expect(t).toContain(c.site.brand);
    expect(t).toContain('18+');
    expect(t).toMatch(new RegExp(`©\\s*${year}\\s*${c.site.brand}`));
    for (const id of ['contact', 'privacy', 'legal']) expect(footer.querySelector(`a[href="${href(id, lang)}"]`), id).not.toBeNull();
    expect(footer.querySelector('.footer-subtitle')).not.toBeNull();
    // Every city is listed, linked to its page.
    const cityLinks = [...footer.querySelectorAll('.plain-list')[0]!.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(cityLinks).toEqual(c.cities.map((city: { path?: string; page?: string }) => localize(cityPath(city), lang)));
  });

  it('[R-UI-16] the footer subtitle is hidden by a content flag', async () => {
    const content = copyContent();
    edit(content, 'site.yaml', 'footerSubtitle: true', 'footerSubtitle: false');
    const { out: o } = await renderSite(content);
    expect(parseHtml(read(o, 'index.html')).querySelector('.footer-subtitle')).toBeNull();
  });

  it('[R-ROUTE-12] privacy and legal are linked from the footer and the consent banner', () => {
    const doc = page(c.file('/booking', other));
    expect(doc.querySelector(`[data-consent] a[href="${href('privacy', other)}"]`)).not.toBeNull();
    expect(doc.querySelector(`[data-consent] a[href="${href('legal', other)}"]`)).not.toBeNull();
    expect(doc.querySelector('[data-consent]')!.hasAttribute('hidden')).toBe(true);
  });
});

describe('home', () => {
  it('[R-UI-3] hero with title, subtitle, description and buttons to services and contact', () => {
    const hero = page('index.html').querySelector('.hero')!;
    expect(hero.querySelector('h1')!.textContent).toBeTruthy();
    expect(hero.querySelector('a[href="#services"][data-scroll]')).not.toBeNull();
    expect(hero.querySelector('a[href="#contact"][data-scroll]')).not.toBeNull();
  });

  it('[R-UI-4] service cards with icon, title, description, price, duration and badge; included items and requirements', () => {
    const s = page('index.html').getElementById('services')!;
    const cards = s.querySelectorAll('.service-card');
    expect(cards).toHaveLength(c.services.cards.length);
    const symbol = c.money(0, en).replace(/[\d\s.,]/g, '');
    for (const card of cards) {
      // Issue 22: a drawn mark (CSS), never a Unicode symbol as the icon.
      expect(card.querySelector('.card-icon[aria-hidden="true"]')).not.toBeNull();
      expect(card.querySelector('.card-icon')!.textContent).toBe('');
      expect(card.querySelector('.badge')!.textContent).toBeTruthy();
      expect(card.querySelector('h3')!.textContent).toBeTruthy();
      expect(card.querySelector('.price-line')!.textContent).toContain(symbol);
    }
    expect(s.querySelectorAll('.checks li').length).toBe(c.services.included.length);
    expect(s.querySelectorAll('.rules li').length).toBeGreaterThanOrEqual(c.services.requirements.length);
  });

  it('[R-UI-5][R-UI-22] gallery: every image of its category, 4-column thumbnails, counter, tabs only for two categories, hidden featured carousel', () => {
    const doc = page('index.html');
    const used = (c.gallery.categories as string[]).filter((cat) => c.gallery.images.some((i: { category: string }) => i.category === cat));
    const first = used[0]!;
    const count = c.gallery.images.filter((i: { category: string }) => i.category === first).length;
    const g = doc.querySelector(`[data-carousel="gallery-${first}"]`)!;
    expect(g.querySelectorAll('[data-slide]')).toHaveLength(count);
    expect(g.querySelectorAll('.thumbs [data-thumb]')).toHaveLength(count);
    expect(g.querySelector('[data-counter]')!.textContent).toMatch(new RegExp(`^\\D*1\\D+${count}\\D*$`));
    expect(doc.querySelector('.tabs') === null).toBe(used.length < 2);
    const featured = doc.querySelector('[data-featured]')!;
    expect(featured.hasAttribute('hidden')).toBe(true);
    expect(featured.querySelectorAll('[data-slide]')).toHaveLength(c.gallery.featured.length);
    for (const img of doc.querySelectorAll('main img')) {
      expect(img.getAttribute('alt'), img.outerHTML).toBeTruthy();
      expect(Number(img.getAttribute('width'))).toBeGreaterThan(0);
      expect(Number(img.getAttribute('height'))).toBeGreaterThan(0);
    }
    expect(doc.querySelector('.hero img')!.getAttribute('loading')).toBe('eager');
    expect(g.querySelector('img')!.getAttribute('loading')).toBe('lazy');
  });

  it('[R-UI-22] gallery tabs appear once two categories have images', async () => {
    const content = copyContent();
    edit(content, 'data/gallery.yaml', 'id: lifestyle-8, category: lifestyle', 'id: lifestyle-8, category: professional');
    const { out: o } = await renderSite(content);
    const doc = parseHtml(read(o, 'index.html'));
    expect([...doc.querySelectorAll('.tabs a')].map((a) => a.getAttribute('href'))).toEqual(['#gallery-lifestyle', '#gallery-professional']);
  });

  it('[R-UI-6] the health card opens one dialog labelled for verified clients, with the check interval and last update', () => {
    const doc = page('index.html');
    expect(doc.querySelectorAll('dialog')).toHaveLength(1);
    const d = doc.querySelector('dialog#health-dialog')!;
    expect(d.textContent).toContain(T(en, 'health.verified'));
    expect(d.textContent).toMatch(new RegExp(`\\b${c.health.intervalMonths}\\b`));
    const updated = new Date(`${c.health.lastUpdate}T00:00:00Z`);
    expect(d.textContent).toContain(String(updated.getUTCFullYear()));
    expect(d.textContent).toContain(new Intl.DateTimeFormat(c.locale(en), { month: 'long', timeZone: 'UTC' }).format(updated));
    expect(d.querySelector('[data-toggle="health-details"]')!.getAttribute('aria-controls')).toBe('health-details');
  });

  it('[R-UI-7] venues with name, price badge, description, address, phone, optional email and features', () => {
    const venues = [...page('index.html').querySelectorAll('#contact .venue')];
    expect(venues).toHaveLength(c.venues.length);
    expect(venues.map((v) => v.querySelector('h3')!.textContent)).toEqual(c.venues.map((v: { name: string }) => v.name));
    const badges = venues.map((v) => v.querySelector('.badge')!.textContent!);
    c.venues.forEach((v: { price: string | { min: number; max: number } }, i: number) => {
      if (typeof v.price === 'string') expect(badges[i]).toBe(T(en, `venue.price.${v.price}`));
      else for (const n of [v.price.min, v.price.max]) expect(badges[i]).toContain(c.money(n, en));
    });
    expect(venues.map((v) => v.querySelectorAll('a[href^="mailto:"]').length)).toEqual(c.venues.map((v: { email?: string }) => (v.email ? 1 : 0)));
    expect(venues.map((v) => v.querySelectorAll('.tags li').length)).toEqual(c.venues.map((v: { features: string[] }) => v.features.length));
  });

  it('[R-UI-8] floating call-to-action card with urgency and valued-customer lines ready', () => {
    const card = page('index.html').querySelector('[data-cta]')!;
    expect(card.querySelector('[data-cta-primary]')!.textContent).toBeTruthy();
    expect(card.querySelector('[data-cta-urgency]')!.hasAttribute('hidden')).toBe(true);
    expect(card.querySelector('[data-cta-valued]')!.hasAttribute('hidden')).toBe(true);
    expect(card.querySelector('a[data-whatsapp]')).not.toBeNull();
  });

  it('[R-SEO-7] reviews are shown as testimonials, samples labelled', () => {
    const reviews = [...page(c.file('/', other)).querySelectorAll('#reviews .review')];
    expect(reviews).toHaveLength(c.reviews.length);
    expect(reviews.filter((r) => r.querySelector('.badge-sample')).length).toBe(c.reviews.filter((r: { sample?: boolean }) => r.sample).length);
  });
});

describe('inner pages', () => {
  it('[R-UI-9] about: philosophy, services, clients, languages spoken, standards, health certification', () => {
    const doc = page('about.html');
    for (const id of ['philosophy', 'services', 'clients', 'languages', 'standards', 'health']) expect(doc.getElementById(id), id).not.toBeNull();
    expect([...doc.querySelectorAll('#languages li')].map((l) => l.textContent)).toEqual(c.site.provider.languagesSpoken.map((code: string) => T(en, `languageName.${code}`)));
  });

  it('[R-UI-10][R-SEO-11] rates: tier badges, duration labels, spa and hotel extras, markup prices visible', () => {
    const doc = page('rates.html');
    const badges = new Set([...doc.querySelectorAll('.rate .badge')].map((b) => b.textContent));
    expect(badges).toEqual(new Set(c.rates.tiers.map((tier: { badge: string }) => T(en, `badge.${tier.badge}`))));
    const durations = [...doc.querySelectorAll('.rate .muted'), ...doc.querySelectorAll('.extras .muted')].map((d) => d.textContent);
    for (const item of [...c.rates.tiers, ...c.rates.extras]) expect(durations).toContain(T(en, `duration.${item.duration}`));
    const extras = text(doc, '#extras');
    for (const x of c.rates.extras) expect(extras).toContain(c.money(x.price, en));
    // Every tier shows its price (with "from" and "on request" as flagged): the markup's prices are visible.
    for (const tier of c.rates.tiers) {
      const shown = text(doc, `#rate-${tier.id}`);
      if (tier.price !== null) expect(shown, tier.id).toContain(c.money(tier.price, en));
      if (tier.onRequest || tier.price === null) expect(shown, tier.id).toContain(T(en, 'price.onRequest'));
    }
  });

  it('[R-UI-11] booking: every field, the options and prices of the spec, placeholders and the time zone', () => {
    const doc = page('booking.html');
    const form = doc.querySelector('form[data-booking]')!;
    for (const n of ['name', 'phone', 'email', 'date', 'time', 'duration', 'location', 'message']) expect(form.querySelector(`[name="${n}"]`), n).not.toBeNull();
    const options = [...form.querySelectorAll('[name="duration"] option[value]:not([value=""])')];
    expect(options.map((o) => o.getAttribute('value'))).toEqual(c.booking.durations.map((d: { id: string }) => d.id));
    // A duration names a rate tier (or, in older content, holds its price); an on-request tier shows "on request".
    const tierPrice = (d: { price?: number | null; tier?: string }) => {
      const tier = d.tier ? c.rates.tiers.find((t: { id: string }) => t.id === d.tier) : undefined;
      return (tier ? (tier.onRequest ? null : tier.price) : d.price) ?? null;
    };
    c.booking.durations.forEach((d: { id: string; price?: number | null; tier?: string }, i: number) => {
      const amount = tierPrice(d);
      expect(options[i]!.textContent).toContain(T(en, `booking.duration.${d.id}`));
      expect(options[i]!.textContent).toContain(amount === null ? T(en, 'price.onRequest') : c.money(amount, en));
    });
    expect([...form.querySelectorAll('[name="location"] option[value]:not([value=""])')].map((o) => o.getAttribute('value'))).toEqual(c.booking.locations);
    for (const f of ['name', 'phone', 'email']) expect(form.querySelector(`[name="${f}"]`)!.getAttribute('placeholder'), f).toBe(T(en, `booking.placeholder.${f}`));
    // No city is chosen for the visitor (issue 22): the line says times are the chosen city's, and
    // each city's own line, with its zone, travels with its option.
    expect(text(doc, '#booking-timezone')).toBe(T(en, 'booking.timezoneAny'));
    for (const city of c.cities) expect(doc.querySelector(`#booking-city option[value="${city.id}"]`)!.getAttribute('data-zone-line'), city.id).toContain(city.timezone);
    // The direct links in the form's place until the script takes the form over (R-SAFE-10).
    expect(doc.querySelector('[data-booking-slot] [data-booking-fallback]')!.innerHTML).toContain(`https://wa.me/${digits(c.site.contact.whatsapp).replace('+', '')}`);
  });

  it('[R-UI-12] contact: WhatsApp, phone, Instagram, availability, areas, 3 steps, venues, privacy', () => {
    const doc = page('contact.html');
    expect(doc.querySelector('main a[href^="https://wa.me/"]')).not.toBeNull();
    expect(doc.querySelector('main a[href^="tel:"]')).not.toBeNull();
    expect(doc.querySelector('main a[href*="instagram.com"]')).not.toBeNull();
    expect(text(doc, '#availability')).toMatch(/Monday to Friday.*Saturday and Sunday/);
    expect(doc.querySelectorAll('#process li')).toHaveLength(3);
    expect(doc.querySelectorAll('#contact .venue')).toHaveLength(c.venues.length);
    expect(doc.querySelectorAll('#privacy li').length).toBeGreaterThan(0);
    expect(doc.querySelectorAll('#areas .card')).toHaveLength(c.cities.length);
  });

  it('[R-UI-13] city pages: the areas of every city, and the launch timeline of an upcoming one', () => {
    for (const city of c.cities) {
      const doc = page(c.file(cityPath(city), en));
      expect([...doc.querySelectorAll('#areas h3')].map((h) => h.textContent), city.id).toEqual((city.areas ?? []).map((a: string) => T(en, `city.${city.id}.area.${a}`)));
      // Milestones already due at the build date (SOURCE_DATE_EPOCH) are left out (R-VIS-4).
      const quarters = (city.timeline ?? []).filter((m: { due: string }) => m.due >= today).map((m: { due: string }) => `Q${Math.ceil(Number(m.due.slice(5, 7)) / 3)}`);
      const shown = [...doc.querySelectorAll('#timeline strong')].map((s) => s.textContent!);
      expect(shown, city.id).toHaveLength(quarters.length);
      shown.forEach((q, i) => expect(q).toContain(quarters[i]));
    }
  });

  it('[R-UI-14] service pages for the dinner date and the travel companion', () => {
    for (const card of c.services.cards.filter((k: { page?: string }) => k.page)) {
      const doc = page(c.file(pagePath(card.page), en));
      expect(text(doc), card.id).toContain(c.money(card.price ?? c.rates.tiers.find((t: { id: string }) => t.id === card.tier)?.price, en));
      expect(doc.querySelector('h1')!.textContent, card.id).toBeTruthy();
    }
  });

  it('[R-UI-15] blog list with all six filters; posts with back link, author line, share links and tags', () => {
    const list = page(c.file(c.blog.path, en));
    expect([...list.querySelectorAll('.filters a')].map((a) => a.getAttribute('href'))).toEqual([c.blog.path, ...c.blog.categories.map((cat: string) => `${c.blog.path}/category/${cat}`)]);
    const published = [...c.posts.keys()].filter((slug) => existsSync(path.join(out, c.file(`${c.blog.path}/${slug}`, en)))).length;
    expect(list.querySelectorAll('.post-card').length).toBe(Math.min(published, c.blog.postsPerPage));
    // A post in another language (the first one that has the most text), with its back link and author.
    const [slug] = [...c.posts].find(([s, langs]) => langs.includes(other) && existsSync(path.join(out, c.file(`${c.blog.path}/${s}`, other))))!;
    const post = page(c.file(`${c.blog.path}/${slug}`, other));
    expect(post.querySelector(`main a[href="${other === en ? c.blog.path : `/${other}${c.blog.path}`}"]`)).not.toBeNull();
    expect(text(post)).toContain(c.site.provider.name);
    expect(post.querySelectorAll('.share a').length).toBeGreaterThanOrEqual(3);
    const source = readFileSync(path.join(c.dir, 'blog', slug, `${other}.md`), 'utf8');
    const [, matter, body] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(source)!;
    expect(post.querySelectorAll('.tags li').length).toBe((parse(matter!).tags ?? []).length);
    expect(post.querySelectorAll('.prose h2, .prose h3').length).toBe(body!.match(/^#{2,3} /gm)?.length ?? 0);
  });

  it('[R-UI-17] service rules: 3 hours ahead, verification, respect, 18+, 24/7 emergency, 5-minute confirmation', () => {
    const rules = text(page('rates.html'), '#rules');
    for (const r of [String(c.booking.minAdvanceHours), '18', '24/7', String(c.booking.confirmationMinutes)]) expect(rules).toContain(r);
  });

  it('[R-UI-21] favicon, touch icon and web manifest', () => {
    const doc = page('index.html');
    expect(doc.querySelector('link[rel="icon"]')!.getAttribute('href')).toMatch(/^\/assets\/img\/icon\.[0-9a-f]{8}\.svg$/);
    expect(doc.querySelector('link[rel="apple-touch-icon"]')!.getAttribute('href')).toMatch(/\.png$/);
    const manifest = JSON.parse(read(out, 'manifest.webmanifest'));
    expect(manifest.name).toBe(c.site.brand);
    expect(manifest.icons).toHaveLength(2);
  });

  it('[R-JS-12] a below-the-fold sentinel exists for the performance-loaded flag', () => {
    expect(page('index.html').querySelector('[data-sentinel]')).not.toBeNull();
  });
});
