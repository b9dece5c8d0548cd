/**
 * Vercel: no part of Vercel's edge runs offline, so `vercel.json` (a `routes` list) is validated
 * and normalised with @vercel/routing-utils (`getTransformedRoutes`, which runs `normalizeRoutes`:
 * the checks Vercel applies to `routes`) and the normalised list is applied by a small server here.
 * Emulated, in route order, matching `src` case-insensitively against the decoded path as Vercel
 * does: a `continue: true` route adds its headers (a later value replacing an earlier one, `$1`
 * substituted); a route with a 3xx `status` and a `Location` header answers the redirect, the
 * request's query string appended as Vercel does; `handle: filesystem` serves the path's file if
 * it exists (exact name, `index.html` for a path ending in `/`); after it, a `dest` route with
 * `check: true` serves `dest` if that file exists and otherwise goes on, and a `dest` route with a
 * `status` serves `dest` with that status. Nothing matched: Vercel's plain 404. Any other route
 * shape is refused (500), so the writer cannot rely on something not emulated. `vercel.json` is
 * assumed not served (Vercel reads it as configuration).
 */
import { createServer, type Server } from 'node:http';
import { existsSync, promises as fs, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/site.ts';
import { hostBuild, hostProbes, type HostBuild } from '../helpers/hosts.ts';

const require = createRequire(path.join(ROOT, 'package.json'));
const hasUtils = existsSync(path.join(ROOT, 'node_modules', '@vercel', 'routing-utils'));
if (!hasUtils) console.warn('@vercel/routing-utils not installed (npm ci installs it): Vercel tests skipped.');

interface Route {
  src?: string;
  dest?: string;
  headers?: Record<string, string>;
  status?: number;
  continue?: boolean;
  check?: boolean;
  handle?: string;
}
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript', '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.txt': 'text/plain', '.xml': 'application/xml' };

let build: HostBuild;
let server: Server;
let base = '';
let routes: Route[] = [];
let error: unknown;

describe.skipIf(!hasUtils)('Vercel (vercel.json through @vercel/routing-utils, emulated edge) serving --host vercel', () => {
  beforeAll(async () => {
    build = await hostBuild('vercel');
    const root = build.out;
    const utils = require('@vercel/routing-utils') as { getTransformedRoutes(c: object): { routes: Route[] | null; error: unknown } };
    const config = JSON.parse(readFileSync(path.join(root, 'vercel.json'), 'utf8')) as object;
    const t = utils.getTransformedRoutes(config);
    error = t.error;
    routes = t.routes ?? [];
    /** Vercel's filesystem: a file by its own name (`index.html` for a path ending in `/`). */
    const fileFor = (p: string) => {
      if (p.includes('..') || p === '/vercel.json') return undefined;
      const full = path.join(root, p.endsWith('/') ? `${p}index.html` : p);
      return existsSync(full) && statSync(full).isFile() ? full : undefined;
    };
    server = createServer((req, res) => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://localhost');
        const p = decodeURIComponent(url.pathname);
        const headers: Record<string, string> = {};
        const serve = async (file: string | undefined, status: number) => {
          delete headers.Location;
          if (!file) return res.writeHead(404, headers).end('The page could not be found\n\nNOT_FOUND\n');
          res.writeHead(status, { ...headers, 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(await fs.readFile(file));
        };
        let afterFilesystem = false;
        for (const r of routes) {
          if (r.handle) {
            if (r.handle !== 'filesystem' || afterFilesystem) throw new Error(`not emulated: ${JSON.stringify(r)}`);
            afterFilesystem = true;
            const file = fileFor(p);
            if (file) return serve(file, 200);
            continue;
          }
          const m = new RegExp(r.src!, 'i').exec(p);
          if (!m) continue;
          const subst = (v: string) => v.replace(/\$(\d+)/g, (_, i: string) => m[Number(i)] ?? '');
          for (const [k, v] of Object.entries(r.headers ?? {})) headers[k] = subst(v);
          if (r.continue && !r.dest && !r.status) continue;
          if (r.status && r.status >= 300 && r.status < 400 && headers.Location && !r.dest && !r.continue) {
            return res.writeHead(r.status, { ...headers, Location: `${headers.Location}${url.search}` }).end();
          }
          if (afterFilesystem && r.dest && r.check && !r.status && !r.continue) {
            const file = fileFor(subst(r.dest));
            if (file) return serve(file, 200);
            continue;
          }
          if (afterFilesystem && r.dest && r.status && !r.check && !r.continue) return serve(fileFor(subst(r.dest)), r.status);
          throw new Error(`not emulated: ${JSON.stringify(r)}`);
        }
        return serve(undefined, 404);
      })().catch((err: unknown) => res.writeHead(500).end(String(err)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const addr = server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  }, 240_000);

  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('[R-HOST-1][R-HOST-2] vercel.json is a `routes` list that @vercel/routing-utils accepts: the headers, every 301, filesystem, per-language 404s', () => {
    expect(error).toBeNull();
    const config = JSON.parse(readFileSync(path.join(build.out, 'vercel.json'), 'utf8')) as { routes: Route[] };
    // Vercel refuses `routes` next to cleanUrls, trailingSlash, redirects, headers or rewrites.
    expect(Object.keys(config)).toEqual(['routes']);
    const utils = require('@vercel/routing-utils') as { normalizeRoutes(r: Route[]): { error: unknown } };
    expect(utils.normalizeRoutes(structuredClone(config.routes)).error).toBeNull();
    const fs = routes.findIndex((r) => r.handle === 'filesystem');
    expect(fs).toBeGreaterThan(0);
    // Every 301 of the content, plus the three one-URL-per-page ones, before the filesystem.
    expect(routes.filter((r, i) => r.status === 301 && r.headers?.Location && i < fs).length).toBe(build.redirects.length + 3);
    expect(routes.filter((r) => r.continue && r.headers?.['Cache-Control']).length).toBeGreaterThanOrEqual(2);
    // One status-404 route per language after the filesystem, the catch-all last.
    const notFound = routes.filter((r, i) => r.status === 404 && r.dest && i > fs);
    expect(notFound.length).toBe(build.languages.length);
    expect(routes.at(-1)).toBe(notFound.at(-1));
  });

  hostProbes('vercel', () => base, () => build);
});
