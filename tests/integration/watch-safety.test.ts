/**
 * `site watch` under stress (issue 14, part 5): started on broken content, its folders removed and
 * moved back, a template stuck in an endless loop, SIGTERM while a render is stuck.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EPOCH, ROOT, SHIPPED_CONTENT, tmpDir } from '../helpers/site.ts';

/** A watch process on a project of its own, with its output and reload events collected. */
interface Session {
  dir: string;
  child: ChildProcess;
  stdout: string;
  events: string;
  base?: string;
}
const sessions: Session[] = [];

async function until(check: () => boolean, what: string, s: Session, ms = 30_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}\n--- stdout ---\n${s.stdout}\n--- events ---\n${s.events}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Copy the project, let `prepare` change it, start `site watch` (the server is up before the first build ends). */
function startWatch(prepare: (dir: string) => void, env: Record<string, string> = {}): Session {
  const dir = tmpDir('site-watch-safety-');
  for (const d of ['templates', 'client']) cpSync(path.join(ROOT, d), path.join(dir, d), { recursive: true });
  cpSync(SHIPPED_CONTENT, path.join(dir, 'content'), { recursive: true });
  symlinkSync(path.join(ROOT, 'src'), path.join(dir, 'src'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  mkdirSync(path.join(dir, 'dist'));
  prepare(dir);
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/site.js'), 'watch', '--port', '0', '--content', 'content', '--templates', 'templates', '--client', 'client'], {
    cwd: dir,
    env: { ...process.env, SOURCE_DATE_EPOCH: EPOCH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const s: Session = { dir, child, stdout: '', events: '' };
  child.stdout!.on('data', (c) => (s.stdout += c));
  child.stderr!.on('data', (c) => (s.stdout += c));
  sessions.push(s);
  return s;
}

/** Wait for the server line and subscribe to the reload channel. */
async function connect(s: Session): Promise<string> {
  await until(() => /Serving (http:\/\/127\.0\.0\.1:\d+)/.test(s.stdout), 'the server to start', s, 60_000);
  s.base = /Serving (http:\/\/127\.0\.0\.1:\d+)/.exec(s.stdout)![1]!;
  await new Promise<void>((resolve) => {
    http.get(`${s.base}/__site/events`, (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => (s.events += c));
      resolve();
    });
  });
  await until(() => s.events.includes(': connected'), 'the reload channel', s);
  return s.base;
}

const countOf = (text: string, needle: string) => text.split(needle).length - 1;

function change(s: Session, file: string, from: string | RegExp, to: string): void {
  const p = path.join(s.dir, file);
  const text = readFileSync(p, 'utf8');
  const next = text.replace(from, to);
  if (next === text) throw new Error(`${String(from)} not in ${file}`);
  writeFileSync(p, next);
}

const LOOP = 'while (Date.now() > 0) { /* a template stuck in a loop */ }\n  const { t, route, site } = ctx;';

afterAll(async () => {
  for (const s of sessions) {
    if (s.child.exitCode === null && s.child.signalCode === null) {
      s.child.kill('SIGKILL');
      await new Promise((r) => s.child.once('exit', r));
    }
    // A killed session leaves its dev folder in the build cache: removed here, as a stop would.
    const dev = /Pages are built into (.+)\/ \(never/.exec(s.stdout)?.[1];
    if (dev) for (const d of [path.resolve(s.dir, dev), `${path.resolve(s.dir, dev)}.host`]) rmSync(d, { recursive: true, force: true });
  }
});

describe('[R-SAFE-5][R-BUILD-7] watch survives broken starts, vanishing folders and runaway renders', () => {
  let s: Session;

  it('[R-SAFE-5] started on broken content it shows the errors (terminal and browser), never "the last good pages"', async () => {
    s = startWatch((dir) => writeFileSync(path.join(dir, 'content/data/health.yaml'), 'intervalMonths: 3\nlastUpdate: 2025-02-30\n'), { SITE_RENDER_LIMIT_MS: '2500' });
    const base = await connect(s);
    // The server is up before the first build ends: wait for its report, however slow the machine.
    await until(() => /✗ start: build failed/.test(s.stdout), 'the first build to fail', s, 60_000);
    expect(s.stdout).toMatch(/✗ start: build failed .*no pages to serve yet/);
    expect(s.stdout).not.toMatch(/still serving the last good pages/);
    expect(s.stdout).toMatch(/data\/health\.yaml:2:\d+: error \[schema\] lastUpdate/);
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(500);
    const html = await page.text();
    expect(html).toContain('data/health.yaml:2');
    expect(html).toContain('/__site/reload.js'); // it reloads by itself once fixed
    await until(() => s.events.includes('event: build-error'), 'the overlay event', s);
    change(s, 'content/data/health.yaml', '2025-02-30', '2025-02-28');
    await until(() => s.events.includes('event: reload'), 'the reload after the fix', s);
    expect((await fetch(`${base}/`)).status).toBe(200);
  });

  it('[R-SAFE-5] content/ removed and moved back: watching resumes and edits rebuild again', async () => {
    const content = path.join(s.dir, 'content');
    renameSync(content, `${content}.away`);
    await until(() => /content is gone/.test(s.stdout), 'the folder to be missed', s);
    renameSync(`${content}.away`, content);
    await until(() => /content is back/.test(s.stdout), 'the folder to come back', s);
    const after = () => s.stdout.slice(s.stdout.lastIndexOf('content is back'));
    await until(() => /→ \d+ page\(s\) rendered/.test(after()), 'the full rebuild after the move', s);
    change(s, 'content/data/health.yaml', 'intervalMonths: 3', 'intervalMonths: 4');
    await until(() => /content\/data\/health\.yaml → \d+ page/.test(after()), 'a rebuild after editing the moved-back folder', s);
    expect(s.child.exitCode).toBeNull();
  });

  it('[R-SAFE-5] templates/ moved away and back: it waits (no build against another model, no errors blamed on site.yaml), then rebuilds every page', async () => {
    const templates = path.join(s.dir, 'templates');
    const mark = s.stdout.length;
    renameSync(templates, `${templates}.away`);
    await until(() => /templates is gone/.test(s.stdout.slice(mark)), 'the folder to be missed', s);
    // Longer than the watcher's coalescing: a rebuild would have run and failed by now.
    await new Promise((r) => setTimeout(r, 600));
    renameSync(`${templates}.away`, templates);
    await until(() => /templates is back/.test(s.stdout.slice(mark)), 'the folder to come back', s);
    const after = () => s.stdout.slice(s.stdout.lastIndexOf('templates is back'));
    await until(() => /→ \d+ page\(s\) rendered/.test(after()), 'the full rebuild after the move', s);
    const meanwhile = s.stdout.slice(mark);
    expect(meanwhile).not.toMatch(/site\.yaml:\d+:\d+: error/);
    expect(meanwhile).not.toMatch(/build failed/);
    expect((await fetch(`${s.base}/`)).status).toBe(200);
  });

  it('[R-SAFE-5] a link into a loop put into the content folder is reported, and watching goes on', async () => {
    const images = path.join(s.dir, 'content', 'images');
    symlinkSync('loop-a.svg', path.join(images, 'loop-b.svg'));
    symlinkSync('loop-b.svg', path.join(images, 'loop-a.svg'));
    await until(() => /cannot watch/.test(s.stdout), 'the watcher to report the loop', s);
    const mark = s.stdout.length;
    change(s, 'content/data/health.yaml', /intervalMonths: \d+/, 'intervalMonths: 5');
    await until(() => /content\/data\/health\.yaml → \d+ page/.test(s.stdout.slice(mark)), 'a rebuild after the loop', s);
    expect(s.child.exitCode).toBeNull();
    rmSync(path.join(images, 'loop-a.svg'));
    rmSync(path.join(images, 'loop-b.svg'));
  });

  it('[R-SAFE-5] a render past the time limit is stopped with the route and template named; fixing the file rebuilds', async () => {
    const errors = countOf(s.events, 'event: build-error');
    change(s, 'templates/pages/NotFound.tsx', '  const { t, route, site } = ctx;', LOOP);
    await until(() => countOf(s.events, 'event: build-error') > errors, 'the runaway render to be stopped', s, 45_000);
    expect(s.stdout).toMatch(/rendering \/\S* \(template "not-found", pages\.yaml\[\d+\] \(\w[\w-]*\)\) ran past 2\.5 s and was stopped; the render thread was replaced/);
    const reloads = countOf(s.events, 'event: reload');
    change(s, 'templates/pages/NotFound.tsx', LOOP, '  const { t, route, site } = ctx;');
    await until(() => countOf(s.events, 'event: reload') > reloads, 'the rebuild after the fix', s, 45_000);
    const missing = await fetch(`${s.base}/no-such-page`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('<main id="main"');
    expect(s.child.exitCode).toBeNull();
  });
});

describe('[R-SAFE-5][R-BUILD-7] a rebuild that fails in a way it cannot report', () => {
  it('[R-SAFE-5] (a folder taken away in the middle of it, a defect) is shown, the render thread replaced, and the next save rebuilds every page', async () => {
    // SITE_TEST_FAIL=watch-rebuild: every rebuild of a thread that has built before throws a plain error.
    const w = startWatch(() => undefined, { SITE_TEST_FAIL: 'watch-rebuild' });
    await connect(w);
    await until(() => /\] start → \d+ page\(s\) rendered/.test(w.stdout), 'the first build', w, 60_000);
    const total = Number(/\] start → (\d+) page\(s\) rendered/.exec(w.stdout)![1]);
    const mark = w.stdout.length;
    change(w, 'content/data/health.yaml', /intervalMonths: \d+/, 'intervalMonths: 4');
    await until(() => /✗ health\.yaml: build failed .*\nunexpected: failure injected at watch-rebuild .*the render thread was replaced/.test(w.stdout.slice(mark)), 'the failure to be shown', w);
    // The browser's overlay event may come a moment after the terminal's line.
    await until(() => /event: build-error\ndata: unexpected: failure injected/.test(w.events), 'the overlay event', w);
    const next = w.stdout.length;
    change(w, 'content/data/health.yaml', /intervalMonths: \d+/, 'intervalMonths: 5');
    // The new thread's first build: every page.
    await until(() => new RegExp(`health\\.yaml → ${total} page\\(s\\) rendered`).test(w.stdout.slice(next)), 'the full rebuild in the new thread', w);
    expect(w.child.exitCode).toBeNull();
  });
});

describe('[R-SAFE-5] stopping', () => {
  it('[R-SAFE-5] a watch that cannot start its server (address not available) exits with the error instead of hanging', async () => {
    // 192.0.2.1 is TEST-NET-1: never an address of this machine. Before the fix the render thread
    // it had started kept the process alive after the error, deaf to SIGTERM.
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/site.js'), 'watch', '--host', '192.0.2.1', '--port', '0'], { cwd: ROOT, env: { ...process.env, SOURCE_DATE_EPOCH: EPOCH }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (c) => (out += c));
    child.stderr!.on('data', (c) => (out += c));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(-1);
      }, 30_000);
      child.once('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(code, out).toBe(1);
    expect(out).toMatch(/EADDRNOTAVAIL|address not available/);
  });

  it('[R-SAFE-5] SIGTERM stops watch (exit 0) even while a render is stuck in a loop', async () => {
    const s = startWatch(() => undefined, { SITE_RENDER_LIMIT_MS: '600000' });
    await connect(s);
    // The looping template leaves a mark as it enters the loop (templates may require node
    // modules), so the signal is sent while the render is stuck, not after a guessed delay.
    const entered = path.join(s.dir, 'loop-entered');
    change(s, 'templates/pages/NotFound.tsx', '  const { t, route, site } = ctx;', `require('node:fs').writeFileSync(${JSON.stringify(entered)}, '');\n  ${LOOP}`);
    await until(() => existsSync(entered), 'the rebuild to reach the looping template', s, 60_000);
    s.child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => {
      // Generous: a busy machine; the exit event ends the wait as soon as it comes.
      const timer = setTimeout(() => resolve(-1), 30_000);
      s.child.once('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(code, s.stdout).toBe(0);
    expect(s.stdout).toContain('Stopped.');
  });
});
