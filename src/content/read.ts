/**
 * Reading content files as text, strictly: a file that is too large or not UTF-8 text is reported
 * (never parsed, never printed), a leading byte-order mark is dropped (editors on Windows add one).
 */
import { promises as fs, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostics } from '../diagnostics.ts';

/** Largest content file read (YAML or markdown): far above any real one, small enough to fail fast. */
export const MAX_CONTENT_BYTES = 2 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decode `bytes` of `rel` as UTF-8 text without a BOM; a NUL byte, invalid UTF-8 or a size over the
 * limit is an error naming the file (and no byte of it is echoed).
 */
export function decodeText(rel: string, bytes: Uint8Array, diags: Diagnostics): string | undefined {
  if (bytes.length > MAX_CONTENT_BYTES) {
    diags.error({ code: 'too-large', file: rel, message: `the file is ${(bytes.length / 1048576).toFixed(1)} MB; content files are limited to ${MAX_CONTENT_BYTES / 1048576} MB: split it` });
    return undefined;
  }
  const nul = bytes.indexOf(0);
  let text: string | undefined;
  if (nul < 0) {
    try {
      text = utf8.decode(bytes);
    } catch {
      // invalid UTF-8: reported below
    }
  }
  if (text === undefined) {
    diags.error({ code: 'not-text', file: rel, message: `not a text file (${nul >= 0 ? `a NUL byte at offset ${nul}` : 'not valid UTF-8'}): content files are UTF-8 text; was a binary file saved under this name?` });
    return undefined;
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Real paths of content folders (resolved once per folder). */
const roots = new Map<string, string>();

/**
 * Whether `abs` (the content file `rel`) is really inside its content folder, symlinks resolved.
 * A link that leaves it (to /etc/passwd, a credentials file, another project) is an error naming
 * the link only: the target is never read, so none of it reaches a page or the build's output.
 */
function inside(abs: string, rel: string, diags: Diagnostics): boolean {
  const root = abs.slice(0, abs.length - rel.length - 1);
  let real: string;
  try {
    real = realpathSync.native(abs);
  } catch {
    return true; // missing or unreadable: reported by the read itself
  }
  let realRoot = roots.get(root);
  if (realRoot === undefined) roots.set(root, (realRoot = realpathSync.native(root)));
  if (real.startsWith(realRoot + path.sep)) return true;
  diags.error({ code: 'outside-content', file: rel, message: 'is a link to a file outside the content folder, which is never read: copy the file into the content folder instead of linking it' });
  return false;
}

/** Read `abs` (shown as `rel`) as text; a missing or unreadable file, or a link out of the content folder, is an error. */
export async function readContentText(abs: string, rel: string, diags: Diagnostics): Promise<string | undefined> {
  if (!inside(abs, rel, diags)) return undefined;
  try {
    return decodeText(rel, await fs.readFile(abs), diags);
  } catch (err) {
    diags.error({ code: 'missing-file', file: rel, message: unreadable(err) });
    return undefined;
  }
}

/** Synchronous `readContentText` (posts: thousands of small files read one after the other). */
export function readContentTextSync(abs: string, rel: string, diags: Diagnostics): string | undefined {
  if (!inside(abs, rel, diags)) return undefined;
  try {
    return decodeText(rel, readFileSync(abs), diags);
  } catch (err) {
    diags.error({ code: 'missing-file', file: rel, message: unreadable(err) });
    return undefined;
  }
}

function unreadable(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' ? 'required content file is missing' : `cannot read file (${code})`;
}
