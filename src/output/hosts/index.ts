/** The host targets: one writer per host, chosen by name (`--host`, `deploy.host`). */
import type { HostContext, HostFiles, HostName, HostWriter } from './types.ts';
import type { HostRules } from './rules.ts';
import { cloudflare } from './cloudflare.ts';
import { netlify } from './netlify.ts';
import { vercel } from './vercel.ts';
import { nginx } from './nginx.ts';
import { staticHost } from './static.ts';
import { s3 } from './s3.ts';

export { HOSTS, type HostName } from './types.ts';

/**
 * The default target: plain files work on every host (GitHub Pages, Netlify, Cloudflare Pages,
 * Vercel, S3, nginx), so a first deploy never serves a host file or breaks on a rule it rejects.
 */
export const DEFAULT_HOST: HostName = 'static';

const WRITERS: Record<HostName, HostWriter> = { static: staticHost, cloudflare, netlify, vercel, nginx, s3 };

/** The files of host `name`, plus `rules.json` beside them (what `site serve` applies). */
export function hostFiles(name: HostName, rules: HostRules, outDir: string, ctx: Omit<HostContext, 'outDir'> = {}): HostFiles {
  const files = WRITERS[name](rules, { ...ctx, outDir });
  return { web: files.web, beside: [...files.beside, { file: 'rules.json', content: `${JSON.stringify({ host: name, ...rules }, null, 2)}\n` }] };
}
