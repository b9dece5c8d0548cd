/** Every screen of the spec, as built: the parts a visitor should find on each page. */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSite, copyContent, edit, htmlFiles, read } from '../helpers/site.ts';
import { parseHtml } from '../helpers/dom.ts';

let out: string;
const page = (f: string) => parseHtml(read(out, f));
const text = (doc: Document, sel = 'main') => (doc.querySelector(sel)?.textContent ?? '').replace(/\s+/g, ' ');

beforeAll(async () => {
  ({ out } = await buildSite(copyContent()));
});

describe('header, skip links and footer', () => {
  it('[R-UI-1] logo, navigation with plain anchors on home and /#… elsewhere, language switcher, social and phone links', () => {
    const home = page('index.html');
    const nav = home.querySelector('.nav-desktop')!;
    const hrefs = [...nav.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['/', '/about', '/rates', '/booking', '/contact', '/blog', '#services', '#gallery']);
    expect(home.querySelector('a.logo')!.getAttribute('href')).toBe('/');
    const es = page('es/rates.html').querySelector('.nav-desktop')!;
    expect([...es.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual(['/es', '/es/about', '/es/rates', '/es/booking', '/es/contact', '/es/blog', '/es#services', '/es#gallery']);
    const langs = [...page('ru/contact.html').querySelectorAll('.header-tools-desktop .lang-switch a')].map((a) => a.getAttribute('href'));
    expect(langs).toEqual(['/contact', '/es/contact', '/ru/contact', '/el/contact']);
    expect(home.querySelector('.header-tools a[href^="https://www.instagram.com/"]')).not.toBeNull();
    expect(home.querySelector('.header-tools a[href="tel:+34600000000"]')).not.toBeNull();
    expect(home.querySelector('details[data-menu] summary')).not.toBeNull();
  });

  it('[R-UI-1] the shared layout pieces (rendered once per language) fit every page: current item, home anchors, language', () => {
    // Menus, footer and consent banner are rendered once per build and language (ctx.once) and
    // reused; on every page they must still mark that page current and be in its language.
    for (const file of htmlFiles(out)) {
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
      const prefix = lang === 'en' ? /^\/(?!es\/|ru\/|el\/)/ : new RegExp(`^/${lang}(/|$)`);
      for (const a of doc.querySelectorAll('footer a, .consent a')) expect(a.getAttribute('href'), file).toMatch(prefix);
    }
    expect(page('rates.html').querySelector('.nav-desktop a[aria-current="page"]')!.getAttribute('href')).toBe('/rates');
    expect(page('es/blog.html').querySelector('.menu-panel a[aria-current="page"]')!.getAttribute('href')).toBe('/es/blog');
  });

  it('[R-UI-2] skip links to main content, services and contact', () => {
    const links = [...page('index.html').querySelectorAll('.skip-links a')].map((a) => a.getAttribute('href'));
    expect(links).toEqual(['#main', '#services', '#contact']);
    const home = page('index.html');
    for (const id of ['main', 'services', 'contact']) expect(home.getElementById(id), id).not.toBeNull();
  });

  it('[R-UI-16] footer: brand, tagline, cities, disclaimer, 18+, copyright, made-with-love, contact and privacy links', () => {
    const footer = page('el/about.html').querySelector('footer')!;
    const t = footer.textContent!;
    expect(t).toContain('Aurelia');
    expect(t).toContain('18+');
    expect(t).toContain('© 2025 Aurelia');
    expect(footer.querySelectorAll('a[href^="/el/"]').length).toBeGreaterThanOrEqual(5);
    expect(footer.querySelector('a[href="/el/contact"]')).not.toBeNull();
    expect(footer.querySelector('a[href="/el/privacy"]')).not.toBeNull();
    expect(footer.querySelector('a[href="/el/legal"]')).not.toBeNull();
    expect(footer.querySelector('.footer-subtitle')).not.toBeNull();
    expect(footer.querySelectorAll('.plain-list')[0]!.querySelectorAll('a')).toHaveLength(3);
  });

  it('[R-UI-16] the footer subtitle is hidden by a content flag', async () => {
    const content = copyContent();
    edit(content, 'site.yaml', 'footerSubtitle: true', 'footerSubtitle: false');
    const { out: o } = await buildSite(content);
    expect(parseHtml(read(o, 'index.html')).querySelector('.footer-subtitle')).toBeNull();
  });

  it('[R-ROUTE-12] privacy and legal are linked from the footer and the consent banner', () => {
    const doc = page('es/booking.html');
    expect(doc.querySelector('[data-consent] a[href="/es/privacy"]')).not.toBeNull();
    expect(doc.querySelector('[data-consent] a[href="/es/legal"]')).not.toBeNull();
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

  it('[R-UI-4] four service cards with icon, title, description, price, duration and badge; included items and requirements', () => {
    const s = page('index.html').getElementById('services')!;
    const cards = s.querySelectorAll('.service-card');
    expect(cards).toHaveLength(4);
    for (const c of cards) {
      expect(c.querySelector('.card-icon')!.textContent).toBeTruthy();
      expect(c.querySelector('.badge')!.textContent).toBeTruthy();
      expect(c.querySelector('h3')!.textContent).toBeTruthy();
      expect(c.querySelector('.price-line')!.textContent).toMatch(/€/);
    }
    expect(s.querySelectorAll('.checks li').length).toBe(4);
    expect(s.querySelectorAll('.rules li').length).toBe(6);
  });

  it('[R-UI-5][R-UI-22] gallery: 8 lifestyle images, 4-column thumbnails, counter, no tabs for one category, hidden featured carousel of 4', () => {
    const doc = page('index.html');
    const g = doc.querySelector('[data-carousel="gallery-lifestyle"]')!;
    expect(g.querySelectorAll('[data-slide]')).toHaveLength(8);
    expect(g.querySelectorAll('.thumbs [data-thumb]')).toHaveLength(8);
    expect(g.querySelector('[data-counter]')!.textContent).toBe('1 of 8');
    expect(doc.querySelector('.tabs')).toBeNull();
    const featured = doc.querySelector('[data-featured]')!;
    expect(featured.hasAttribute('hidden')).toBe(true);
    expect(featured.querySelectorAll('[data-slide]')).toHaveLength(4);
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
    const { out: o } = await buildSite(content);
    const doc = parseHtml(read(o, 'index.html'));
    expect([...doc.querySelectorAll('.tabs a')].map((a) => a.getAttribute('href'))).toEqual(['#gallery-lifestyle', '#gallery-professional']);
  });

  it('[R-UI-6] the health card opens one dialog labelled for verified clients, with the check interval and last update', () => {
    const doc = page('index.html');
    expect(doc.querySelectorAll('dialog')).toHaveLength(1);
    const d = doc.querySelector('dialog#health-dialog')!;
    expect(d.textContent).toContain('For verified clients only');
    expect(d.textContent).toContain('every 3 months');
    expect(d.textContent).toContain('15 July 2025');
    expect(d.querySelector('[data-toggle="health-details"]')!.getAttribute('aria-controls')).toBe('health-details');
  });

  it('[R-UI-7] three venues with name, price badge, description, address, phone, optional email and features', () => {
    const venues = page('index.html').querySelectorAll('#contact .venue');
    expect(venues).toHaveLength(3);
    expect([...venues].map((v) => v.querySelector('h3')!.textContent)).toEqual(['Rooms Madrid', 'Luxtal Balboa', 'Alfonso XIII Suites']);
    expect([...venues].map((v) => v.querySelector('.badge')!.textContent)).toEqual(['€35–€38', 'Variable', 'Premium']);
    expect([...venues].map((v) => v.querySelectorAll('a[href^="mailto:"]').length)).toEqual([0, 0, 1]);
    expect([...venues].map((v) => v.querySelectorAll('.tags li').length)).toEqual([3, 3, 5]);
  });

  it('[R-UI-8] floating call-to-action card with urgency and valued-customer lines ready', () => {
    const card = page('index.html').querySelector('[data-cta]')!;
    expect(card.querySelector('[data-cta-primary]')!.textContent).toBeTruthy();
    expect(card.querySelector('[data-cta-urgency]')!.hasAttribute('hidden')).toBe(true);
    expect(card.querySelector('[data-cta-valued]')!.hasAttribute('hidden')).toBe(true);
    expect(card.querySelector('a[data-whatsapp]')).not.toBeNull();
  });

  it('[R-SEO-7] reviews are shown as testimonials, samples labelled', () => {
    const reviews = page('ru.html').querySelectorAll('#reviews .review');
    expect(reviews).toHaveLength(5);
    for (const r of reviews) expect(r.querySelector('.badge-sample')).not.toBeNull();
  });
});

describe('inner pages', () => {
  it('[R-UI-9] about: philosophy, services, clients, languages spoken, standards, health certification', () => {
    const doc = page('about.html');
    for (const id of ['philosophy', 'services', 'clients', 'languages', 'standards', 'health']) expect(doc.getElementById(id), id).not.toBeNull();
    expect([...doc.querySelectorAll('#languages li')].map((l) => l.textContent)).toEqual(['Spanish', 'English', 'Russian', 'Ukrainian']);
  });

  it('[R-UI-10][R-SEO-11] rates: tier badges, duration labels, spa and hotel extras, markup prices visible', () => {
    const doc = page('rates.html');
    const badges = new Set([...doc.querySelectorAll('.rate .badge')].map((b) => b.textContent));
    expect(badges).toEqual(new Set(['Popular', 'Enhanced', 'Exclusive', 'VIP', 'Ultimate', 'Ultra ultimate']));
    const durations = [...doc.querySelectorAll('.rate .muted'), ...doc.querySelectorAll('.extras .muted')].map((d) => d.textContent);
    for (const d of ['1 h', '2 h', '3 h', '3–4 h', '4 h', 'Full event', '12 h', 'per day', 'per hour']) expect(durations).toContain(d);
    const extras = text(doc, '#extras');
    expect(extras).toContain('€200');
    expect(extras).toContain('€250');
    expect(extras).toMatch(/taxi/);
    expect(text(doc, '#rate-business')).toContain('from €800');
    expect(text(doc, '#rate-travel')).toContain('from €2,000');
    expect(text(doc, '#rate-travel')).toContain('On request');
  });

  it('[R-UI-11] booking: every field, the options and prices of the spec, placeholders and the time zone', () => {
    const doc = page('booking.html');
    const form = doc.querySelector('form[data-booking]')!;
    for (const n of ['name', 'phone', 'email', 'date', 'time', 'duration', 'location', 'message']) expect(form.querySelector(`[name="${n}"]`), n).not.toBeNull();
    expect([...form.querySelectorAll('[name="duration"] option[value]:not([value=""])')].map((o) => o.textContent)).toEqual([
      '1 hour · €250',
      '2 hours · €400',
      'Dinner date · €500',
      'Overnight (12 hours) · €1,800',
      'International travel · On request',
    ]);
    expect([...form.querySelectorAll('[name="location"] option[value]:not([value=""])')].map((o) => o.getAttribute('value'))).toEqual(['hotel', 'apartment', 'restaurant', 'other']);
    expect(form.querySelector('[name="name"]')!.getAttribute('placeholder')).toBe('First name only');
    expect(form.querySelector('[name="phone"]')!.getAttribute('placeholder')).toMatch(/^\+34 6\d{2} \d{3} \d{3}$/);
    expect(form.querySelector('[name="email"]')!.getAttribute('placeholder')).toMatch(/@example\./);
    expect(text(doc, '#booking-timezone')).toContain('Europe/Madrid');
    expect(doc.querySelector('main noscript')!.innerHTML).toContain('https://wa.me/34600000000');
  });

  it('[R-UI-12] contact: WhatsApp, phone, Instagram, availability, areas, 3 steps, venues, privacy', () => {
    const doc = page('contact.html');
    expect(doc.querySelector('main a[href^="https://wa.me/"]')).not.toBeNull();
    expect(doc.querySelector('main a[href^="tel:"]')).not.toBeNull();
    expect(doc.querySelector('main a[href*="instagram.com"]')).not.toBeNull();
    expect(text(doc, '#availability')).toMatch(/Monday to Friday.*Saturday and Sunday/);
    expect(doc.querySelectorAll('#process li')).toHaveLength(3);
    expect(doc.querySelectorAll('#contact .venue')).toHaveLength(3);
    expect(doc.querySelectorAll('#privacy li').length).toBeGreaterThan(0);
    expect(doc.querySelectorAll('#areas .card')).toHaveLength(3);
  });

  it('[R-UI-13] city pages: Madrid and Monaco areas, Athens launch timeline', () => {
    expect([...page('madrid-vip-escort.html').querySelectorAll('#areas h3')].map((h) => h.textContent)).toEqual(['Salamanca', 'Chamberí', 'Centro', 'Las Rozas']);
    expect([...page('monaco-elite-companion.html').querySelectorAll('#areas h3')].map((h) => h.textContent)).toEqual(['Monte Carlo', 'Port Hercule', 'Monaco-Ville', 'Fontvieille']);
    expect([...page('athens-vip-companion.html').querySelectorAll('#timeline strong')].map((s) => s.textContent)).toEqual(['Q2 2025', 'Q3 2025', 'Q4 2025']);
  });

  it('[R-UI-14] service pages for the dinner date and the travel companion', () => {
    expect(text(page('services/dinner-date.html'))).toContain('from €500');
    expect(page('services/travel-companion.html').querySelector('h1')!.textContent).toBe('Travel companion');
  });

  it('[R-UI-15] blog list with all six filters; posts with back link, author line, share links and tags', () => {
    const list = page('blog.html');
    expect([...list.querySelectorAll('.filters a')].map((a) => a.getAttribute('href'))).toEqual(['/blog', '/blog/category/lifestyle', '/blog/category/travel', '/blog/category/culture', '/blog/category/business', '/blog/category/events']);
    expect(list.querySelectorAll('.post-card')).toHaveLength(4);
    const post = page('es/blog/madrid-luxury-dining.html');
    expect(post.querySelector('main a[href="/es/blog"]')).not.toBeNull();
    expect(text(post)).toContain('Aurelia');
    expect(post.querySelectorAll('.share a').length).toBeGreaterThanOrEqual(3);
    expect(post.querySelectorAll('.tags li').length).toBeGreaterThanOrEqual(3);
    expect(post.querySelectorAll('.prose h3').length).toBeGreaterThanOrEqual(2);
    expect(post.querySelectorAll('.prose ul li').length).toBeGreaterThan(0);
  });

  it('[R-UI-17] service rules: 3 hours ahead, verification, respect, 18+, 24/7 emergency, 5-minute confirmation', () => {
    const rules = text(page('rates.html'), '#rules');
    for (const r of ['3 hours', 'verification', 'Respectful', '18', '24/7', '5 minutes']) expect(rules).toContain(r);
  });

  it('[R-UI-21] favicon, touch icon and web manifest', () => {
    const doc = page('index.html');
    expect(doc.querySelector('link[rel="icon"]')!.getAttribute('href')).toMatch(/^\/assets\/img\/icon\.[0-9a-f]{10}\.svg$/);
    expect(doc.querySelector('link[rel="apple-touch-icon"]')!.getAttribute('href')).toMatch(/\.png$/);
    const manifest = JSON.parse(read(out, 'manifest.webmanifest'));
    expect(manifest.name).toBe('Aurelia');
    expect(manifest.icons).toHaveLength(2);
  });

  it('[R-JS-12] a below-the-fold sentinel exists for the performance-loaded flag', () => {
    expect(page('index.html').querySelector('[data-sentinel]')).not.toBeNull();
  });
});
