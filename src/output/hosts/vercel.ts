/**
 * Vercel: `vercel.json` at the root of the deployed folder, written as Vercel's `routes` list
 * (the only form with a status-404 route per language; Vercel refuses `routes` next to
 * `cleanUrls`, `trailingSlash`, `redirects` or `headers`, so all of them are routes here), in order:
 * the headers (`continue: true`, a later value replacing an earlier one), every 301 (a `Location`
 * header; Vercel keeps the query string), one URL per page (`/prices.html`, `/prices/` and
 * `/index` answer a 301 to `/prices` and `/`), then `handle: filesystem` (files by their own name),
 * clean URLs (`/prices` → `prices.html`, `check: true` so a missing file falls through), and the
 * not-found page of the path's language with status 404 (most specific prefix first).
 */
import type { HostWriter } from './types.ts';

/** A literal path as the body of a Vercel route regex. */
const literal = (p: string) => p.replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`);

export const vercel: HostWriter = (rules) => {
  const b = literal(rules.basePath);
  const headers = (pairs: [string, string][]) => Object.fromEntries(pairs);
  const redirect = (src: string, to: string) => ({ src, headers: { Location: to }, status: 301 });
  const routes = [
    { src: `^${b}/.*$`, headers: headers([...rules.common, ['Cache-Control', rules.cache.revalidate]]), continue: true },
    { src: `^${literal(rules.assetsPrefix)}.*$`, headers: headers([['Cache-Control', rules.cache.immutable]]), continue: true },
    { src: `^${literal(rules.serviceWorker)}$`, headers: headers([['Cache-Control', rules.cache.revalidate], ['Service-Worker-Allowed', `${rules.basePath}/`]]), continue: true },
    ...rules.redirects.map((r) => redirect(`^${literal(r.from)}$`, r.to)),
    redirect(`^${b}/(?:(.+)/)?index(?:\\.html)?/?$`, `${rules.basePath}/$1`),
    redirect(`^${b}/(.+)\\.html$`, `${rules.basePath}/$1`),
    redirect(`^${b}/(.+)/$`, `${rules.basePath}/$1`),
    { handle: 'filesystem' },
    { src: `^${b}/(.+)$`, dest: `${rules.basePath}/$1.html`, check: true },
    ...rules.notFound.map((n) => ({ src: `^${literal(n.prefix)}.*$`, status: 404, dest: n.page })),
  ];
  return { web: [{ file: 'vercel.json', content: `${JSON.stringify({ routes }, null, 2)}\n` }], beside: [] };
};
