/** `site watch` on a temporary copy of the site: incremental rebuilds, live reload, errors, server safety. */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EPOCH, ROOT, SHIPPED_CONTENT, tmpDir } from '../helpers/site.ts';

let dir: string;
let child: ChildProcess;
let base: string;
let stdout = '';
let events = '';
let sse: http.ClientRequest;

/** The folder watch builds into (it prints it; never the project's dist/). */
let devDir: string;
const out = (f: string) => readFileSync(path.join(devDir, f), 'utf8');
const mtime = (f: string) => statSync(path.join(devDir, f)).mtimeMs;

/**
 * Wait until `check` holds (polling), or fail after `ms`: a safety net for a stuck session, not a
 * speed check. (A whole-suite run once failed three tests of this file from the template edit on,
 * its messages not kept; the edit rebuilds every page, and 15 s under load is the likely cause.)
 */
async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}\n--- stdout ---\n${stdout}\n--- events ---\n${events}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Edit a file of the temporary project; wait for the rebuild that took it (its line names the file:
 * the pages are written before it is printed) and for an event named `event` since the edit.
 * Counting events alone took a second rebuild of the edit before (a save seen twice under load, a
 * CI run) for this edit's, and the next test read pages its rebuild had not written yet.
 */
async function editAndWait(file: string, change: (text: string) => string, event = 'reload'): Promise<void> {
  const seen = events.length;
  const mark = stdout.length;
  const p = path.join(dir, file);
  const text = readFileSync(p, 'utf8');
  const next = change(text);
  if (next === text) throw new Error(`edit of ${file} changed nothing`);
  writeFileSync(p, next);
  const line = new RegExp(`^\\[[\\d:]+\\] (✗ )?[^\\n]*${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\\n]*( → |: build failed)`, 'm');
  await until(() => line.test(stdout.slice(mark)), `the rebuild after editing ${file}`);
  await until(() => events.slice(seen).includes(`event: ${event}`), `${event} after editing ${file}`);
}

/** A raw request (no URL normalisation on the way). */
function rawGet(pathAndQuery: string): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: pathAndQuery, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  // A project of its own: content, templates and client copied; src and node_modules linked.
  dir = tmpDir('site-watch-');
  for (const d of ['templates', 'client']) cpSync(path.join(ROOT, d), path.join(dir, d), { recursive: true });
  cpSync(SHIPPED_CONTENT, path.join(dir, 'content'), { recursive: true });
  symlinkSync(path.join(ROOT, 'src'), path.join(dir, 'src'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  mkdirSync(path.join(dir, 'dist'));
  // A module the templates import from outside templates/ (watched once the first build names it).
  mkdirSync(path.join(dir, 'shared'));
  writeFileSync(path.join(dir, 'shared', 'mark.ts'), "export const mark = 'first';\n");
  const notFound = path.join(dir, 'templates/pages/NotFound.tsx');
  writeFileSync(notFound, `import { mark } from '../../shared/mark.ts';\n${readFileSync(notFound, 'utf8').replace('<div className="container narrow">', '<div className="container narrow" data-mark={mark}>')}`);
  child = spawn(
    process.execPath,
    [path.join(ROOT, 'bin/site.js'), 'watch', '--port', '0', '--content', 'content', '--templates', 'templates', '--client', 'client'],
    { cwd: dir, env: { ...process.env, SOURCE_DATE_EPOCH: EPOCH }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stdout += c));
  // Both lines: under load they may come in separate chunks (a busy CI run read one without the other).
  await until(() => /Serving (http:\/\/127\.0\.0\.1:\d+)/.test(stdout) && /Pages are built into (.+)\/ \(never/.test(stdout), 'the server to start and name its folder', 90_000);
  base = /Serving (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)![1]!;
  devDir = path.resolve(dir, /Pages are built into (.+)\/ \(never/.exec(stdout)![1]!);
  await new Promise<void>((resolve) => {
    sse = http.get(`${base}/__site/events`, (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => (events += c));
      resolve();
    });
  });
  await until(() => events.includes(': connected'), 'the reload channel');
  // The server is up before the first build ends: the tests read its pages, so wait for its report.
  await until(() => /start → \d+ page\(s\) rendered/.test(stdout), 'the first build', 90_000);
});

afterAll(async () => {
  sse?.destroy();
  if (child && child.exitCode === null) {
    child.kill('SIGINT');
    await new Promise((r) => child.once('exit', r));
  }
});

describe('[R-BUILD-7] site watch', () => {
  it('[R-SAFE-5] watch builds into a dev folder of its own: nothing is written to dist/', async () => {
    expect(devDir).not.toBe(path.join(dir, 'dist'));
    expect(out('index.html')).toContain('</html>');
    expect(readdirSync(path.join(dir, 'dist'))).toEqual([]);
  });

  it('[R-OPS-11] shows the warnings themselves, not only their number: in the terminal, and to pages in a panel', async () => {
    // The shipped content has stale and sample values: the build warns (the expected codes come from the first build's own count).
    const count = Number(/start → .*?(\d+) warning\(s\)/.exec(stdout)?.[1] ?? 0);
    expect(count).toBeGreaterThan(0);
    const lines = stdout.split('\n').filter((l) => /^ {2}\S.*: (warning|note) \[/.test(l));
    expect(lines.filter((l) => l.includes(': warning ['))).toHaveLength(count);
    for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(320); // a line or two each
    // A page that connects gets them as an event for its panel.
    const late = await new Promise<string>((resolve) => {
      http.get(`${base}/__site/events`, (r) => {
        let text = '';
        r.on('data', (c: Buffer) => {
          text += c;
          if (text.includes('event: build-warnings')) (r.destroy(), resolve(text));
        });
      });
    });
    const list = JSON.parse(/event: build-warnings\ndata: (.*)/.exec(late)![1]!) as string[];
    expect(list.filter((l) => l.includes(': warning ['))).toHaveLength(count);
  });

  it('serves the site with the reload script injected (never in the built files)', async () => {
    const res = await fetch(`${base}/es/rates`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<script src="/__site/reload.js" defer></script>');
    expect(out('es/rates.html')).not.toContain('__site');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    // What watch writes is what build writes: the page on disk is the served one minus the script.
    expect(html.replace('<script src="/__site/reload.js" defer></script>', '')).toBe(out('es/rates.html'));
  });

  it('a post edit re-renders that post and the lists of its language, nothing else, and reloads', async () => {
    const otherLang = mtime('es/blog/monaco-grand-prix.html');
    const home = mtime('index.html');
    await editAndWait('content/blog/monaco-grand-prix/en.md', (t) => t.replace(/^title: .*$/m, 'title: "Grand Prix, edited live"'));
    expect(out('blog/monaco-grand-prix.html')).toContain('Grand Prix, edited live');
    expect(out('blog.html')).toContain('Grand Prix, edited live');
    expect(out('blog/category/events.html')).toContain('Grand Prix, edited live');
    expect(mtime('es/blog/monaco-grand-prix.html')).toBe(otherLang);
    expect(mtime('index.html')).toBe(home);
    expect(stdout).toMatch(/content\/blog\/monaco-grand-prix\/en\.md → \d+ page\(s\) rendered, \d+ file\(s\) changed, \d+ ms/);
  });

  it('a text-table edit re-renders that language', async () => {
    const en = mtime('index.html');
    await editAndWait('content/i18n/es.yaml', (t) => t.replace(/^ {2}tagline: .*$/m, '  tagline: Lema editado en directo'));
    expect(out('es.html')).toContain('Lema editado en directo');
    expect(out('es/rates.html')).toContain('Lema editado en directo');
    expect(mtime('index.html')).toBe(en);
  });

  it('a template edit reloads the templates and re-renders the pages', async () => {
    await editAndWait('templates/pages/NotFound.tsx', (t) => t.replace('<main id="main" tabIndex={-1}>', '<main id="main" tabIndex={-1} data-edited="yes">'));
    expect(out('404.html')).toContain('data-edited="yes"');
    expect(out('el/404.html')).toContain('data-edited="yes"');
  });

  it('an edit to a file the templates import from outside templates/ reloads the templates and re-renders the pages', async () => {
    expect(out('404.html')).toContain('data-mark="first"');
    await editAndWait('shared/mark.ts', (t) => t.replace("'first'", "'again'"));
    expect(out('404.html')).toContain('data-mark="again"');
    expect(out('el/404.html')).toContain('data-mark="again"');
  });

  it('a client edit rebundles the script and the pages point at the new file', async () => {
    const before = /\/assets\/main\.[0-9a-f]+\.js/.exec(out('index.html'))![0];
    await editAndWait('client/main.ts', (t) => t.replace("document.documentElement.classList.add('js');", "document.documentElement.classList.add('js', 'live-edit');"));
    const after = /\/assets\/main\.[0-9a-f]+\.js/.exec(out('index.html'))![0];
    expect(after).not.toBe(before);
    expect(readFileSync(path.join(devDir, after), 'utf8')).toContain('live-edit');
  });

  it('broken content is reported in the terminal and the browser; the last good pages stay; the fix clears it', async () => {
    const good = out('rates.html');
    // Break the first price of the content under test (its value and line come from the file).
    const rates = readFileSync(path.join(dir, 'content/data/rates.yaml'), 'utf8');
    const first = /price: \d+ ?\}/.exec(rates)!;
    const [fine, broken] = [first[0], first[0].replace('price: ', 'price: [')];
    const line = rates.slice(0, first.index).split('\n').length;
    await editAndWait('content/data/rates.yaml', (t) => t.replace(fine, broken), 'build-error');
    expect(stdout).toMatch(/✗ content\/data\/rates\.yaml: build failed/);
    expect(stdout).toMatch(new RegExp(`data/rates\\.yaml:${line}:\\d+: error \\[yaml\\]`));
    expect(events).toMatch(new RegExp(`event: build-error\\ndata: .*data/rates\\.yaml:${line}`));
    const res = await fetch(`${base}/rates`);
    expect(res.status).toBe(200);
    expect(out('rates.html')).toBe(good);
    // A page that connects now gets the error at once.
    const late = await new Promise<string>((resolve) => {
      http.get(`${base}/__site/events`, (r) => {
        let data = '';
        r.on('data', (c) => {
          data += c;
          if (data.includes('build-error')) {
            r.destroy();
            resolve(data);
          }
        });
      });
    });
    expect(late).toContain('data/rates.yaml');
    await editAndWait('content/data/rates.yaml', (t) => t.replace(broken, fine));
    expect(child.exitCode).toBeNull();
  });

  it('a template that fails to compile is reported with file and line, and the fix recovers', async () => {
    await editAndWait('templates/pages/Rates.tsx', (t) => t.replace('<main id="main" tabIndex={-1}>', '<main id="main" tabIndex={-1}'), 'build-error');
    expect(stdout).toMatch(/templates\/pages\/Rates\.tsx:\d+:\d+: error \[template\]/);
    await editAndWait('templates/pages/Rates.tsx', (t) => t.replace('<main id="main" tabIndex={-1}\n', '<main id="main" tabIndex={-1}>\n'));
  });
});

describe('[R-BUILD-8] the dev server', () => {
  it('refuses every path-traversal attempt', async () => {
    for (const p of ['/../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/%2E%2E%2Fetc%2Fpasswd', '/..%5c..%5cetc%5cpasswd', '/a\\..\\..\\etc\\passwd', '/index.html%00.txt', '/assets/%2e%2e/%2e%2e/package.json', '/_headers', '/_redirects']) {
      const res = await rawGet(p);
      expect([400, 404], p).toContain(res.status);
      expect(res.body).not.toMatch(/root:|"dependencies"|Content-Security-Policy:/);
    }
  });

  it('serves the right 404 page per language and applies the redirect rules', async () => {
    const es = await fetch(`${base}/es/no-existe`);
    expect(es.status).toBe(404);
    expect(await es.text()).toContain('<html lang="es"');
    const en = await fetch(`${base}/nope`);
    expect(en.status).toBe(404);
    expect(await en.text()).toContain('<html lang="en"');
    const moved = await fetch(`${base}/ru/athens-escort?utm_source=x`, { redirect: 'manual' });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/ru/athens-vip-companion?utm_source=x');
    const css = /\/assets\/noscript\.[0-9a-f]+\.css/.exec(out('index.html'))![0];
    expect((await fetch(`${base}${css}`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  // [R-BUILD-8] site serve, on the folder this session built (before it stops and removes it).
  it('[R-BUILD-8] site serve: serves a built folder with the host rules and stops on Ctrl-C', async () => {
    const serve = spawn(process.execPath, [path.join(ROOT, 'bin/site.js'), 'serve', '--out', devDir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    serve.stdout!.on('data', (c) => (text += c));
    const start = Date.now();
    while (!/at (http:\/\/127\.0\.0\.1:\d+)/.test(text)) {
      if (Date.now() - start > 15_000) throw new Error(`site serve did not start: ${text}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(text)![1]!;
    const page = await fetch(`${url}/el/contact`);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('__site/reload.js');
    const moved = await fetch(`${url}/monaco-concierge`, { redirect: 'manual' });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/services/travel-companion');
    expect((await fetch(`${url}/__site/events`)).status).toBe(404);
    serve.kill('SIGINT');
    expect(await new Promise((r) => serve.once('exit', r))).toBe(0);
  });

  it('stops cleanly on Ctrl-C and removes its dev folder', async () => {
    expect(existsSync(devDir)).toBe(true);
    child.kill('SIGINT');
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).toBe(0);
    expect(stdout).toContain('Stopped.');
    expect(existsSync(devDir), 'the dev folder outlives its session').toBe(false);
    expect(existsSync(`${devDir}.host`)).toBe(false);
  });
});
