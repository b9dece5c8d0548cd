/**
 * R-GEN-2: the generator is not welded to this site. `site init <dir>` writes a minimal site (one
 * language, one page, a journal with one post, a kind of data of its own) that `site check` passes
 * and `site build` builds with its own templates and model, from a folder outside the project; and
 * nothing in src/ names this site's pages, cities, provider or data kinds.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, tmpDir, FIXTURE_CONTENT } from '../helpers/site.ts';
import { parseHtml } from '../helpers/dom.ts';
import { model } from '../../templates/model/index.ts';

let dir: string;
let init: Awaited<ReturnType<typeof runCli>>;
beforeAll(async () => {
  dir = path.join(tmpDir('site-init-'), 'new-site');
  init = await runCli(['init', dir]);
});

describe('[R-GEN-2] site init', () => {
  it('writes content, its own templates and model, and says how to start', () => {
    expect(init.code, init.stderr).toBe(0);
    for (const f of ['content/site.yaml', 'content/pages.yaml', 'templates/index.tsx', 'templates/model/index.ts']) expect(init.stdout).toContain(path.join(dir, f));
    expect(init.stdout).toMatch(/site watch --content/);
    const site = parse(readFileSync(path.join(dir, 'content/site.yaml'), 'utf8')) as { languages: string[] };
    expect(site.languages).toHaveLength(1);
  });

  it('passes site check and builds with its own templates: its page shows its own data and texts', async () => {
    const check = await runCli(['check', '--content', path.join(dir, 'content')]);
    expect(check.code, check.stderr + check.stdout).toBe(0);
    const out = path.join(dir, 'dist');
    const build = await runCli(['build', '--content', path.join(dir, 'content'), '--out', out]);
    expect(build.code, build.stderr + build.stdout).toBe(0);
    expect(build.stdout).toMatch(/No warnings\./);
    const texts = parse(readFileSync(path.join(dir, 'content/i18n/en.yaml'), 'utf8')) as { page: { home: { title: string } }; links: Record<string, string> };
    const links = parse(readFileSync(path.join(dir, 'content/data/links.yaml'), 'utf8')) as { id: string; url: string }[];
    const home = parseHtml(readFileSync(path.join(out, 'index.html'), 'utf8'));
    expect(home.querySelector('h1')!.textContent).toBe(texts.page.home.title);
    for (const l of links) expect(home.querySelector(`a[href="${l.url}"]`)!.textContent).toBe(texts.links[l.id]);
    const pages = readdirSync(out, { recursive: true }).map(String);
    expect(pages).toEqual(expect.arrayContaining(['index.html', '404.html', 'journal.html', path.join('journal', 'welcome.html'), 'sitemap.xml']));
    // Nothing of this site leaks in: no city page, no rates, no WhatsApp.
    const all = pages.filter((p) => p.endsWith('.html')).map((p) => readFileSync(path.join(out, p), 'utf8')).join('\n');
    expect(all).not.toMatch(/whatsapp|site-data/i);
  });

  it('its model checks its data like any site: a duplicate link id is an error naming file, line and id', async () => {
    const copy = path.join(tmpDir('site-init-'), 'copy');
    const again = await runCli(['init', copy]);
    expect(again.code).toBe(0);
    writeFileSync(path.join(copy, 'content/data/links.yaml'), '- { id: docs, url: "https://example.org/a" }\n- { id: docs, url: "https://example.org/b" }\n');
    const check = await runCli(['check', '--content', path.join(copy, 'content')]);
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(/data\/links\.yaml:2:\d+: error \[duplicate\] .*duplicate id "docs"/);
  });

  it('refuses a folder that is not empty, touching nothing', async () => {
    const busy = tmpDir('site-init-');
    mkdirSync(path.join(busy, 'mine'));
    writeFileSync(path.join(busy, 'mine', 'notes.txt'), 'keep');
    const r = await runCli(['init', path.join(busy, 'mine')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not empty/);
    expect(readdirSync(path.join(busy, 'mine'))).toEqual(['notes.txt']);
  });
});

describe('[R-GEN-2] src/ knows nothing of this site', () => {
  it("no file in src/ names this site's cities, provider, brand, own pages or data kinds", () => {
    const yaml = <T,>(f: string) => parse(readFileSync(path.join(FIXTURE_CONTENT, f), 'utf8')) as T;
    const site = yaml<{ brand: string; provider: { name: string; profileSlug: string } }>('site.yaml');
    const cities = yaml<{ id: string }[]>('data/cities.yaml');
    const en = yaml<{ city: Record<string, { name: string }> }>('i18n/en.yaml');
    const pages = yaml<{ id: string; kind?: string }[]>('pages.yaml');
    // Page ids that are everyday words (home, about, contact…) are left out: they name no one.
    const everyday = new Set(['home', 'about', 'contact', 'privacy', 'legal', 'profile', 'not-found', 'offline', 'booking']);
    const terms = [
      site.brand,
      site.provider.name,
      site.provider.profileSlug,
      ...cities.flatMap((c) => [c.id, en.city[c.id]?.name ?? c.id]),
      ...pages.filter((p) => !p.kind || p.kind === 'page').map((p) => p.id).filter((id) => !everyday.has(id)),
      ...Object.keys(model.data),
      'whatsapp',
      'companion',
      'escort',
    ];
    const hits: string[] = [];
    const srcDir = path.join(ROOT, 'src');
    for (const f of readdirSync(srcDir, { recursive: true }).map(String).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(path.join(srcDir, f), 'utf8');
      for (const term of new Set(terms)) if (new RegExp(`(?<![\\p{L}\\d-])${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\d-])`, 'iu').test(text)) hits.push(`${f}: ${term}`);
    }
    expect(terms.length).toBeGreaterThan(15);
    expect(hits).toEqual([]);
  });
});
