/** The site's response headers (one Content-Security-Policy and the security headers), before any host syntax: hosts/ writes them per host. */
import type { Assets } from '../render/context.ts';
import type { Site } from '../content/model.ts';

/** The base64 SHA-256 of every inline stylesheet and script of the site: the policy allows exactly these. */
export interface InlineHashes {
  styles: readonly string[];
  scripts?: readonly string[];
}

/** The inline hashes of a build's assets: what the `<meta>` policy and the host's header both name. */
export function inlineHashesOf(assets: Pick<Assets, 'styleHash' | 'styleHashes' | 'scriptHashes'>): InlineHashes {
  // One object per assets object: every page asks with the build's one, and the policy is kept by it.
  let inline = hashesOf.get(assets);
  const kept = inline && (assets.styleHashes ? inline.styles === assets.styleHashes : inline.styles.length === 1 && inline.styles[0] === assets.styleHash) && (assets.scriptHashes ? inline.scripts === assets.scriptHashes : inline.scripts!.length === 0);
  if (!inline || !kept) {
    inline = { styles: assets.styleHashes ?? [assets.styleHash], scripts: assets.scriptHashes ?? [] };
    hashesOf.set(assets, inline);
  }
  return inline;
}
const hashesOf = new WeakMap<object, InlineHashes>();

/**
 * The one Content-Security-Policy of the site. Pages carry it as `<meta>` too, minus
 * `frame-ancestors`, which browsers ignore (with a console error) when it comes from a meta tag.
 * `hashes`: the inline stylesheets' and scripts' hashes (a list alone: stylesheets only).
 */
export function contentSecurityPolicy(site: Site, hashes: InlineHashes | readonly string[], where: 'header' | 'meta' = 'header'): string {
  // Every page asks for the same policy: made once per site configuration and hashes (a profile of
  // 4,700 pages had ~60 ms here, the URL parsing and joins repeated per page). Kept by the config
  // object, not the site: each page sees the site through a view of its own (render/page.ts), whose
  // config is the site's. First by the hashes object (inlineHashesOf gives every page the same one).
  const config = site.config;
  const byObject = isHashList(hashes) ? undefined : policiesBy.get(hashes);
  const hit = byObject?.config === config ? byObject[where] : undefined;
  if (hit !== undefined) return hit;
  const inline: InlineHashes = isHashList(hashes) ? { styles: hashes } : hashes;
  const memoKey = `${where}\0${inline.styles.join(' ')}\0${(inline.scripts ?? []).join(' ')}`;
  const memo = policies.get(config) ?? policies.set(config, new Map()).get(config)!;
  let policy = memo.get(memoKey);
  if (policy === undefined) memo.set(memoKey, (policy = makePolicy(site, inline, where)));
  if (!isHashList(hashes)) policiesBy.set(hashes, { ...(byObject?.config === config ? byObject : { config }), [where]: policy });
  return policy;
}
const policies = new WeakMap<object, Map<string, string>>();
const policiesBy = new WeakMap<InlineHashes, { config: object; header?: string; meta?: string }>();

function makePolicy(site: Site, inline: InlineHashes, where: 'header' | 'meta'): string {
  const a = site.config.analytics;
  const scriptHosts = a.provider === 'ga4' ? ' https://www.googletagmanager.com' : a.provider === 'plausible' ? ` ${new URL(a.src ?? 'https://plausible.io/js/script.js').origin}` : '';
  const connectHosts =
    a.provider === 'ga4'
      ? ' https://www.google-analytics.com https://region1.google-analytics.com'
      : a.provider === 'plausible'
        ? ` ${new URL(a.src ?? 'https://plausible.io/js/script.js').origin}`
        : '';
  return [
    "default-src 'self'",
    // The one inline pre-paint boot (decisions.md) by its hash, never 'unsafe-inline'.
    `script-src 'self'${(inline.scripts ?? []).map((h) => ` 'sha256-${h}'`).join('')}${scriptHosts}`,
    // The stylesheet is inlined in every page (measured: benchmarks/critical-css.js); it is
    // allowed by its hash, never by 'unsafe-inline'.
    `style-src 'self'${inline.styles.map((h) => ` 'sha256-${h}'`).join('')}`,
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${connectHosts}`,
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    where === 'header' ? "frame-ancestors 'none'" : '',
    'upgrade-insecure-requests',
  ]
    .filter(Boolean)
    .join('; ');
}

function isHashList(h: InlineHashes | readonly string[]): h is readonly string[] {
  return Array.isArray(h);
}

/** The security headers sent with every response (every host target; hosts/rules.ts). */
export function siteHeaders(site: Site, inline: InlineHashes): [name: string, value: string][] {
  return [
    ['Content-Security-Policy', contentSecurityPolicy(site, inline)],
    ['Strict-Transport-Security', 'max-age=63072000; includeSubDomains'],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()'],
    ['X-Frame-Options', 'DENY'],
    // Adults-only sites (site.yaml rtaLabel): parental filters read the label from this header too.
    ...(site.config.rtaLabel ? [['Rating', site.config.rtaLabel] as [string, string]] : []),
  ];
}
