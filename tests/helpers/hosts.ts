/**
 * Host engine tests: build a content copy (with a fifth language) for one host target, then probe
 * an engine serving it over real HTTP. Expected values come from the content (site.yaml,
 * data/redirects.yaml, data/directories.yaml, pages.yaml), never from the build's own rules.
 */
import { readFileSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parse } from 'yaml';
import { expect, it } from 'vitest';
import { copyContent, materialize, publishLanguage, read, SHIPPED_CONTENT } from './site.ts';
import { renderSite } from './render.ts';
import type { HostRules } from '../../src/output/hosts/rules.ts';

/** The language the engine tests add to the content (content/i18n/fr.yaml exists for it). */
const EXTRA_LANGUAGE = 'fr';

export interface HostBuild {
  out: string;
  /** `<out>.host/`: the files the host reads that it must not serve. */
  hostDir: string;
  /** The content folder built (its parent is the site's folder, where a host's own build runs). */
  content: string;
  languages: string[];
  defaultLanguage: string;
  /** Every 301 in every language: from → to (URL paths). */
  redirects: [from: string, to: string][];
  /** `/s/...` landing paths. */
  landings: string[];
  /** Path of the not-found page in the default language (`/404`). */
  notFoundPath: string;
  /** A page that exists in every language (`/rates`: the first fixed page after the home page). */
  page: string;
}

const yamlOf = <T>(dir: string, file: string) => parse(readFileSync(path.join(dir, file), 'utf8')) as T;

/** `/rates` in `es` → `/es/rates` (the default language has no prefix). */
export const localized = (p: string, lang: string, def: string) => (lang === def ? p : p === '/' ? `/${lang}` : `/${lang}${p}`);

/** Copy the content, add a language, build it for `host` (in memory, then written out for the engine to serve). */
export async function hostBuild(host: string, extra: { baseUrl?: string } = {}): Promise<HostBuild> {
  const content = copyContent(SHIPPED_CONTENT);
  const site = yamlOf<{ languages: string[]; defaultLanguage: string }>(content, 'site.yaml');
  // Listed and published (a draft language is taken off draftLanguages).
  const languages = publishLanguage(content, EXTRA_LANGUAGE);
  const out = materialize((await renderSite(content, { host, ...extra })).out);
  const def = site.defaultLanguage;
  const redirects = yamlOf<{ from: string; to: string }[]>(content, 'data/redirects.yaml').flatMap((r) => languages.map((l) => [localized(r.from, l, def), localized(r.to, l, def)] as [string, string]));
  const landings = yamlOf<{ slug: string }[]>(content, 'data/directories.yaml').map((d) => `/s/${d.slug}`);
  const pages = yamlOf<{ path: string; kind?: string }[]>(content, 'pages.yaml');
  const notFoundPath = pages.find((p) => p.kind === 'not-found')!.path;
  const page = pages.find((p) => (p.kind ?? 'page') === 'page' && p.path !== '/' && !p.path.includes('{'))!.path;
  return { out, hostDir: `${out}.host`, content, languages, defaultLanguage: def, redirects, landings, notFoundPath, page };
}

/** The host-neutral rules a build wrote beside its output (`<out>.host/rules.json`). */
export function hostRules(out: string): HostRules {
  return JSON.parse(readFileSync(path.join(`${out}.host`, 'rules.json'), 'utf8')) as HostRules;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Poll `url` until it answers (any status) or `ms` pass; `log` explains a failure. */
export async function waitForHttp(url: string, ms: number, log: () => string): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      await fetch(url, { redirect: 'manual' });
      return;
    } catch {
      if (Date.now() - started > ms) throw new Error(`${url} did not answer within ${ms} ms:\n${log()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * The R-HOST-2/3 probes over HTTP, as `it` blocks of the calling describe. `base()` is the engine's
 * URL once it runs, `b()` the build.
 */
export function hostProbes(engine: string, base: () => string, b: () => HostBuild): void {
  const get = (p: string) => fetch(`${base()}${p}`, { redirect: 'manual' });
  /** A Location header as a path + query (engines may send it absolute). */
  const where = (r: Response) => {
    const loc = r.headers.get('location');
    if (!loc) return undefined;
    const u = new URL(loc, base());
    return `${u.pathname}${u.search}`;
  };

  it(`[R-HOST-2] ${engine}: every redirect in every language is a 301 to its target, keeping the query string`, async () => {
    const { redirects, languages } = b();
    expect(redirects.length).toBeGreaterThanOrEqual(languages.length);
    for (const [from, to] of redirects) {
      const r = await get(`${from}?ref=a&x=1`);
      expect(r.status, from).toBe(301);
      expect(where(r), from).toBe(`${to}?ref=a&x=1`);
    }
  });

  it(`[R-HOST-2] ${engine}: an unknown path under each language answers 404 with that language's not-found page`, async () => {
    const { languages, defaultLanguage, notFoundPath, out } = b();
    for (const lang of languages) {
      const r = await get(localized('/no-such-page-here', lang, defaultLanguage));
      expect(r.status, lang).toBe(404);
      expect(await r.text(), lang).toBe(read(out, `${localized(notFoundPath, lang, defaultLanguage).slice(1)}.html`));
    }
  });

  it(`[R-HOST-2] ${engine}: hashed assets get exactly one immutable Cache-Control; HTML and sw.js are not cached long`, async () => {
    const { out, page } = b();
    const assets = readdirSync(path.join(out, 'assets')).filter((f) => /\.[0-9a-f]{8}\.(css|js|svg|png|webp|avif)$/.test(f));
    expect(assets.length).toBeGreaterThan(2);
    for (const a of assets.slice(0, 5)) {
      const r = await get(`/assets/${a}`);
      expect(r.status, a).toBe(200);
      // fetch joins repeated headers with ", ": equality proves there is one value.
      expect(r.headers.get('cache-control'), a).toBe('public, max-age=31536000, immutable');
    }
    for (const p of ['/', page, '/sw.js']) {
      const r = await get(p);
      expect(r.status, p).toBe(200);
      const cc = r.headers.get('cache-control') ?? '';
      expect(cc, p).not.toMatch(/immutable|max-age=[1-9]/);
    }
  });

  it(`[R-HOST-2] ${engine}: HTML carries the CSP and the security headers`, async () => {
    const { page, languages, defaultLanguage } = b();
    for (const p of ['/', page, localized(page, languages.at(-1)!, defaultLanguage)]) {
      const r = await get(p);
      expect(r.status, p).toBe(200);
      const csp = r.headers.get('content-security-policy') ?? '';
      expect(csp, p).toContain("script-src 'self'");
      expect(csp, p).toContain("frame-ancestors 'none'");
      expect(r.headers.get('strict-transport-security'), p).toMatch(/max-age=\d+/);
      expect(r.headers.get('x-content-type-options'), p).toBe('nosniff');
      expect(r.headers.get('referrer-policy'), p).toBeTruthy();
      expect(r.headers.get('permissions-policy'), p).toBeTruthy();
    }
  });

  it(`[R-HOST-2] ${engine}: clean URLs: the page answers 200 and its .html or slash form is no second copy`, async () => {
    const { page } = b();
    expect((await get(page)).status).toBe(200);
    for (const other of [`${page}.html`, `${page}/`]) {
      const r = await get(other);
      if (r.status >= 300 && r.status < 400) expect(where(r), other).toBe(page);
      else expect(r.status, other).toBe(404);
    }
  });

  it(`[R-HOST-2] ${engine}: /s/ landing pages answer 200 with noindex`, async () => {
    for (const p of b().landings) {
      const r = await get(p);
      expect(r.status, p).toBe(200);
      expect(await r.text(), p).toMatch(/<meta name="robots" content="noindex[^"]*"/);
    }
  });

  it(`[R-HOST-1][R-HOST-3] ${engine}: no host file is served; /favicon.ico answers; robots.txt blocks no noindex page`, async () => {
    const { hostDir } = b();
    for (const f of ['_redirects', '_headers', 'vercel.json', ...readdirSync(hostDir)]) {
      const r = await get(`/${f}`);
      expect(r.status, f).not.toBe(200);
    }
    const ico = await get('/favicon.ico');
    expect(ico.status).toBe(200);
    expect(Buffer.from(await ico.arrayBuffer()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
    const robots = await (await get('/robots.txt')).text();
    expect(robots).not.toMatch(/Disallow:\s*\/\S*/);
  });
}
