/**
 * Local servers for `site serve` and `site watch`: the production host's rules (clean URLs,
 * `_redirects` 301s and per-language 404s, `_headers`) over the static file server; in watch mode
 * also a reload channel (server-sent events) and its script, injected into HTML only here.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { findRedirect, headersFor, parseHeaders, parseRedirects, type HeaderBlock, type RedirectRule } from './rules.ts';
import { resolveFile, safePath, serveStatic } from './static.ts';

export interface DevServerOptions {
  root: string;
  port: number;
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
  close(): Promise<void>;
}

const RELOAD_PATH = '/__site/reload.js';
const EVENTS_PATH = '/__site/events';

async function readRules(root: string): Promise<{ redirects: RedirectRule[]; headers: HeaderBlock[] }> {
  const read = (f: string) => fs.readFile(path.join(root, f), 'utf8').catch(() => '');
  const [r, h] = await Promise.all([read('_redirects'), read('_headers')]);
  return { redirects: parseRedirects(r), headers: parseHeaders(h) };
}

/** Listen on `port`, or the next free one (up to 20 further). */
function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let tries = 0;
    const attempt = (p: number) => {
      server.once('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'EADDRINUSE' && port !== 0 && tries++ < 20) attempt(p + 1);
        else reject(err);
      });
      server.listen(p, '127.0.0.1', () => {
        const addr = server.address();
        resolve(typeof addr === 'object' && addr ? addr.port : p);
      });
    };
    attempt(port);
  });
}

export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  const root = path.resolve(opts.root);
  const clients = new Set<ServerResponse>();
  let error: string | undefined;
  const send = (res: ServerResponse, event: string, data: string) => res.write(`event: ${event}\ndata: ${data.split('\n').join('\ndata: ')}\n\n`);
  const inject = opts.reloadScript ? (html: string) => html.replace('</body>', `<script src="${RELOAD_PATH}" defer></script></body>`) : undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const urlPath = safePath(req.url ?? '/');
    if (opts.reloadScript && urlPath === EVENTS_PATH) {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
      res.write(': connected\n\n');
      clients.add(res);
      if (error) send(res, 'build-error', error);
      res.on('close', () => clients.delete(res));
      return;
    }
    if (opts.reloadScript && urlPath === RELOAD_PATH) {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' }).end(opts.reloadScript);
      return;
    }
    // Rules are read per request: the build rewrites them, and they are small.
    const rules = await readRules(root);
    if (urlPath !== undefined) {
      const exists = (await resolveFile(root, urlPath)) !== undefined;
      const rule = findRedirect(rules.redirects, urlPath, exists);
      if (rule && rule.status >= 300 && rule.status < 400) {
        const query = (req.url ?? '').includes('?') ? (req.url ?? '').slice((req.url ?? '').indexOf('?')) : '';
        res.writeHead(rule.status, { Location: rule.to + query, ...headersFor(rules.headers, urlPath) }).end();
        return;
      }
    }
    await serveStatic(req, res, {
      root,
      headers: (p) => ({ ...headersFor(rules.headers, p), ...(opts.reloadScript ? { 'Cache-Control': 'no-store' } : {}) }),
      notFound: (p) => {
        const rule = findRedirect(rules.redirects, p, false);
        return rule?.status === 404 ? rule.to : undefined;
      },
      transformHtml: inject,
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(String(err));
    });
  });
  const port = await listen(server, opts.port);
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    reload() {
      error = undefined;
      for (const c of clients) send(c, 'reload', String(Date.now()));
    },
    setError(message) {
      error = message;
      if (message) for (const c of clients) send(c, 'build-error', message);
    },
    close() {
      for (const c of clients) c.end();
      clients.clear();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
