/** Every route of the spec exists in every language; adding a language is a content change. */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyContent, edit, has, htmlFiles, publishLanguage, read } from '../helpers/site.ts';
import { renderSite } from '../helpers/render.ts';
import { fixtureOut } from '../helpers/shared.ts';
import { headOf, parseHtml } from '../helpers/dom.ts';

const LANGS = ['en', 'es', 'ru', 'el'];
const PAGES = [
  '/',
  '/about',
  '/profile/aurelia',
  '/rates',
  '/booking',
  '/contact',
  '/madrid-vip-escort',
  '/athens-vip-companion',
  '/monaco-elite-companion',
  '/services/dinner-date',
  '/services/travel-companion',
  '/blog',
  '/privacy',
  '/legal',
  '/404',
];
const POSTS = ['madrid-luxury-dining', 'monaco-grand-prix', 'athens-cultural-sophistication', 'business-entertainment-etiquette'];
const CATEGORIES = ['lifestyle', 'travel', 'culture', 'business', 'events'];
const REDIRECTS: Record<string, string> = {
  '/madrid-escort': '/madrid-vip-escort',
  '/escort-madrid': '/madrid-vip-escort',
  '/athens-escort': '/athens-vip-companion',
  '/monaco-companion': '/monaco-elite-companion',
  '/monaco-escort': '/monaco-elite-companion',
  '/monaco-concierge': '/services/travel-companion',
};
const DIRECTORIES: Record<string, string> = {
  'eurogirls-madrid': '/madrid-vip-escort',
  'eros-madrid': '/madrid-vip-escort',
  'slixa-madrid': '/madrid-vip-escort',
  'adultwork-madrid': '/madrid-vip-escort',
  'escortguide-madrid': '/madrid-vip-escort',
  'topescortbabes-madrid': '/madrid-vip-escort',
  'girlsmadrid-madrid': '/madrid-vip-escort',
  'girlsbcn-madrid': '/madrid-vip-escort',
  elitetraveler: '/services/travel-companion',
  boatinternational: '/services/travel-companion',
  luxurylifestylemag: '/monaco-elite-companion',
  therichest: '/about',
  xbiz: '/about',
  avn: '/about',
};

const localize = (p: string, lang: string) => (lang === 'en' ? p : p === '/' ? `/${lang}` : `/${lang}${p}`);
const file = (p: string) => (p === '/' ? 'index.html' : `${p.slice(1)}.html`);

const out = fixtureOut();

describe('route table in dist', () => {
  it('[R-ROUTE-1][R-ROUTE-2][R-ROUTE-3][R-ROUTE-12][R-ROUTE-13] every page exists in every language as {path}.html', () => {
    for (const lang of LANGS) {
      const paths = [...PAGES, ...POSTS.map((s) => `/blog/${s}`), ...CATEGORIES.map((c) => `/blog/category/${c}`)];
      for (const p of paths) {
        const f = file(localize(p, lang));
        expect(existsSync(path.join(out, f)), `${f} missing`).toBe(true);
        expect(parseHtml(read(out, f)).documentElement.getAttribute('lang')).toBe(lang);
      }
    }
    expect(existsSync(path.join(out, 'es.html'))).toBe(true);
    expect(existsSync(path.join(out, 'es/index.html'))).toBe(false);
  });

  it('[R-ROUTE-13] links and canonicals have no .html and no trailing slash', () => {
    for (const f of htmlFiles(out)) {
      const doc = parseHtml(read(out, f));
      for (const a of doc.querySelectorAll('a[href^="/"], link[rel="canonical"], link[rel="alternate"]')) {
        const href = a.getAttribute('href')!;
        const p = href.replace(/^https?:\/\/[^/]+/, '').split(/[?#]/)[0]!;
        expect(p, `${f}: ${href}`).not.toMatch(/\.html$/);
        if (p !== '/' && p !== '') expect(p, `${f}: ${href}`).not.toMatch(/\/$/);
      }
    }
  });

  it('[R-ROUTE-4] /profile/{name} renders the about page with its canonical at /about', () => {
    for (const lang of LANGS) {
      const profile = parseHtml(read(out, file(localize('/profile/aurelia', lang))));
      const about = parseHtml(read(out, file(localize('/about', lang))));
      expect(headOf(profile).canonical).toBe(`https://aurelia-companion.example${localize('/about', lang)}`);
      expect(profile.querySelector('main')!.innerHTML).toBe(about.querySelector('main')!.innerHTML);
    }
  });

  it('[R-ROUTE-5][R-ROUTE-6] every redirect exists in every language as a stub and a 301 rule', () => {
    const rules = read(out, '_redirects');
    for (const lang of LANGS) {
      for (const [from, to] of Object.entries(REDIRECTS)) {
        const stub = parseHtml(read(out, file(localize(from, lang))));
        const head = headOf(stub);
        const target = localize(to, lang);
        expect(head.robots).toBe('noindex');
        expect(head.canonical).toBe(`https://aurelia-companion.example${target}`);
        // The forwarding script comes first, so with scripting on it forwards keeping the query
        // string and hash; without scripting the 0 s meta refresh does.
        const raw = read(out, file(localize(from, lang)));
        const script = raw.indexOf(`<script src="/assets/forward.`);
        const refresh = raw.indexOf(`<noscript><meta http-equiv="refresh" content="0; url=${target}"/></noscript>`);
        expect(script).toBeGreaterThan(0);
        expect(refresh).toBeGreaterThan(script);
        expect(refresh).toBeLessThan(raw.indexOf('</head>'));
        expect(stub.querySelector('head script[src][data-target]')!.getAttribute('data-target')).toBe(target);
        expect(rules).toContain(`${localize(from, lang)} ${target} 301`);
        expect(existsSync(path.join(out, file(target)))).toBe(true);
      }
    }
  });

  it('[R-ROUTE-7][R-ROUTE-8] the 14 /s/ landing pages exist at the root only, noindex, with a no-JS link', () => {
    for (const [slug, target] of Object.entries(DIRECTORIES)) {
      const doc = parseHtml(read(out, `s/${slug}.html`));
      expect(headOf(doc).robots).toBe('noindex');
      expect(doc.querySelector('h1')!.className).toContain('visually-hidden');
      expect(doc.querySelector(`main a[href="${target}"]`)).not.toBeNull();
      expect(doc.querySelector('head script[data-target]')!.getAttribute('data-delay')).toBe('50');
      for (const lang of LANGS.slice(1)) expect(existsSync(path.join(out, lang, 's', `${slug}.html`))).toBe(false);
    }
    expect(read(out, 'sitemap.xml')).not.toContain('/s/');
  });

  it('[R-ROUTE-9] a not-found page at the root and per language, with _redirects 404 rules', () => {
    const rules = read(out, '_redirects');
    for (const lang of LANGS) {
      const f = lang === 'en' ? '404.html' : `${lang}/404.html`;
      expect(headOf(parseHtml(read(out, f))).robots).toBe('noindex');
      if (lang !== 'en') expect(rules).toContain(`/${lang}/* /${lang}/404.html 404`);
    }
    expect(rules.trim().split('\n').at(-1)).toBe('/* /404.html 404');
  });

  it('[R-ROUTE-10] admin pages are not built by default', () => {
    expect(existsSync(path.join(out, 'admin'))).toBe(false);
  });
});

describe('content changes that add routes', () => {
  it('[R-ROUTE-10] enabling admin builds three noindex pages in the default language only and warns', async () => {
    const content = copyContent();
    edit(content, 'site.yaml', 'admin: false', 'admin: true');
    const { out: o, warnings } = await renderSite(content);
    for (const id of ['directory-profiles', 'lead-magnet', 'marketing-dashboard']) {
      expect(headOf(parseHtml(read(o, `admin/${id}.html`))).robots).toBe('noindex, nofollow');
      expect(has(o, `es/admin/${id}.html`)).toBe(false);
    }
    expect(read(o, 'sitemap.xml')).not.toContain('/admin/');
    expect(warnings).toMatch(/admin pages are built and PUBLIC/);
    const dirs = parseHtml(read(o, 'admin/directory-profiles.html'));
    expect(dirs.querySelectorAll('tbody tr')).toHaveLength(14);
  });

  it('[R-ROUTE-11][R-ROUTE-14] publishing fr is one line in site.yaml; posts not in fr are not built there and are reported', async () => {
    const content = copyContent();
    publishLanguage(content, 'fr');
    expect(existsSync(path.join(content, 'i18n', 'fr.yaml'))).toBe(true);
    // One post left untranslated into French: it is reported and its hreflang lists the others.
    const [untranslated, ...translated] = POSTS;
    rmSync(path.join(content, 'blog', untranslated!, 'fr.md'), { force: true });
    const { out: o, warnings } = await renderSite(content);
    for (const p of PAGES) expect(has(o, file(localize(p, 'fr'))), p).toBe(true);
    for (const c of CATEGORIES) expect(has(o, `fr/blog/category/${c}.html`)).toBe(true);
    expect(has(o, `fr/blog/${untranslated}.html`)).toBe(false);
    expect(warnings).toContain(`blog/${untranslated}: warning [missing-translation]`);
    expect(headOf(parseHtml(read(o, `blog/${untranslated}.html`))).alternates.map((a) => a.hreflang)).toEqual(['en', 'es', 'ru', 'el', 'x-default']);
    for (const s of translated.filter((x) => existsSync(path.join(content, 'blog', x, 'fr.md')))) {
      expect(has(o, `fr/blog/${s}.html`)).toBe(true);
      expect(headOf(parseHtml(read(o, `blog/${s}.html`))).alternates.map((a) => a.hreflang)).toContain('fr');
    }
    const home = headOf(parseHtml(read(o, 'fr.html')));
    expect(home.lang).toBe('fr');
    expect(home.alternates.map((a) => a.hreflang)).toEqual(['en', 'es', 'ru', 'el', 'fr', 'x-default']);
  });

  it('[R-ROUTE-14] a post missing in one language is left out there and its hreflang lists only the others', async () => {
    const content = copyContent();
    const { rmSync } = await import('node:fs');
    rmSync(path.join(content, 'blog/monaco-grand-prix/ru.md'));
    const { out: o, warnings } = await renderSite(content);
    expect(has(o, 'ru/blog/monaco-grand-prix.html')).toBe(false);
    expect(warnings).toMatch(/blog\/monaco-grand-prix: warning \[missing-translation\] post not published in ru \(no file, or a draft or scheduled one\)/);
    const alts = headOf(parseHtml(read(o, 'es/blog/monaco-grand-prix.html'))).alternates.map((a) => a.hreflang);
    expect(alts).toEqual(['en', 'es', 'el', 'x-default']);
    expect(read(o, 'ru/blog.html')).not.toContain('/ru/blog/monaco-grand-prix');
  });

  it('[R-BUILD-5] drafts and future-dated posts are left out unless --drafts', async () => {
    const content = copyContent();
    edit(content, 'blog/monaco-grand-prix/en.md', 'date: 2025-04-22', 'date: 2030-01-01');
    const md = path.join(content, 'blog/madrid-luxury-dining/en.md');
    writeFileSync(md, readFileSync(md, 'utf8').replace(/^---\n/, '---\ndraft: true\n'));
    const plain = await renderSite(content);
    expect(has(plain.out, 'blog/monaco-grand-prix.html')).toBe(false);
    expect(has(plain.out, 'blog/madrid-luxury-dining.html')).toBe(false);
    expect(plain.warnings).toMatch(/blog\/monaco-grand-prix\/en\.md: warning \[scheduled\] date: dated 2030-01-01/);
    const drafts = await renderSite(content, { drafts: true });
    expect(has(drafts.out, 'blog/monaco-grand-prix.html')).toBe(true);
    expect(has(drafts.out, 'blog/madrid-luxury-dining.html')).toBe(true);
  });
});
