/**
 * Netlify on its own rule engine: `_redirects` parsed by @netlify/redirect-parser and matched by
 * netlify-redirector (the WebAssembly matcher `netlify dev` uses), `_headers` parsed by
 * @netlify/headers-parser, behind a small HTTP server that does what `netlify dev`'s proxy does
 * around them. Emulated here (the CDN itself does not run offline): static files win over
 * unforced rules, 3xx answers carry the request's query string, a 404 rule serves its page with
 * status 404, the values of every matching header rule are joined (as Netlify's CDN does, so two
 * rules giving one header would show), `_redirects`/`_headers` are not served, clean URLs
 * (`/rates` → `rates.html`, `/rates.html` and `/rates/` → 301 `/rates`, Netlify's "pretty URLs").
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync, promises as fs, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles, ROOT } from '../helpers/site.ts';
import { hostBuild, hostProbes, type HostBuild } from '../helpers/hosts.ts';

const require = createRequire(path.join(ROOT, 'package.json'));
const hasNetlify = existsSync(path.join(ROOT, 'node_modules', 'netlify-redirector')) && existsSync(path.join(ROOT, 'node_modules', '@netlify', 'redirect-parser'));
if (!hasNetlify) console.warn('netlify-redirector / @netlify/*-parser not installed (npm ci installs them): Netlify engine tests skipped.');

interface Match {
  to: string;
  status: number;
  force: boolean;
}
interface Matcher {
  match(req: { scheme: string; host: string; path: string; query: string; getHeader(n: string): string; getCookie(n: string): string }): Match | null;
}

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript', '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.txt': 'text/plain', '.xml': 'application/xml' };

let build: HostBuild;
let server: Server;
let base = '';
let parseErrors: unknown[] = [];
let ruleCount = 0;

async function startNetlify(root: string): Promise<void> {
  const { parseAllRedirects } = (await import('@netlify/redirect-parser')) as { parseAllRedirects: (o: object) => Promise<{ redirects: Record<string, unknown>[]; errors: unknown[] }> };
  const { parseAllHeaders } = (await import('@netlify/headers-parser')) as { parseAllHeaders: (o: object) => Promise<{ headers: { forRegExp: RegExp; values: Record<string, string> }[]; errors: unknown[] }> };
  const redirector = require('netlify-redirector') as { parseJSON(json: string, opts: object): Promise<Matcher> };
  const r = await parseAllRedirects({ redirectsFiles: [path.join(root, '_redirects')], configRedirects: [], minimal: true });
  const h = await parseAllHeaders({ headersFiles: [path.join(root, '_headers')], configHeaders: [], minimal: false });
  parseErrors = [...r.errors, ...h.errors];
  ruleCount = r.redirects.length;
  // The field names netlify-cli gives the matcher (its normalizeRedirect).
  const matcher = await redirector.parseJSON(JSON.stringify(r.redirects.map(({ from, query, ...rest }) => ({ ...rest, origin: from, path: from, params: query }))), {});
  const fileFor = (p: string) => {
    if (p.includes('..')) return undefined;
    for (const c of p === '/' ? ['index.html'] : [p.slice(1), `${p.slice(1)}.html`]) {
      const full = path.join(root, c);
      if (existsSync(full) && statSync(full).isFile() && !/(^|\/)_(redirects|headers)$/.test(c)) return full;
    }
    return undefined;
  };
  const headersFor = (p: string) => {
    const out: Record<string, string> = {};
    for (const rule of h.headers) if (rule.forRegExp.test(p)) for (const [k, v] of Object.entries(rule.values)) out[k] = out[k] ? `${out[k]}, ${v}` : v;
    return out;
  };
  server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const p = decodeURIComponent(url.pathname);
      const headers = headersFor(p);
      // Pretty URLs: one URL per page.
      const pretty = p.endsWith('.html') && p !== '/index.html' ? p.slice(0, -5) : p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : undefined;
      if (pretty && fileFor(pretty)) return res.writeHead(301, { ...headers, Location: `${pretty}${url.search}` }).end();
      const file = fileFor(p);
      const m = matcher.match({ scheme: 'http', host: 'localhost', path: p, query: url.search.slice(1), getHeader: () => '', getCookie: () => '' });
      if (m && (m.force || !file)) {
        if (m.status >= 300 && m.status < 400) {
          const dest = new URL(m.to, 'http://localhost');
          for (const [k, v] of url.searchParams) if (!dest.searchParams.has(k)) dest.searchParams.append(k, v);
          return res.writeHead(m.status, { ...headers, Location: `${dest.pathname}${dest.search}` }).end();
        }
        const page = fileFor(m.to);
        if (page) return res.writeHead(m.status, { ...headers, 'Content-Type': TYPES[path.extname(page)] ?? 'application/octet-stream' }).end(await fs.readFile(page));
      }
      if (!file) return res.writeHead(404, headers).end('Not Found');
      res.writeHead(200, { ...headers, 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(await fs.readFile(file));
    })().catch((err: unknown) => res.writeHead(500).end(String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const addr = server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
}

describe.skipIf(!hasNetlify)("Netlify's rule engine serving --host netlify", () => {
  beforeAll(async () => {
    build = await hostBuild('netlify');
    await startNetlify(build.out);
  }, 240_000);

  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("[R-HOST-1] Netlify's parsers accept every _redirects and _headers line", async () => {
    expect(parseErrors).toEqual([]);
    const lines = (await fs.readFile(path.join(build.out, '_redirects'), 'utf8')).split('\n').filter((l) => l.trim() && !l.startsWith('#'));
    expect(ruleCount).toBe(lines.length);
  });

  it("[R-OPS-11][R-HOST-1] netlify.toml is written beside the output, never into it: Netlify's own parsers read it, and its build command, publish folder and Node version rebuild this output", async () => {
    const file = path.join(build.hostDir, 'netlify.toml');
    expect(existsSync(file)).toBe(true);
    expect(listFiles(build.out)).not.toContain('netlify.toml');
    // Netlify reads [[headers]] and [[redirects]] from netlify.toml with these parsers (`netlify dev`):
    // the file parses, and adds no rule to those of _headers and _redirects.
    const { parseAllRedirects } = (await import('@netlify/redirect-parser')) as { parseAllRedirects: (o: object) => Promise<{ redirects: unknown[]; errors: unknown[] }> };
    const { parseAllHeaders } = (await import('@netlify/headers-parser')) as { parseAllHeaders: (o: object) => Promise<{ headers: unknown[]; errors: unknown[] }> };
    const r = await parseAllRedirects({ redirectsFiles: [path.join(build.out, '_redirects')], netlifyConfigPath: file, configRedirects: [], minimal: true });
    const h = await parseAllHeaders({ headersFiles: [path.join(build.out, '_headers')], netlifyConfigPath: file, configHeaders: [], minimal: false });
    expect([...r.errors, ...h.errors]).toEqual([]);
    expect(r.redirects.length).toBe(ruleCount);
    const plain = await parseAllHeaders({ headersFiles: [path.join(build.out, '_headers')], configHeaders: [], minimal: false });
    expect(h.headers.length).toBe(plain.headers.length);

    // Its build settings, read with the TOML parser those packages use (@iarna/toml). Netlify runs
    // the command in the repository's root, where the guide puts the file: the site's folder.
    const toml = createRequire(path.join(ROOT, 'node_modules', '@netlify', 'headers-parser', 'package.json'))('@iarna/toml') as { parse(s: string): unknown };
    const config = JSON.parse(JSON.stringify(toml.parse(readFileSync(file, 'utf8')))) as { build: { command: string; publish: string; environment: Record<string, string> } };
    const siteDir = path.dirname(build.content);
    expect(path.resolve(siteDir, config.build.publish)).toBe(build.out);
    const args = config.build.command.split(/\s+/);
    expect(args.slice(0, 3)).toEqual(['npx', 'site', 'build']);
    const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
    expect(option('--host')).toBe('netlify');
    expect(path.resolve(siteDir, option('--content') ?? 'content')).toBe(build.content);
    expect(path.resolve(siteDir, option('--out') ?? 'dist')).toBe(build.out);
    const help = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'site.js'), 'build', '--help'], { encoding: 'utf8' }).stdout;
    for (const flag of args.filter((a) => a.startsWith('--'))) expect(help, flag).toContain(`${flag} `);
    // A Node.js major that package.json's engines allow; the install leaves out the test tools.
    const engines = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(config.build.environment.NODE_VERSION).toMatch(/^\d+$/);
    expect(Number(config.build.environment.NODE_VERSION)).toBeGreaterThan(Number(/^>=\s*(\d+)/.exec(engines)![1]));
    expect(config.build.environment.NPM_FLAGS).toBe('--omit=dev');
  });

  hostProbes('netlify', () => base, () => build);
});
