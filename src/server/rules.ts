/** The host rules the build writes (`<out>.host/rules.json`, or `_redirects` / `_headers`), applied by local servers. */
import type { HostRules } from '../output/hosts/rules.ts';

export interface RedirectRule {
  from: string;
  to: string;
  status: number;
  /** `301!`: applies even where a file exists (Netlify's "force"). */
  force: boolean;
}

/** Parse a Netlify / Cloudflare `_redirects` file (the subset the build writes). */
export function parseRedirects(text: string): RedirectRule[] {
  const rules: RedirectRule[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [from, to, status = '301'] = line.split(/\s+/);
    if (!from || !to) continue;
    rules.push({ from, to, status: Number.parseInt(status, 10), force: status.endsWith('!') });
  }
  return rules;
}

function matches(pattern: string, urlPath: string): boolean {
  if (pattern.endsWith('/*')) return urlPath.startsWith(pattern.slice(0, -1)) || urlPath === pattern.slice(0, -2);
  if (pattern === '/*') return true;
  return pattern === urlPath;
}

/** The first rule for `urlPath`; with `fileExists`, only forced rules apply (as on Netlify). */
export function findRedirect(rules: readonly RedirectRule[], urlPath: string, fileExists: boolean): RedirectRule | undefined {
  return rules.find((r) => matches(r.from, urlPath) && (!fileExists || r.force));
}

export interface HeaderBlock {
  pattern: string;
  set: [string, string][];
  detach: string[];
}

/** Parse a `_headers` file: a path pattern line, then indented `Name: value` or `! Name` lines. */
export function parseHeaders(text: string): HeaderBlock[] {
  const blocks: HeaderBlock[] = [];
  for (const raw of text.split('\n')) {
    if (!raw.trim() || raw.trim().startsWith('#')) continue;
    if (!/^\s/.test(raw)) {
      blocks.push({ pattern: raw.trim(), set: [], detach: [] });
      continue;
    }
    const block = blocks.at(-1);
    if (!block) continue;
    const line = raw.trim();
    if (line.startsWith('!')) block.detach.push(line.slice(1).trim().toLowerCase());
    else {
      const i = line.indexOf(':');
      if (i > 0) block.set.push([line.slice(0, i).trim(), line.slice(i + 1).trim()]);
    }
  }
  return blocks;
}

/** The headers for `urlPath`: blocks apply in order; `! Name` removes what an earlier block set. */
export function headersFor(blocks: readonly HeaderBlock[], urlPath: string): Record<string, string> {
  const out = new Map<string, [string, string]>();
  for (const b of blocks) {
    if (!matches(b.pattern, urlPath)) continue;
    for (const name of b.detach) out.delete(name);
    for (const [name, value] of b.set) {
      const prev = out.get(name.toLowerCase());
      out.set(name.toLowerCase(), [name, prev ? `${prev[1]}, ${value}` : value]);
    }
  }
  return Object.fromEntries([...out.values()]);
}

/** The build's host-neutral rules as the redirect and header lists the local servers apply. */
export function rulesFromHost(rules: HostRules): { redirects: RedirectRule[]; headers: HeaderBlock[] } {
  return {
    redirects: [
      ...rules.redirects.map((r) => ({ from: r.from, to: r.to, status: 301, force: true })),
      ...rules.notFound.map((n) => ({ from: `${n.prefix}*`, to: n.page, status: 404, force: false })),
    ],
    headers: [
      { pattern: `${rules.basePath}/*`, set: [...rules.common, ['Cache-Control', rules.cache.revalidate]], detach: [] },
      { pattern: `${rules.assetsPrefix}*`, set: [['Cache-Control', rules.cache.immutable]], detach: ['cache-control'] },
      { pattern: rules.serviceWorker, set: [['Cache-Control', rules.cache.revalidate], ['Service-Worker-Allowed', `${rules.basePath}/`]], detach: ['cache-control'] },
    ],
  };
}
