#!/usr/bin/env node
// `npm run bench:scale`: build the same generated blog with this project, Hugo and Eleventy and
// compare wall time and peak memory (issue 7), and time this project's rebuilds of one output folder
// (nothing changed, one post edited, a text on every page edited, a price edited: R-INC-3, issue
// 25) against the
// peers' full builds. Not part of `npm test`.
//
//   npm run bench:scale                                   full matrix (under 20 minutes)
//   npm run bench:scale -- --posts N [--langs 1|4] [--runs R] [--target tmpfs|disk|both]
//                          [--timeout S] [--budget MIN] [--json FILE] [--peers hugo,eleventy|none]
//   npm run bench:scale -- --posts N --langs 1|4 --generate DIR   only write the inputs into DIR
//
// Full matrix: 1,000 and 4,000 posts x 1 and 4 languages (5 runs each) and 16,000 posts x 4
// languages (2 runs), to a tmpfs folder (/dev/shm) and to the real disk, reported separately.
// With --posts, both language counts run unless --langs is given; runs default to 5 (2 from 64,000
// pages up). Every post is a markdown file with this project's front matter (title, excerpt, date,
// category, author, tags) and a lorem-ipsum body of a few paragraphs with a `##` heading and a
// list, like the public SSG build benchmarks. Inputs are generated before the runs (not timed); the
// generators then run alternating (project, hugo, eleventy, project, ...), each into a fresh output
// folder, and the table shows .html files written, the median wall time of the whole process, its
// peak RSS (GNU time's %M, else /proc polling) and this project's median time divided by each
// peer's (below 1 means this project is faster). A build that fails or times out is reported with
// the first line of its error and the benchmark goes on. If the runs would not fit in the time
// budget (default 20 minutes), the remaining cases run fewer times or the largest skips its
// slowest peer (planFrom below), and the output says so.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const peers = path.join(root, 'benchmarks/peers');
const startedAt = Date.now();

// ---------------------------------------------------------------------------------------- options
const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const v = argv[i + 1];
  if (v === undefined || v.startsWith('--')) fail(`--${name} needs a value`);
  return v;
};
function fail(message) {
  console.error(`bench:scale: ${message}`);
  process.exit(2);
}
for (const a of argv) if (a.startsWith('--') && !['--posts', '--langs', '--runs', '--target', '--timeout', '--budget', '--json', '--generate', '--peers'].includes(a)) fail(`unknown option ${a}`);
const int = (name, v) => {
  const n = Number(String(v).replace(/[_,]/g, ''));
  if (!Number.isInteger(n) || n < 1) fail(`--${name} must be a positive integer`);
  return n;
};
const postsOpt = opt('posts');
const langsOpt = opt('langs');
const runsOpt = opt('runs');
const target = opt('target') ?? 'both';
if (!['tmpfs', 'disk', 'both'].includes(target)) fail('--target is tmpfs, disk or both');
if (langsOpt && !['1', '4'].includes(langsOpt)) fail('--langs is 1 or 4');
const timeoutMs = int('timeout', opt('timeout') ?? 600) * 1000;
const budgetMs = int('budget', opt('budget') ?? 20) * 60_000;
const jsonFile = opt('json');
const generateOnly = opt('generate');
// The peers to build beside this project (default: every one installed); `none` for none.
const peersOpt = opt('peers');
const peerIds = peersOpt === undefined ? ['hugo', 'eleventy'] : peersOpt === 'none' ? [] : peersOpt.split(',');
for (const id of peerIds) if (!['hugo', 'eleventy'].includes(id)) fail(`--peers takes hugo, eleventy (comma-separated) or none, got "${id}"`);

const ALL_LANGS = ['en', 'es', 'ru', 'el'];
const CATEGORIES = ['lifestyle', 'travel', 'culture', 'business', 'events'];
const defaultRuns = (posts, langs) => (posts * langs >= 64_000 ? 2 : 5);
const cases = postsOpt
  ? (langsOpt ? [Number(langsOpt)] : [1, 4]).map((langs) => {
      const posts = int('posts', postsOpt);
      return { posts, langs, runs: runsOpt ? int('runs', runsOpt) : defaultRuns(posts, langs) };
    })
  : [
      [1000, 1],
      [1000, 4],
      [4000, 1],
      [4000, 4],
      [16000, 4],
    ].map(([posts, langs]) => ({ posts, langs, runs: runsOpt ? int('runs', runsOpt) : defaultRuns(posts, langs) }));

// ------------------------------------------------------------------------------- machine, tools
const TMPFS_MAGIC = 0x01021994;
const fsType = (dir) => {
  try {
    return statfsSync(dir).type === TMPFS_MAGIC ? 'tmpfs' : 'disk';
  } catch {
    return 'missing';
  }
};
const diskBase = [os.tmpdir(), '/var/tmp'].find((d) => fsType(d) === 'disk');
const targets = [];
if (target !== 'disk') {
  if (fsType('/dev/shm') !== 'tmpfs') fail('/dev/shm is not a tmpfs here');
  targets.push({ id: 'tmpfs', base: '/dev/shm' });
}
if (target !== 'tmpfs') {
  if (!diskBase) fail(`neither ${os.tmpdir()} nor /var/tmp is on a real disk`);
  targets.push({ id: 'disk', base: diskBase });
}
const df = (dir) => {
  const r = spawnSync('df', ['-hT', dir], { encoding: 'utf8' });
  const line = r.stdout?.trim().split('\n').at(-1)?.split(/\s+/);
  return line ? `${line[0]} (${line[1]}, ${line[2]})` : '?';
};

const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const hugoBin = ['/usr/bin/hugo', '/usr/local/bin/hugo'].find(existsSync) ?? 'hugo';
const hugoVersion = (() => {
  const r = spawnSync(hugoBin, ['version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
})();
const eleventyDir = path.join(root, 'benchmarks/node_modules/@11ty/eleventy');
const eleventyVersion = existsSync(eleventyDir) ? JSON.parse(readFileSync(path.join(eleventyDir, 'package.json'), 'utf8')).version : undefined;
const cpuModel = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? os.cpus()[0]?.model ?? '?';
/** The project's build code as bin/site.js sees it (paths, sizes, times): builds are compared per version. */
function sourceVersion() {
  const key = createHash('sha256');
  for (const d of ['src', 'templates', 'client', 'bin']) {
    let files = [];
    try {
      files = readdirSync(path.join(root, d), { recursive: true }).sort();
    } catch {}
    for (const f of files) {
      const st = statSync(path.join(root, d, f), { throwIfNoEntry: false });
      if (st?.isFile()) key.update(`${d}/${f}:${st.size}:${st.mtimeMs}\n`);
    }
  }
  for (const f of ['package.json', 'package-lock.json']) {
    const st = statSync(path.join(root, f), { throwIfNoEntry: false });
    key.update(`${f}:${st?.size}:${st?.mtimeMs}\n`);
  }
  return key.digest('hex').slice(0, 8);
}
const projectVersion = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;

const machine = [
  `date        ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  `cpu         ${cpuModel}, ${os.availableParallelism()} cores`,
  `memory      ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
  `node        ${process.version}`,
  `hugo        ${!peerIds.includes('hugo') ? 'left out (--peers)' : (hugoVersion ?? 'not installed (apt-get install hugo): its rows are skipped')}`,
  `eleventy    ${!peerIds.includes('eleventy') ? 'left out (--peers)' : (eleventyVersion ?? 'not installed (npm install): its rows are skipped')}`,
  `project     ${projectVersion} (bin/site.js build --quiet), sources ${sourceVersion()} (hash of src/, templates/, client/, bin/ paths, sizes and times)`,
  ...targets.map((t) => `${t.id.padEnd(12)}${t.base} on ${df(t.base)}`),
  `load avg    ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} (1, 5, 15 min) at the start`,
  `peak RSS    ${timeBin ? 'GNU time %M (maximum resident set size of the process)' : 'polled from /proc/<pid>/status VmHWM (install Debian package time for GNU time)'}`,
];
if (!generateOnly) {
  console.log('bench:scale: this project vs Hugo vs Eleventy, same generated posts\n');
  console.log(machine.join('\n'));
  console.log('');
}

// ------------------------------------------------------------------------------- input generation
const WORDS = (
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna ' +
  'aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo consequat duis aute ' +
  'irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint occaecat cupidatat non ' +
  'proident sunt culpa qui officia deserunt mollit anim id est laborum'
).split(' ');
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const BUILD_EPOCH = 1763800000; // 2025-11-22: SOURCE_DATE_EPOCH for this project; every post is dated before it
function post(i, lang) {
  const r = rng(i * 7 + ALL_LANGS.indexOf(lang) + 1);
  const n = (lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
  const words = (k) => Array.from({ length: k }, () => WORDS[Math.floor(r() * WORDS.length)]);
  const cap = (s) => s[0].toUpperCase() + s.slice(1);
  const sentence = () => `${cap(words(n(8, 16)).join(' '))}.`;
  const paragraph = () => Array.from({ length: n(3, 6) }, sentence).join(' ');
  const day = new Date((BUILD_EPOCH - 86400 * (1 + ((i * 7919) % 2900))) * 1000).toISOString().slice(0, 10);
  const front = [
    '---',
    `title: "${cap(words(n(4, 8)).join(' '))}"`,
    `excerpt: "${sentence()}"`,
    `date: ${day}`,
    `category: ${CATEGORIES[i % CATEGORIES.length]}`,
    'author: "Bench Author"',
    `tags: [${words(n(2, 3)).map((w) => `"${w}"`).join(', ')}]`,
    '---',
  ];
  const body = [
    paragraph(),
    paragraph(),
    `## ${cap(words(n(3, 6)).join(' '))}`,
    Array.from({ length: n(3, 5) }, () => `- ${cap(words(n(3, 8)).join(' '))}`).join('\n'),
    paragraph(),
    paragraph(),
  ];
  return `${front.join('\n')}\n\n${body.join('\n\n')}\n`;
}
const slugOf = (i) => `post-${String(i + 1).padStart(5, '0')}`;

/** Writes the three inputs for one case under dir; returns their folders. */
function generate(dir, { posts, langs }) {
  const languages = ALL_LANGS.slice(0, langs);
  const project = path.join(dir, 'project');
  const hugo = path.join(dir, 'hugo');
  const eleventy = path.join(dir, 'eleventy');
  // this project: the shipped content (fixed pages, data, text tables, images) without its 4 posts
  cpSync(path.join(root, 'content'), project, { recursive: true, filter: (src) => src !== path.join(root, 'content/blog') });
  const siteYaml = path.join(project, 'site.yaml');
  writeFileSync(siteYaml, readFileSync(siteYaml, 'utf8').replace(/^languages:.*$/m, `languages: [${languages.join(', ')}]`));
  // the WhatsApp messages are in Spanish: with English only, they are taken as English
  const ctaYaml = path.join(project, 'data/cta.yaml');
  if (langs === 1 && existsSync(ctaYaml)) writeFileSync(ctaYaml, readFileSync(ctaYaml, 'utf8').replace(/^messageLanguage:.*$/m, 'messageLanguage: en'));
  cpSync(path.join(peers, 'hugo'), hugo, { recursive: true });
  mkdirSync(path.join(eleventy, '_includes'), { recursive: true });
  cpSync(path.join(peers, 'eleventy/_includes'), path.join(eleventy, '_includes'), { recursive: true });
  cpSync(path.join(peers, 'eleventy/lists.liquid'), path.join(eleventy, 'lists.liquid'));
  for (const lang of languages) {
    mkdirSync(path.join(hugo, 'content', lang, 'posts'), { recursive: true });
    mkdirSync(path.join(eleventy, 'posts', lang), { recursive: true });
  }
  for (let i = 0; i < posts; i++) {
    const slug = slugOf(i);
    mkdirSync(path.join(project, 'blog', slug), { recursive: true });
    for (const lang of languages) {
      const text = post(i, lang);
      writeFileSync(path.join(project, 'blog', slug, `${lang}.md`), text);
      writeFileSync(path.join(hugo, 'content', lang, 'posts', `${slug}.md`), text);
      writeFileSync(path.join(eleventy, 'posts', lang, `${slug}.md`), text);
    }
  }
  return { project, hugo, eleventy, languages };
}

if (generateOnly) {
  if (cases.length !== 1) fail('--generate needs --posts and --langs');
  const dir = path.resolve(generateOnly);
  if (existsSync(dir) && readdirSync(dir).length) fail(`${dir} is not empty`);
  const input = generate(dir, cases[0]);
  console.log(`inputs for ${cases[0].posts} posts x ${cases[0].langs} language(s) in ${dir}: project/ (--content), hugo/, eleventy/ (BENCH_LANGS=${input.languages.join(',')})`);
  process.exit(0);
}

// ------------------------------------------------------------------------------------ generators
const generators = [
  {
    id: 'project',
    name: 'this project',
    growth: [[Infinity, 0.9]], // page workers from 8,000 routes: 18,774 -> 74,774 routes 3.5x the time
    command: (input, out) => ({
      cmd: process.execPath,
      args: [path.join(root, 'bin/site.js'), 'build', '--quiet', '--content', input.project, '--out', out],
      cwd: root,
      // A new process for every build: the full builds are cold. The rebuilds run both ways
      // (rebuildTimes): in a new process, and sent to the resident build process.
      env: { SITE_RESIDENT: 'off' },
    }),
  },
  hugoVersion && {
    id: 'hugo',
    growth: [[Infinity, 1.1]], // 16,000 -> 64,000 pages: 4.5x the time
    name: `Hugo ${/v[\d.]+/.exec(hugoVersion)?.[0] ?? ''}`.trim(),
    command: (input, out) => ({
      cmd: hugoBin,
      args: [
        '--source', input.hugo,
        '--destination', out,
        '--config', input.languages.length > 1 ? 'languages-4.toml,hugo.toml' : 'hugo.toml',
        '--cacheDir', path.join(input.hugo, '.cache'),
        '--quiet',
      ],
      cwd: input.hugo,
    }),
  },
  eleventyVersion && {
    id: 'eleventy',
    // time per page grows with the pages: 4,000 -> 16,000 pages 6x the time, 16,000 -> 64,000 9.5x
    growth: [[4000, 1], [16000, 1.3], [Infinity, 1.6]],
    name: `Eleventy ${eleventyVersion}`,
    command: (input, out) => ({
      cmd: process.execPath,
      args: [path.join(eleventyDir, 'cmd.cjs'), `--config=${path.join(peers, 'eleventy/eleventy.config.js')}`, '--input=.', `--output=${out}`, '--quiet'],
      cwd: input.eleventy,
      env: { BENCH_LANGS: input.languages.join(','), BENCH_CATEGORIES: CATEGORIES.join(',') },
    }),
  },
].filter((g) => g && (g.id === 'project' || peerIds.includes(g.id)));

/**
 * Builds running now (each a process group of its own) and the folders this run made: Ctrl-C or a
 * kill of the benchmark stops those builds too and removes the folders, so no peer's build is left
 * running on its own (an orphaned Eleventy build kept a core busy for minutes, slowing whatever
 * was measured next).
 */
const running = new Set();
const madeDirs = new Set();
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.on(sig, () => {
    for (const pid of running) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {}
    }
    for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true });
    console.error(`\nbench:scale: ${sig}: stopped its builds and removed its folders`);
    process.exit(130);
  });

/** One build: resolves with { ms, rssMiB } or { error }. */
function build(spec, limitMs = timeoutMs) {
  return new Promise((resolve) => {
    const env = { ...process.env, SOURCE_DATE_EPOCH: String(BUILD_EPOCH), ...spec.env };
    const [cmd, args] = timeBin ? [timeBin, ['-f', '@@rss=%M', spec.cmd, ...spec.args]] : [spec.cmd, spec.args];
    const started = process.hrtime.bigint();
    const child = spawn(cmd, args, { cwd: spec.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child.pid);
    child.on('close', () => running.delete(child.pid));
    let stdout = '';
    let stderr = '';
    const keep = (s, c) => (s.length < 1 << 20 ? s + c : s);
    child.stdout.setEncoding('utf8').on('data', (c) => (stdout = keep(stdout, c)));
    child.stderr.setEncoding('utf8').on('data', (c) => (stderr = keep(stderr, c)));
    let hwm = 0;
    const poll = timeBin
      ? undefined
      : setInterval(() => {
          try {
            hwm = Math.max(hwm, Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0));
          } catch {}
        }, 20);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL'); // the process group this benchmark started
      } catch {}
    }, limitMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      if (poll) clearInterval(poll);
      resolve({ error: e.message });
    });
    child.on('close', (code, signal) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      clearTimeout(timer);
      if (poll) clearInterval(poll);
      const rssLine = /@@rss=(\d+)/.exec(stderr);
      const rssKiB = rssLine ? Number(rssLine[1]) : hwm;
      const errText = stderr
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('@@rss=') && !/^Command (exited with non-zero status|terminated by signal)/.test(l) && !/^<--- (Last few GCs|JS stacktrace) --->$/.test(l));
      if (timedOut) return resolve({ error: `timed out after ${Math.round(limitMs / 1000)} s (killed)`, ms, rssMiB: rssKiB / 1024 });
      if (code !== 0 || signal) {
        const first = errText.find((l) => /error|fatal|killed|out of memory/i.test(l)) ?? errText[0] ?? stdout.trim().split('\n')[0] ?? '';
        const status = signal ? `signal ${signal}` : /terminated by signal (\d+)/.exec(stderr)?.[0] ?? `exit ${code}`;
        return resolve({ error: `${status}: ${first}`.slice(0, 300), ms, rssMiB: rssKiB / 1024 });
      }
      resolve({ ms, rssMiB: rssKiB / 1024 });
    });
  });
}

const countHtml = (dir) => {
  try {
    return readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.html')).length;
  } catch {
    return 0;
  }
};
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const sec = (ms) => (ms / 1000).toFixed(2);
const fmtInt = (n) => n.toLocaleString('en-US');
const log = (s) => process.stderr.write(`${s}\n`);

// ---------------------------------------------------------------------- rebuilds (R-INC-3, issue 25)
/**
 * This project's incremental rebuilds of one output folder, after a cold build (not timed): the
 * same `site build` with nothing changed, after one post's body was edited, after a text every
 * page of the default language shows was edited, and after a price was edited (the pages that show
 * the rates), alternating, `runs` of each (medians): --runs when given, else at least 3.
 */
const rebuilds = [];
async function rebuildTimes(input, out, runs) {
  const project = generators.find((g) => g.id === 'project');
  const post = path.join(input.project, 'blog', slugOf(1), `${input.languages[0]}.md`);
  const table = path.join(input.project, 'i18n', `${input.languages[0]}.yaml`);
  const rates = path.join(input.project, 'data', 'rates.yaml');
  const cold = await build(project.command(input, out));
  if (cold.error) return { error: cold.error };
  const kinds = {
    none: () => {},
    post: (run) => writeFileSync(post, `${readFileSync(post, 'utf8')}\nOne more paragraph (${run}).\n`),
    text: (run) => writeFileSync(table, readFileSync(table, 'utf8').replace(/^( {2}madeWith: .*?)( \(\d+\))?$/m, `$1 (${run})`)),
    price: (run) => writeFileSync(rates, readFileSync(rates, 'utf8').replace(/price: \d+/, `price: ${1000 + run}`)),
  };
  // Each rebuild in a new process (SITE_RESIDENT=off), and sent to the resident build process
  // (docs/cli.md): started by one build before the runs (not timed), as an operator's earlier
  // build starts it; it leaves 15 s after the last.
  const modes = { new: { SITE_RESIDENT: 'off' }, resident: { SITE_RESIDENT: 'on', SITE_RESIDENT_IDLE_S: '15' } };
  const command = (mode) => {
    const spec = project.command(input, out);
    return { ...spec, env: { ...spec.env, ...modes[mode] } };
  };
  const started = await build(command('resident'));
  if (started.error) return { error: started.error };
  const result = {};
  for (const mode of Object.keys(modes)) result[mode] = { none: [], post: [], text: [], price: [] };
  const did = structuredClone(result);
  for (let run = 0; run < runs; run++) {
    for (const [m, mode] of Object.keys(modes).entries()) {
      // After the other mode's round, one untimed build: an operator's builds are all sent to the
      // resident process, which then reads back the record it wrote (not one another process wrote).
      if (mode === 'resident') await build(command(mode));
      for (const [kind, edit] of Object.entries(kinds)) {
        edit(run * 2 + m);
        const before = liveBuildOf(out);
        const r = await build(command(mode));
        if (r.error) return { error: `${kind} (${mode}): ${r.error}` };
        result[mode][kind].push(r.ms);
        did[mode][kind].push(rebuildDid(out, before));
        log(`  rebuild ${kind.padEnd(5)} ${mode.padEnd(8)} ${sec(r.ms).padStart(7)} s  ${did[mode][kind].at(-1).rendered} pages rendered, ${did[mode][kind].at(-1).spliced} spliced`);
      }
    }
  }
  const summary = (mode) => Object.fromEntries(Object.entries(result[mode]).map(([k, v]) => [k, { medianMs: median(v), timesMs: v, rendered: did[mode][k].map((d) => d.rendered), spliced: did[mode][k].map((d) => d.spliced), pages: did[mode][k].at(-1).pages }]));
  return { ...summary('new'), resident: summary('resident') };
}

/** The id of the build live in output folder `out` (its folder in the builds folder beside it). */
const liveBuildOf = (out) => path.basename(path.dirname(realpathSync(out)));

/**
 * What a rebuild of `out` did, so the table says what it timed: nothing when the live build is the
 * one before it (nothing changed), else the pages it rendered of all and those it spliced (given a
 * changed layout piece without rendering), from the build's record in the build cache
 * (docs/architecture.md, incremental builds).
 */
function rebuildDid(out, liveBefore) {
  const record = path.join(root, 'node_modules/.cache/site', `last-build-${createHash('sha256').update(out).digest('hex').slice(0, 12)}.json`);
  // The resident process writes the record just after its client exits (holding the folder's lock):
  // the one of the build now live is waited for (at most 5 s).
  const live = liveBuildOf(out);
  let read = JSON.parse(readFileSync(record, 'utf8'));
  for (const until = Date.now() + 5000; live !== liveBefore && read.build !== live && Date.now() < until; ) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    read = JSON.parse(readFileSync(record, 'utf8'));
  }
  const stats = read.stats;
  const pages = Object.values(stats.pages).flatMap((byLang) => Object.values(byLang)).reduce((a, b) => a + b, 0);
  if (liveBuildOf(out) === liveBefore) return { rendered: 0, spliced: 0, pages };
  return { rendered: stats.incremental?.rendered ?? pages, spliced: stats.incremental?.spliced ?? 0, pages };
}

// ---------------------------------------------------------------------------------------- the runs
const jobs = cases.flatMap((c) => targets.map((t) => ({ ...c, target: t })));
const results = [];
const notes = [];
// Time budget. A round (every generator once, plus counting and deleting its output) is estimated
// per generator from its medians on the same target (or the other target's, scaled, when that
// one has run a larger size), extrapolated in posts x languages with the growth exponent of its two largest sizes, never
// below the generator's own `growth` for each stretch of pages (measured on a quiet machine:
// Eleventy's time per page grows with the pages), or taken from a round already measured at that
// size on the other target.
const medians = {}; // target -> generator -> [{ pages, s }]
const overheadPerPage = {}; // target -> seconds per page of a round outside the builds
const roundAt = {}; // pages -> longest measured round (s) on any target
const genCostPerPage = {};
const extrapolate = (points, pages, growth) => {
  const pts = [...points].sort((a, b) => a.pages - b.pages);
  const last = pts.at(-1);
  const prev = [...pts].reverse().find((x) => x.pages < last.pages);
  const measured = prev ? Math.log(last.s / prev.s) / Math.log(last.pages / prev.pages) : 1;
  let s = last.s;
  let from = last.pages;
  for (const [upTo, prior] of growth) {
    if (from >= pages) break;
    if (upTo <= from) continue;
    const to = Math.min(upTo, pages);
    s *= (to / from) ** Math.min(2, Math.max(prior, measured));
    from = to;
  }
  return s;
};
const buildEstimate = (job, g) => {
  const pages = job.posts * job.langs;
  const pointsOn = (t) => medians[t]?.[g.id] ?? [];
  const largest = (pts) => Math.max(0, ...pts.map((x) => x.pages));
  let pts = pointsOn(job.target.id);
  let scale = 1;
  for (const other of Object.keys(medians).filter((t) => t !== job.target.id)) {
    const theirs = pointsOn(other);
    if (largest(theirs) <= largest(pts)) continue;
    // The other target has run a larger size: start from there, scaled by how the two targets
    // compared at the largest size both have run.
    const common = [...pts].sort((x, y) => y.pages - x.pages).find((x) => theirs.some((y) => y.pages === x.pages));
    scale = common ? common.s / theirs.findLast((y) => y.pages === common.pages).s : 1;
    pts = theirs;
  }
  return pts.length ? scale * extrapolate(pts, pages, g.growth) : 0.002 * pages;
};
const roundEstimate = (job, skip = new Set()) => {
  const pages = job.posts * job.langs;
  const t = job.target.id;
  let s = 0;
  for (const g of generators) if (!skip.has(g.id)) s += buildEstimate(job, g);
  s += (overheadPerPage[t] ?? Object.values(overheadPerPage)[0] ?? 0.0003) * pages;
  return Math.max(s * 1.15, skip.size ? 0 : (roundAt[pages] ?? 0) * 1.15);
};
const estimate = (job, runs, skip) => {
  const pages = job.posts * job.langs;
  const gen = (genCostPerPage[job.target.id] ?? Object.values(genCostPerPage)[0] ?? 0.0005) * pages;
  return gen + roundEstimate(job, skip) * runs;
};
const largestPages = Math.max(...jobs.map((k) => k.posts * k.langs));
const isLargest = (job) => job.posts * job.langs === largestPages && jobs.length > 1;
const secondsLeft = () => budgetMs / 1000 - (Date.now() - startedAt) / 1000;
/** Estimated seconds of a plan (planFrom). */
const planCost = (plan) => plan.reduce((s, p) => s + estimate(p.job, p.runs, p.skip), 0);

/**
 * The runs of the cases from `j` on that fit in the time left. On a fast machine every case runs
 * in full; on a slower one the matrix gives way in this order, stopping as soon as the estimate
 * fits: the largest size runs one time fewer, down to once; the smaller sizes run 4 times; the largest
 * size skips its slowest peer on the disk; the smaller sizes run 3 times (a median still); the
 * largest size skips its slowest peer on tmpfs too; the smaller sizes run twice, then once.
 * Within a step the costliest case gives way first; runs that fit again afterwards are given
 * back, cheapest case first. `minimal` applies every step (what must at least follow).
 */
function planFrom(j, { minimal = false } = {}) {
  const rest = jobs.slice(j).map((job) => ({ job, runs: job.runs, skip: new Set() }));
  const total = () => planCost(rest);
  const large = rest.filter((p) => isLargest(p.job));
  const small = rest.filter((p) => !isLargest(p.job));
  const slowestPeer = (p) =>
    generators.filter((g) => g.id !== 'project' && !p.skip.has(g.id)).sort((a, b) => buildEstimate(p.job, b) - buildEstimate(p.job, a))[0];
  // Each step makes one cut and says whether it could; a step is repeated until the plan fits.
  const lowerLargest = () => {
    const p = large.filter((x) => x.runs > 1).sort((x, y) => y.runs - x.runs)[0];
    return p ? (p.runs--, true) : false;
  };
  // The case whose round costs most gives up a run first (4,000 x 4 before 4,000 x 1).
  const trimSmall = (floor) => () => {
    const p = small.filter((x) => x.runs > floor).sort((x, y) => roundEstimate(y.job, y.skip) - roundEstimate(x.job, x.skip))[0];
    return p ? (p.runs--, true) : false;
  };
  const skipSlowest = (t) => () => {
    const cut = large.filter((p) => p.job.target.id === t && p.skip.size === 0);
    for (const p of cut) {
      const g = slowestPeer(p);
      if (g) p.skip.add(g.id);
    }
    return cut.length > 0;
  };
  const steps = [lowerLargest, trimSmall(4), skipSlowest('disk'), trimSmall(3), skipSlowest('tmpfs'), trimSmall(2), trimSmall(1)];
  const left = secondsLeft();
  for (const step of steps) while ((minimal || total() > left) && step());
  if (!minimal) {
    // A cut may save more than needed (a skipped peer): give runs back where they still fit, the
    // cheapest case first (4,000 x 1, which the targets use, before 4,000 x 4).
    const byCost = [...small].sort((x, y) => roundEstimate(x.job, x.skip) - roundEstimate(y.job, y.skip));
    for (const p of [...byCost, ...large]) {
      while (p.runs < p.job.runs) {
        p.runs++;
        if (total() > left) {
          p.runs--;
          break;
        }
      }
    }
  }
  return rest;
}

// warm-up (not timed): fills the project's esbuild cache of src/ and the OS caches of node_modules,
// at 20 posts x 4 languages, or the smallest case's size when smaller (a run of a few posts)
{
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-scale-warm-'));
  madeDirs.add(dir);
  const input = generate(path.join(dir, 'in'), { posts: Math.min(20, ...cases.map((c) => c.posts)), langs: Math.min(4, ...cases.map((c) => c.langs)) });
  for (const g of generators) {
    const r = await build(g.command(input, path.join(dir, `out-${g.id}`)));
    if (r.error) log(`warm-up: ${g.name} failed: ${r.error}`);
  }
  rmSync(dir, { recursive: true, force: true });
}

for (const [j, job] of jobs.entries()) {
  const label = `${fmtInt(job.posts)} posts x ${job.langs} lang${job.langs > 1 ? 's' : ''} on ${job.target.id}`;
  let runs = job.runs;
  let skip = new Set();
  // Estimates from sizes far below the largest mostly measure start-up: plan from 1/16 of it up.
  const measuredPages = Math.max(0, ...Object.values(medians).flatMap((m) => Object.values(m).flatMap((pts) => pts.map((x) => x.pages))));
  const planned = measuredPages * 16 >= largestPages;
  if (planned) {
    const left = secondsLeft();
    const plan = planFrom(j);
    ({ runs, skip } = plan[0]);
    const why = `to stay within the ${budgetMs / 60_000}-minute budget (${Math.round(left)} s left, estimated ${Math.round(planCost(plan))} s for this and the remaining cases as planned)`;
    if (runs < job.runs) {
      const note = `${label}: ${runs} run${runs > 1 ? 's' : ''} instead of ${job.runs} ${why}`;
      notes.push(note);
      log(`note: ${note}`);
    }
    if (skip.size) {
      const note = `${label}: ${generators.filter((g) => skip.has(g.id)).map((g) => g.name).join(', ')} skipped ${why}`;
      notes.push(note);
      log(`note: ${note}`);
    }
  }
  const dir = mkdtempSync(path.join(job.target.base, 'bench-scale-'));
  madeDirs.add(dir);
  try {
    const genStart = Date.now();
    const input = generate(path.join(dir, 'in'), job);
    if (job.target.id === 'disk') spawnSync('sync');
    const genSeconds = (Date.now() - genStart) / 1000;
    log(`${label}: inputs generated in ${genSeconds.toFixed(1)} s (not timed); ${runs} run${runs > 1 ? 's' : ''}; load average ${os.loadavg()[0].toFixed(2)}`);
    const per = Object.fromEntries(generators.map((g) => [g.id, { times: [], rss: [], pages: undefined, error: undefined, sources: [] }]));
    const roundStart = Date.now();
    for (let run = 0; run < runs; run++) {
      // the rounds so far show the real cost: stop early rather than overrun the budget (not on
      // start-up-only estimates, except at the largest size, which has nothing left to learn from)
      if (run > 0 && (planned || isLargest(job))) {
        const round = (Date.now() - roundStart) / 1000 / run;
        const later = planCost(planFrom(j + 1, { minimal: true }));
        if (round + later > secondsLeft()) {
          const note = `${label}: ${run} run${run > 1 ? 's' : ''} instead of ${job.runs} to stay within the ${budgetMs / 60_000}-minute budget (a round takes ${Math.round(round)} s, ${Math.round(secondsLeft())} s left, ${Math.round(later)} s estimated for what follows)`;
          notes.push(note);
          log(`note: ${note}`);
          runs = run;
          break;
        }
      }
      for (const g of generators) {
        const p = per[g.id];
        if (p.error || skip.has(g.id)) continue; // a failed build is not retried in the same case
        const out = path.join(dir, 'out', `${g.id}-${run + 1}`);
        if (g.id === 'project') p.sources.push(sourceVersion());
        // a run may not take the rest of the budget: at least 2 minutes, at most --timeout
        const limit = Math.min(timeoutMs, Math.max(120_000, budgetMs - (Date.now() - startedAt)));
        const r = await build(g.command(input, out), limit);
        if (r.error) {
          p.error = r.error;
          log(`  run ${run + 1} ${g.name.padEnd(16)} FAILED after ${sec(r.ms ?? 0)} s: ${r.error}`);
        } else {
          p.times.push(r.ms);
          p.rss.push(r.rssMiB);
          p.pages ??= countHtml(out); // the same every run: counted once
          log(`  run ${run + 1} ${g.name.padEnd(16)} ${sec(r.ms).padStart(7)} s ${r.rssMiB.toFixed(0).padStart(5)} MiB ${fmtInt(p.pages)} pages`);
        }
        rmSync(out, { recursive: true, force: true });
        if (job.target.id === 'disk') spawnSync('sync'); // the next build does not pay for this one's writeback
      }
    }
    if (!per.project.error && !skip.has('project')) rebuilds.push({ target: job.target.id, posts: job.posts, langs: job.langs, ...(await rebuildTimes(input, path.join(dir, 'out', 'project-inc'), runsOpt ? runs : Math.max(3, runs))) });
    const pages = job.posts * job.langs;
    const secondsPerRound = (Date.now() - roundStart) / 1000 / runs;
    roundAt[pages] = Math.max(roundAt[pages] ?? 0, secondsPerRound);
    let buildSeconds = 0;
    for (const g of generators) {
      const p = per[g.id];
      buildSeconds += p.times.reduce((a, b) => a + b, 0) / 1000 / runs;
      if (p.times.length) ((medians[job.target.id] ??= {})[g.id] ??= []).push({ pages, s: median(p.times) / 1000 });
    }
    overheadPerPage[job.target.id] = Math.max(overheadPerPage[job.target.id] ?? 0, Math.max(0, secondsPerRound - buildSeconds) / pages);
    genCostPerPage[job.target.id] = Math.max(genCostPerPage[job.target.id] ?? 0, genSeconds / pages);
    for (const g of generators) {
      const p = per[g.id];
      results.push({
        target: job.target.id,
        posts: job.posts,
        langs: job.langs,
        generator: g.id,
        name: g.name,
        runs: p.times.length,
        pages: p.pages,
        medianMs: p.times.length ? median(p.times) : undefined,
        minMs: p.times.length ? Math.min(...p.times) : undefined,
        maxMs: p.times.length ? Math.max(...p.times) : undefined,
        peakRssMiB: p.rss.length ? Math.max(...p.rss) : undefined,
        timesMs: p.times,
        error: skip.has(g.id) ? 'skipped to stay within the time budget' : p.error,
        skipped: skip.has(g.id) || undefined,
        sources: g.id === 'project' ? [...new Set(p.sources)] : undefined,
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------- report
const find = (t, posts, langs, gen) => results.find((r) => r.target === t && r.posts === posts && r.langs === langs && r.generator === gen);
const ratio = (t, posts, langs, peer) => {
  const a = find(t, posts, langs, 'project');
  const b = find(t, posts, langs, peer);
  return a?.medianMs && b?.medianMs ? a.medianMs / b.medianMs : undefined;
};
const allSources = [...new Set(results.flatMap((r) => r.sources ?? []))];
if (allSources.length > 1) {
  notes.push(`this project's sources changed during the benchmark (${allSources.join(', ')}): its rows are marked with the sources they ran; rows of different sources are different builds`);
  for (const r of results) if (r.sources) r.name = `this project [${r.sources.join(', ')}]`;
}
console.log('');
for (const t of targets) {
  console.log(`### ${t.id === 'tmpfs' ? 'tmpfs' : 'real disk'} (${t.base})\n`);
  console.log('| posts x languages | generator | pages (.html) | runs | median wall (s) | min-max (s) | peak RSS (MiB) | this project / peer |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of results.filter((x) => x.target === t.id)) {
    const size = `${fmtInt(r.posts)} x ${r.langs}`;
    const q = r.generator === 'project' ? '' : ratio(t.id, r.posts, r.langs, r.generator);
    const qs = r.generator === 'project' ? '-' : q === undefined ? 'n/a' : q.toFixed(2);
    if (r.medianMs === undefined) {
      console.log(`| ${size} | ${r.name} | ${r.pages ?? '-'} | 0 | ${r.skipped ? '' : 'failed: '}${r.error?.replace(/\|/g, '\\|')} | - | - | ${qs} |`);
    } else {
      const failedLater = r.error ? ` (then failed: ${r.error.replace(/\|/g, '\\|')})` : '';
      console.log(`| ${size} | ${r.name} | ${fmtInt(r.pages)} | ${r.runs} | ${sec(r.medianMs)}${failedLater} | ${sec(r.minMs)}-${sec(r.maxMs)} | ${r.peakRssMiB.toFixed(0)} | ${qs} |`);
    }
  }
  console.log('');
}

// the targets of issues 7 (full builds) and 25 (rebuilds), where the runs include them
const checks = [];
const verdict = (ok) => (ok === undefined ? 'not measured' : ok ? 'met' : 'NOT met');

// R-INC-3: this project's rebuilds beside the peers' full builds of the same posts
if (rebuilds.length) {
  console.log('### Rebuilds of one output folder (this project), against full builds of the same posts\n');
  console.log('| target | posts x languages | rebuild | process | pages rendered | runs | median wall (s) | / Hugo full build | / Eleventy full build | target (/ Hugo) |');
  console.log('| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |');
  // A price has no target of its own (issue 25 names the other three): measured beside them.
  const goal = { none: ['nothing changed', 0.2], post: ['one post edited', 0.3], text: ['a text on every page edited', 1.0], price: ['a price edited', undefined] };
  for (const r of rebuilds) {
    const peer = (g) => find(r.target, r.posts, r.langs, g)?.medianMs;
    for (const [kind, [label, max]] of Object.entries(goal)) {
      for (const [mode, runsOf] of [['new', r], ['resident', r.resident]]) {
        const m = runsOf?.[kind]?.medianMs;
        const vs = (g) => (m && peer(g) ? (m / peer(g)).toFixed(2) : 'n/a');
        const spliced = runsOf?.[kind] ? [...new Set(runsOf[kind].spliced.map(fmtInt))].join(', ') : '0';
        const rendered = runsOf?.[kind] ? `${[...new Set(runsOf[kind].rendered.map(fmtInt))].join(', ')} of ${fmtInt(runsOf[kind].pages)}${spliced === '0' ? '' : ` (${spliced} spliced)`}` : '-';
        console.log(`| ${r.target} | ${fmtInt(r.posts)} x ${r.langs} | ${label} | ${mode} | ${rendered} | ${runsOf?.[kind]?.timesMs.length ?? 0} | ${m ? sec(m) : `failed: ${r.error}`} | ${vs('hugo')} | ${vs('eleventy')} | ${max === undefined ? '-' : `<= ${max}`} |`);
        if (max !== undefined && m && peer('hugo') && ((r.posts === 4000 && r.langs === 1) || (r.posts === 1000 && r.langs === 4)))
          checks.push(`${r.target}: ${fmtInt(r.posts)} x ${r.langs}, ${label} (${mode} process) / Hugo's full build ${(m / peer('hugo')).toFixed(2)} (target <= ${max}): ${verdict(m / peer('hugo') <= max)}`);
      }
    }
  }
  console.log('');
}
for (const t of targets) {
  const rh = ratio(t.id, 4000, 1, 'hugo');
  const re = ratio(t.id, 4000, 1, 'eleventy');
  if (find(t.id, 4000, 1, 'project')) {
    checks.push(`${t.id}: 4,000 x 1, this project / Hugo ${rh?.toFixed(2) ?? 'n/a'} (target <= 1.0): ${verdict(rh === undefined ? undefined : rh <= 1)}`);
    checks.push(`${t.id}: 4,000 x 1, this project / Eleventy ${re?.toFixed(2) ?? 'n/a'} (target <= 0.5): ${verdict(re === undefined ? undefined : re <= 0.5)}`);
  }
  const big = find(t.id, 16000, 4, 'project');
  if (big) {
    const r16 = ratio(t.id, 16000, 4, 'hugo');
    const failed = big.error ? ` (this project's build failed: ${big.error})` : '';
    checks.push(`${t.id}: 16,000 x 4, this project / Hugo ${r16?.toFixed(2) ?? 'n/a'} (target <= 1.2): ${big.error ? 'NOT met' : verdict(r16 === undefined ? undefined : r16 <= 1.2)}${failed}`);
    const rss = big.peakRssMiB;
    checks.push(`${t.id}: 16,000 x 4, this project's peak RSS ${rss === undefined || big.error ? 'n/a' : `${rss.toFixed(0)} MiB`} (target < 1024 MiB): ${big.error ? 'NOT met' : verdict(rss === undefined ? undefined : rss < 1024)}${failed}`);
  }
  for (const langs of [1, 4]) {
    const a = find(t.id, 1000, langs, 'project');
    const b = find(t.id, 4000, langs, 'project');
    if (a && b) {
      const k = a.medianMs && b.medianMs ? b.medianMs / a.medianMs : undefined;
      const mixed = a.sources && b.sources && a.sources.join() !== b.sources.join() ? ' (different sources: not comparable)' : '';
      checks.push(`${t.id}: this project 4,000 x ${langs} / 1,000 x ${langs} = ${k?.toFixed(2) ?? 'n/a'} (target <= 4.5): ${verdict(k === undefined ? undefined : k <= 4.5)}${mixed}`);
    }
  }
}
if (checks.length) console.log(`Targets (issues 7 and 25):\n${checks.map((c) => `- ${c}`).join('\n')}\n`);
// Every case's inputs are new, so its first run is this project's first build of them: later runs
// take the posts' parsed front matter and rendered HTML from its build cache, as an operator's
// every build after the first does (the runs above show each run's time).
notes.push("run 1 of each case is this project's first build of those posts (nothing of them in its build cache); later runs reuse the posts' front matter and HTML it kept (node_modules/.cache/site), as an operator's builds after the first do, and Hugo's runs its --cacheDir");
if (notes.length) console.log(`Notes:\n${notes.map((n) => `- ${n}`).join('\n')}\n`);
const totalMin = (Date.now() - startedAt) / 60_000;
if (totalMin > budgetMs / 60_000)
  console.log(`Over budget: the benchmark took ${totalMin.toFixed(1)} min, more than ${budgetMs / 60_000} min, although the runs were cut as far as the plan allows (see the notes).\n`);
console.log(`Total time ${((Date.now() - startedAt) / 60_000).toFixed(1)} min; load average at the end ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}.`);
if (jsonFile) writeFileSync(path.resolve(jsonFile), `${JSON.stringify({ machine, results, rebuilds, checks, notes }, null, 2)}\n`);
