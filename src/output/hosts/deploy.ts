/**
 * What a host's own build needs to make this output again (netlify.toml, wrangler.toml): the
 * folder the host builds in, the output folder and the `site build` command relative to it, and
 * the Node.js version. The host builds in the site's folder (the content folder's parent, the
 * root of the repository it is connected to), where the deploy guide has the operator copy the
 * file from `<out>.host/`.
 */
import path from 'node:path';
import type { HostName } from './names.ts';
import type { HostContext } from './types.ts';

/**
 * The Node.js major a host's build runs: within package.json's engines (>= 20.19), the LTS that
 * the Netlify CLI (>= 22.13) and the hosts' current build images support.
 */
export const NODE_VERSION = '22';

/** The site's folder: the content folder's parent (`<out>/../content` when the writer is not told). */
function siteDir(ctx: HostContext): string {
  return path.dirname(ctx.contentDir ?? path.join(path.dirname(ctx.outDir), 'content'));
}

/** `p` relative to the site's folder, with forward slashes (`dist`). */
export function fromSite(ctx: HostContext, p: string): string {
  return path.relative(siteDir(ctx), p).split(path.sep).join('/') || '.';
}

/** A shell word: as it is when plain, else single-quoted. */
const word = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

/** `npx site build --host <host>` with the options that make this output, run in the site's folder. */
export function buildCommand(host: HostName, ctx: HostContext): string {
  const args = ['npx', 'site', 'build', '--host', host];
  const content = fromSite(ctx, path.join(siteDir(ctx), path.basename(ctx.contentDir ?? 'content')));
  if (content !== 'content') args.push('--content', content);
  const out = fromSite(ctx, ctx.outDir);
  if (out !== 'dist') args.push('--out', out);
  if (ctx.baseUrlFlag) args.push('--base-url', ctx.baseUrlFlag);
  return args.map(word).join(' ');
}

/** A TOML basic string: JSON's escapes are TOML's, and TOML also wants DEL escaped. */
export const tomlString = (s: string) => JSON.stringify(s).replace(/\x7f/g, '\\u007F');
