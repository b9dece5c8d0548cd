/**
 * Built pages split into small groups (per language and page group, at most MAX_PAGES_PER_TEST
 * each), so a browser sweep is many short tests instead of one that visits every page: on a
 * busy machine no single test runs long enough to hit its timeout.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { htmlFiles, SHIPPED_CONTENT } from './site.ts';

/** Most pages one test visits: 10 keeps a sweep test near 15 s at a load average of 40 on 2 cores (20 took 33 s). */
export const MAX_PAGES_PER_TEST = 10;

export interface PageGroup {
  /** e.g. `es blog 2/3`. */
  name: string;
  files: string[];
}

/** The site's languages and default language, read from the content's site.yaml. */
export function siteLanguages(content = SHIPPED_CONTENT): { languages: string[]; defaultLanguage: string } {
  const site = load(readFileSync(path.join(content, 'site.yaml'), 'utf8')) as { languages: string[]; defaultLanguage: string };
  return { languages: site.languages, defaultLanguage: site.defaultLanguage };
}

/**
 * The HTML pages of `out` (landing pages under s/ left out: they forward at once), grouped by
 * language and by blog / other pages, each group cut into chunks of at most `max`.
 */
export function pageGroups(out: string, content = SHIPPED_CONTENT, max = MAX_PAGES_PER_TEST): PageGroup[] {
  const { languages, defaultLanguage } = siteLanguages(content);
  const blog = (load(readFileSync(path.join(content, 'data/blog.yaml'), 'utf8')) as { path: string }).path.slice(1);
  const buckets = new Map<string, string[]>();
  for (const f of htmlFiles(out)) {
    if (f.startsWith('s/')) continue;
    const first = f.split('/')[0]!;
    const lang = f.includes('/') && languages.includes(first) ? first : defaultLanguage;
    const rest = lang === first && f.includes('/') ? f.slice(first.length + 1) : f;
    const kind = rest.startsWith(`${blog}/`) || rest === `${blog}.html` ? 'blog' : 'pages';
    const key = `${lang} ${kind}`;
    (buckets.get(key) ?? buckets.set(key, []).get(key)!).push(f);
  }
  const groups: PageGroup[] = [];
  for (const [key, files] of [...buckets].sort(([a], [b]) => a.localeCompare(b))) {
    const chunks = Math.ceil(files.length / max);
    for (let i = 0; i < chunks; i++) groups.push({ name: chunks > 1 ? `${key} ${i + 1}/${chunks}` : key, files: files.slice(i * max, (i + 1) * max) });
  }
  return groups;
}

/** The URL path a page file is served at. */
export function urlPathOf(file: string): string {
  return `/${file === 'index.html' ? '' : file.replace(/\.html$/, '')}`;
}

/**
 * How many pages a browser sweep test has open at once (one tab each). A page load mostly waits
 * (on the server, the browser's frames, the protocol): a few at once keep both cores busy, and a
 * test's pages still finish inside that test.
 */
export const TABS_PER_TEST = 4;

/**
 * Run `fn` on every item, at most `limit` at a time, each runner on its own resource (`open()`, e.g.
 * a browser tab, closed with `close` after its last item). Resolves when all are done; rejects with
 * the first error once the others have stopped.
 */
export async function inTabs<T, R>(items: readonly T[], open: () => Promise<R>, fn: (item: T, tab: R) => Promise<void>, close: (tab: R) => Promise<void>, limit = TABS_PER_TEST): Promise<void> {
  let next = 0;
  let failed = false;
  const runner = async () => {
    const tab = await open();
    try {
      while (!failed && next < items.length) await fn(items[next++]!, tab);
    } catch (err) {
      failed = true;
      throw err;
    } finally {
      await close(tab);
    }
  };
  const results = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, runner));
  const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (rejected) throw rejected.reason;
}
