#!/usr/bin/env node
// `npm run lighthouse`: audit an existing `dist/` the way a search engine or a phone sees it.
// Serves dist/ on 127.0.0.1 with the project's production-like server (src/server/dev.ts, as `site serve`,
// bundled on the fly) with the host-neutral rules of dist.host/rules.json (301s, 404 pages, headers:
// the CSP is exercised) and brotli/gzip as hosts send it, runs Lighthouse 12 (mobile, default
// throttling) with Debian's Chromium on the key pages, checks every link of the site with
// linkinator (nothing outside 127.0.0.1 is fetched), prints a table and fails below the targets.
//
// Usage: npm run lighthouse [-- --runs 3] [--dist dist] [--reports <dir>] [--pages /,/es]  (CHROME_PATH overrides /usr/bin/chromium)
// --runs: Lighthouse runs per page, the table shows the median; --reports: write each page's HTML report;
// --pages: audit these paths (comma-separated) instead of the key pages below.
// It builds nothing: run `SOURCE_DATE_EPOCH=1763800000 npm run build` first.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const dist = path.resolve(root, arg('--dist') ?? 'dist');
const reportsDir = arg('--reports') ? path.resolve(arg('--reports')) : undefined;
/** Lighthouse runs per page; the table shows the median of each column. */
const runs = Math.max(1, Number.parseInt(arg('--runs') ?? '3', 10) || 1);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Pages audited with Lighthouse: the home page in every language and one page of every other type
 * (about, rates, booking, contact, city, upcoming city, service, journal, category, post).
 */
const PAGES = arg('--pages')?.split(',').filter(Boolean) ?? ['/', '/es', '/ru', '/el', '/about', '/rates', '/booking', '/contact', '/madrid-vip-escort', '/athens-vip-companion', '/services/dinner-date', '/blog', '/blog/category/lifestyle', '/blog/monaco-grand-prix'];

/**
 * Targets: a category score below its minimum, or a metric above its maximum, fails.
 * R-VIS-8 (measured here, not asserted in tests): on every page type the median of the runs
 * reaches LCP <= 1.0 s and TBT <= 50 ms, and no single run exceeds 100 ms TBT.
 */
const MIN_SCORE = { performance: 0.98, accessibility: 1, 'best-practices': 1, seo: 1 };
const MAX_METRIC = { lcp: 1000, cls: 0.02, tbt: 50 };
const MAX_SINGLE_RUN_TBT = 100;

const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

if (!existsSync(path.join(dist, 'index.html'))) {
  console.error(`No built site in ${path.relative(root, dist) || dist}/ (index.html missing). Build it first:`);
  console.error('  SOURCE_DATE_EPOCH=1763800000 npm run build');
  process.exit(2);
}
const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium';
if (!existsSync(chromePath)) {
  console.error(`Chromium not found at ${chromePath}: apt-get install -y chromium, or set CHROME_PATH.`);
  process.exit(2);
}

/**
 * Bundle the project's local server (src/server/dev.ts: static files plus the build's rules, as
 * `site serve` applies them), cached by the sources' content.
 */
async function loadDevServer() {
  const dir = path.join(root, 'src', 'server');
  const entry = path.join(dir, 'dev.ts');
  const key = createHash('sha256');
  for (const f of readdirSync(dir).sort()) key.update(f).update(readFileSync(path.join(dir, f)));
  const cache = path.join(root, 'node_modules', '.cache', 'site');
  const file = path.join(cache, `dev-server-${key.digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    const esbuild = await import('esbuild');
    const result = await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', packages: 'external', write: false, logLevel: 'error' });
    mkdirSync(cache, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, result.outputFiles[0].contents);
    renameSync(tmp, file);
  }
  return import(pathToFileURL(file).href);
}

/** Clean URL of every HTML file of the build (`rates.html` → `/rates`, `index.html` → `/`). */
function sitePaths(dir, prefix = '') {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sitePaths(full, `${prefix}/${name}`));
    else if (name.endsWith('.html')) out.push(name === 'index.html' && !prefix ? '/' : `${prefix}/${name.slice(0, -5)}`);
  }
  return out;
}

const fmt = {
  score: (s) => (s == null ? '  n/a' : s.toFixed(2).padStart(5)),
  lcp: (ms) => (ms / 1000).toFixed(2).padStart(6),
  cls: (v) => v.toFixed(3).padStart(5),
  tbt: (ms) => Math.round(ms).toString().padStart(6),
};

const { startDevServer } = await loadDevServer();
if (!existsSync(path.join(`${dist}.host`, 'rules.json'))) console.warn(`warning: ${path.basename(dist)}.host/rules.json missing; serving without the build's headers`);
const devServer = await startDevServer({ root: dist, port: 0 });
const { server, url: base } = devServer;

const { default: lighthouse } = await import('lighthouse');
const chromeLauncher = await import('chrome-launcher');
const { LinkChecker, LinkState } = await import('linkinator');

const failures = [];
const rows = [];
const details = [];
let chrome;
let versions = '';
try {
  chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS, logLevel: 'error' });
  for (const page of PAGES) {
    const started = Date.now();
    const lhrs = [];
    for (let run = 0; run < runs; run++) {
      const result = await lighthouse(`${base}${page}`, {
        port: chrome.port,
        output: reportsDir ? 'html' : 'json',
        logLevel: 'error',
        formFactor: 'mobile',
        onlyCategories: Object.keys(MIN_SCORE),
      });
      const lhr = result.lhr;
      if (lhr.runtimeError) failures.push(`${page}: Lighthouse error ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
      versions ||= `Lighthouse ${lhr.lighthouseVersion}, ${/HeadlessChrome\/[\d.]+/.exec(lhr.environment.hostUserAgent)?.[0] ?? 'Chromium'}`;
      lhrs.push({ lhr, report: result.report });
    }
    // Median of the runs per column (scores and metrics vary from run to run on a busy machine).
    const scores = Object.fromEntries(Object.keys(MIN_SCORE).map((c) => [c, median(lhrs.map(({ lhr }) => lhr.categories[c]?.score ?? Number.NaN))]));
    const metric = (id) => median(lhrs.map(({ lhr }) => lhr.audits[id]?.numericValue ?? Number.NaN));
    const m = { lcp: metric('largest-contentful-paint'), cls: metric('cumulative-layout-shift'), tbt: metric('total-blocking-time') };
    rows.push({ page, scores, m });
    const worstTbt = Math.max(...lhrs.map(({ lhr }) => lhr.audits['total-blocking-time']?.numericValue ?? 0));
    if (worstTbt > MAX_SINGLE_RUN_TBT) failures.push(`${page}: a single run's TBT ${Math.round(worstTbt)} ms > ${MAX_SINGLE_RUN_TBT} ms (R-VIS-8)`);
    for (const [c, min] of Object.entries(MIN_SCORE)) if (!(scores[c] >= min)) failures.push(`${page}: ${c} ${scores[c]} < ${min}`);
    for (const [k, max] of Object.entries(MAX_METRIC)) if (!(m[k] <= max)) failures.push(`${page}: ${k.toUpperCase()} ${k === 'cls' ? m[k].toFixed(3) : Math.round(m[k]) + ' ms'} > ${k === 'cls' ? max : max + ' ms'}`);
    // The audits that cost points in the median-performance run, so a failure says what to fix.
    const { lhr, report } = [...lhrs].sort((a, b) => (a.lhr.categories.performance?.score ?? 0) - (b.lhr.categories.performance?.score ?? 0))[Math.floor(lhrs.length / 2)];
    if (reportsDir) {
      mkdirSync(reportsDir, { recursive: true });
      writeFileSync(path.join(reportsDir, `${page === '/' ? 'home' : page.slice(1).replaceAll('/', '_')}.html`), report);
    }
    for (const c of Object.keys(MIN_SCORE)) {
      for (const ref of lhr.categories[c]?.auditRefs ?? []) {
        const a = lhr.audits[ref.id];
        if (!a || a.score === null || a.score >= 1 || a.scoreDisplayMode === 'informative' || a.scoreDisplayMode === 'notApplicable') continue;
        // Weighted audits count; of the unweighted performance diagnostics only the poor ones.
        if (ref.weight === 0 && (c !== 'performance' || a.score >= 0.5)) continue;
        details.push(`${page}  ${c}: ${a.id} score ${a.score}${a.displayValue ? ` (${a.displayValue})` : ''}`);
      }
    }
    process.stderr.write(`audited ${page}: ${runs} run(s) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
} finally {
  await chrome?.kill();
}

// Links, #fragments and url() in CSS: every HTML page of the build is a starting point, crawled
// recursively; anything not on this server (the canonical domain, WhatsApp, social sites, tel:,
// mailto:) is skipped unfetched.
const origin = new URL(base).origin;
const checker = new LinkChecker();
const linkResult = await checker.check({
  path: sitePaths(dist).map((p) => `${base}${p}`),
  recurse: true,
  checkCss: true,
  checkFragments: true,
  concurrency: 8,
  timeout: 10000,
  linksToSkip: async (link) => {
    try {
      return new URL(link).origin !== origin;
    } catch {
      return true;
    }
  },
});
await devServer.close();
const checked = linkResult.links.filter((l) => l.state !== LinkState.SKIPPED);
const broken = linkResult.links.filter((l) => l.state === LinkState.BROKEN);
const skipped = linkResult.links.length - checked.length;

const header = `${'page'.padEnd(26)} ${'perf'.padStart(5)} ${'a11y'.padStart(5)} ${'bp'.padStart(5)} ${'seo'.padStart(5)} ${'LCP s'.padStart(6)} ${'CLS'.padStart(5)} ${'TBT ms'.padStart(6)}`;
console.log(`\n${versions}: mobile, simulated throttling, median of ${runs} run(s), ${base} with the build's headers, compressed (${new Date().toISOString().slice(0, 10)})`);
console.log(header);
console.log('-'.repeat(header.length));
for (const r of rows) {
  const s = r.scores;
  console.log(`${r.page.padEnd(26)} ${fmt.score(s.performance)} ${fmt.score(s.accessibility)} ${fmt.score(s['best-practices'])} ${fmt.score(s.seo)} ${fmt.lcp(r.m.lcp)} ${fmt.cls(r.m.cls)} ${fmt.tbt(r.m.tbt)}`);
}
console.log(`targets: perf >= ${MIN_SCORE.performance}, a11y/bp/seo = 1, LCP <= ${MAX_METRIC.lcp / 1000} s, CLS < ${MAX_METRIC.cls}, TBT <= ${MAX_METRIC.tbt} ms`);
if (details.length) console.log(`\naudits below full score:\n  ${details.join('\n  ')}`);
console.log(`\nlinks: ${checked.length} checked, ${skipped} external skipped, broken: ${broken.length}`);
for (const l of broken) {
  const why = (l.failureDetails ?? []).map((f) => f.message ?? f.status).filter(Boolean).join('; ');
  console.log(`  ${l.status ?? 'error'} ${l.url}  (on ${l.parent ?? 'a start page'})${why ? `: ${why}` : ''}`);
}
if (broken.length) failures.push(`${broken.length} broken link(s)`);

if (failures.length) {
  console.log(`\nFAIL (${failures.length}):\n  ${failures.join('\n  ')}`);
  process.exitCode = 1;
} else console.log('\nAll targets met.');
