/**
 * Local servers for `site serve` and `site watch`: the production host's rules (clean URLs,
 * `_redirects` 301s and per-language 404s, `_headers`) over the static file server; in watch mode
 * also a reload channel (server-sent events) and its script, injected into HTML only here.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { findRedirect, headersFor, parseHeaders, parseRedirects, rulesFromHost, type HeaderBlock, type RedirectRule } from './rules.ts';
import { hostFolder } from '../output/host-folder.ts';
import { HOST, WEB } from '../output/publish.ts';
import type { HostRules } from '../output/hosts/rules.ts';
import { allowedHosts, cleanPath, encodedPath, queryOf, realRoot, refuseForeignHost, republished, resolveFile, safePath, serveFrom } from './static.ts';

export interface DevServerOptions {
  root: string;
  port: number;
  /** Address to bind (default 127.0.0.1); requests must name it or localhost in `Host`. */
  host?: string;
  /** Watch mode: the reload script's code; absent for `site serve`. */
  reloadScript?: string;
}

export interface DevServer {
  server: Server;
  url: string;
  /** Tell connected pages to reload. */
  reload(): void;
  /** Show an error overlay in connected pages (and in pages that connect later), or clear it. */
  setError(message: string | undefined): void;
  /** The last good build's warnings, shown in a small panel of connected pages (and later ones); empty clears it. */
  setWarnings(lines: readonly string[]): void;
  close(): Promise<void>;
}

const RELOAD_PATH = '/__site/reload.js';
const EVENTS_PATH = '/__site/events';

/**
 * The host folder that goes with the served folder `served` (symlinks resolved) of `root`: the
 * build's own `host/` when `root` links into a build folder (`dist` → `.dist.builds/<id>/web`), so
 * pages and rules come from one build however often a build publishes; else `<root>.host`.
 */
function hostFolderOf(root: string, served: string): string {
  const own = path.join(path.dirname(served), HOST);
  return path.basename(served) === WEB && path.dirname(path.dirname(served)).endsWith('.builds') && existsSync(own) ? own : hostFolder(root);
}

/**
 * The rules to apply: the host-neutral `rules.json` in the host folder the build writes for every
 * host target (so serve does 301s, per-language 404s and headers whatever `--host` was), else a
 * `_redirects` / `_headers` pair in the folder (an output built elsewhere).
 */
async function readRules(root: string, hostDir = hostFolder(root)): Promise<{ redirects: RedirectRule[]; headers: HeaderBlock[]; basePath: string }> {
  const neutral = await fs.readFile(path.join(hostDir, 'rules.json'), 'utf8').catch(() => undefined);
  if (neutral) {
    const rules = JSON.parse(neutral) as HostRules;
    return { ...rulesFromHost(rules), basePath: rules.basePath };
  }
  const read = (f: string) => fs.readFile(path.join(root, f), 'utf8').catch(() => '');
  const [r, h] = await Promise.all([read('_redirects'), read('_headers')]);
  return { redirects: parseRedirects(r), headers: parseHeaders(h), basePath: '' };
}

/** Listen on `port`, or the next free one (up to 20 further). */
function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let tries = 0;
    const attempt = (p: number) => {
      server.once('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'EADDRINUSE' && port !== 0 && tries++ < 20) attempt(p + 1);
        else reject(err);
      });
      server.listen(p, host, () => {
        const addr = server.address();
        resolve(typeof addr === 'object' && addr ? addr.port : p);
      });
    };
    attempt(port);
  });
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page served while no build has succeeded: the errors, and the reload script. */
function errorPage(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Build failed</title></head><body><h1>Build failed: no pages yet</h1><pre>${escapeHtml(message)}</pre><script src="${RELOAD_PATH}" defer></script></body></html>`;
}

/** Where the build served from `root` has its pages: its base path (`/site`), '' at the root. */
export async function servedBasePath(root: string): Promise<string> {
  const served = await realRoot(path.resolve(root));
  return (await readRules(served, hostFolderOf(path.resolve(root), served))).basePath;
}

export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  const root = path.resolve(opts.root);
  const clients = new Set<ServerResponse>();
  let error: string | undefined;
  let warnings: readonly string[] = [];
  const send = (res: ServerResponse, event: string, data: string) => res.write(`event: ${event}\ndata: ${data.split('\n').join('\ndata: ')}\n\n`);
  const inject = opts.reloadScript ? (html: string) => html.replace('</body>', `<script src="${RELOAD_PATH}" defer></script></body>`) : undefined;

  const host = opts.host ?? '127.0.0.1';
  const allowed = allowedHosts(host);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (refuseForeignHost(req, res, allowed)) return;
    const urlPath = safePath(req.url ?? '/');
    if (opts.reloadScript && urlPath === EVENTS_PATH) {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
      res.write(': connected\n\n');
      clients.add(res);
      if (error) send(res, 'build-error', error);
      if (warnings.length) send(res, 'build-warnings', JSON.stringify(warnings));
      res.on('close', () => clients.delete(res));
      return;
    }
    if (opts.reloadScript && urlPath === RELOAD_PATH) {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' }).end(opts.reloadScript);
      return;
    }
    // Watch started on broken content: no page exists yet, so every page shows the errors (and
    // reloads by itself once a save fixes them) instead of a bare "Not found".
    if (opts.reloadScript && error && !existsSync(path.join(root, 'index.html'))) {
      res.writeHead(500, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(errorPage(error));
      return;
    }
    const readOnly = req.method === 'GET' || req.method === 'HEAD';
    if (urlPath === undefined) {
      if (readOnly) res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad request');
      else res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    // A build may publish into the served folder at any moment: each attempt resolves its link once
    // and answers from that one build, pages and rules; an answer the switch spoilt is tried again.
    const since = performance.now();
    for (;;) {
      const served = await realRoot(root);
      // Rules are read per request: the build rewrites them, and they are small.
      const rules = await readRules(served, hostFolderOf(root, served));
      // A site built under a base path (`--base-url https://example.github.io/site`) is served
      // under it, as its host will: /site/prices is prices.html, nothing lives outside /site/.
      const base = rules.basePath;
      if (base) {
        if (urlPath === base) {
          res.writeHead(301, { Location: `${base}/` }).end();
          return;
        }
        if (!urlPath.startsWith(`${base}/`)) {
          res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`Not found: this site lives under ${base}/`);
          return;
        }
      }
      const exists = (await resolveFile(served, urlPath.slice(base.length) || '/')) !== undefined;
      const rule = findRedirect(rules.redirects, urlPath, exists);
      if (rule && rule.status >= 300 && rule.status < 400) {
        res.writeHead(rule.status, { Location: rule.to + queryOf(req.url), ...headersFor(rules.headers, urlPath) }).end();
        return;
      }
      const clean = await cleanPath(served, urlPath.slice(base.length) || '/');
      if (clean !== undefined) {
        res.writeHead(301, { Location: encodedPath(clean === '/' ? `${base}/` : base + clean) + queryOf(req.url), ...headersFor(rules.headers, urlPath) }).end();
        return;
      }
      if (!readOnly) {
        res.writeHead(405, { Allow: 'GET, HEAD' }).end();
        return;
      }
      const answered = await serveFrom(
        served,
        urlPath.slice(base.length) || '/',
        req,
        res,
        {
          headers: (p) => ({ ...headersFor(rules.headers, base + p), ...(opts.reloadScript ? { 'Cache-Control': 'no-store' } : {}) }),
          notFound: (p) => {
            const rule = findRedirect(rules.redirects, base + p, false);
            return rule?.status === 404 ? rule.to.slice(base.length) : undefined;
          },
          transformHtml: inject,
        },
        republished(root, served, since),
      );
      if (answered) return;
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(String(err));
    });
  });
  const port = await listen(server, opts.port, host);
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    reload() {
      error = undefined;
      for (const c of clients) send(c, 'reload', String(Date.now()));
    },
    setError(message) {
      error = message;
      if (message) for (const c of clients) send(c, 'build-error', message);
    },
    setWarnings(lines) {
      warnings = lines;
    },
    close() {
      for (const c of clients) c.end();
      clients.clear();
      server.closeAllConnections(); // keep-alive sockets must not hold up Ctrl-C
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
