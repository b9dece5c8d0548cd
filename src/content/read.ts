/**
 * Reading content files as text, strictly: a file that is too large or not UTF-8 text is reported
 * (never parsed, never printed), a leading byte-order mark is dropped (editors on Windows add one).
 */
import { promises as fs, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostics } from '../diagnostics.ts';

/** What a link out of the content folder is told (content files, images). */
export const OUTSIDE_CONTENT = 'is a link to a file outside the content folder, which is never read: copy the file into the content folder instead of linking it';

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
    // (Where, for text that is UTF-8 but for a byte: a binary or UTF-16 file has no lines to speak of.)
    const bad = nul < 0 ? firstInvalidUtf8(bytes) : -1;
    diags.error({ code: 'not-text', file: rel, ...(bad >= 0 && bytePosition(bytes, bad)), message: notText(bytes, nul) });
    return undefined;
  }
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const control = CONTROL.exec(body);
  if (control) {
    const before = body.slice(0, control.index);
    const line = before.split('\n').length;
    diags.error({ code: 'not-text', file: rel, line, column: control.index - before.lastIndexOf('\n'), message: controlMessage(control[0]) });
    return undefined;
  }
  return body;
}

/**
 * Control characters but HTML's whitespace (tab, line feed, form feed, carriage return), and the
 * C1 controls U+0080-U+009F (a Windows-1252 quote pasted as its byte, U+0092): in HTML they are
 * parse errors, a browser shows a box or nothing, and one in a title or a text is a pasted or
 * mistyped character the operator never meant. YAML escapes (`"\0"`, `"\x85"`) are checked after
 * parsing (content/yaml.ts).
 */
export const CONTROL = /[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F]/;

/**
 * Half of a character: a UTF-16 surrogate without its other half. Only a YAML escape (`"\uD83D"`)
 * can put one into content (a file holding one is not UTF-8); no page can show it, and encoding it
 * for a URL throws.
 */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The error for control character `c`. */
export function controlMessage(c: string): string {
  return `a control character (U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}) that no page can show: remove it`;
}

/**
 * Whether `abs` (the content file `rel`) is really inside its content folder, symlinks resolved.
 * A link that leaves it (to /etc/passwd, a credentials file, another project) is an error naming
 * the link only: the target is never read, so none of it reaches a page or the build's output.
 */
function inside(abs: string, rel: string, diags: Diagnostics, root?: ContentRoot): boolean {
  let real: string;
  let realRoot: string;
  try {
    real = realpathSync.native(abs);
    // Resolved on every read (or once per load with a ContentRoot), never cached across loads:
    // under `site watch` the folder may be moved or relinked.
    realRoot = root ? (root.real ??= realpathSync.native(root.dir)) : realpathSync.native(abs.slice(0, abs.length - rel.length - 1));
  } catch {
    return true; // missing or unreadable: reported by the read itself
  }
  if (real.startsWith(realRoot + path.sep)) return true;
  diags.error({ code: 'outside-content', file: rel, message: OUTSIDE_CONTENT });
  return false;
}

/**
 * Offset of the first byte that is not valid UTF-8 (-1: none), as the decoder judges it (RFC 3629):
 * besides lone and missing continuation bytes, an encoded UTF-16 surrogate (ED A0-BF: what some
 * Java and JavaScript tools write for half an emoji), an overlong form (E0 80-9F, F0 80-8F) and a
 * code point past U+10FFFF (F4 90 and up) are invalid.
 */
function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const n = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (n < 0) return i;
    for (let k = 1; k <= n; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    const second = bytes[i + 1]!;
    if ((b === 0xe0 && second < 0xa0) || (b === 0xed && second > 0x9f) || (b === 0xf0 && second < 0x90) || (b === 0xf4 && second > 0x8f)) return i;
    i += n + 1;
  }
  return -1;
}

/** Line and column (1-based, in bytes) of byte `offset`: where an editor's cursor goes. */
function bytePosition(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = bytes.indexOf(0x0a); i >= 0 && i < offset; i = bytes.indexOf(0x0a, i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/**
 * Why `bytes` are not UTF-8 text, in words an editor's user can act on: a file saved as UTF-16 (a
 * byte-order mark, or every other byte NUL) or in a one-byte encoding such as Latin-1 or
 * Windows-1252 says so and how to save it as UTF-8, with the byte offset; anything else is binary.
 */
function notText(bytes: Uint8Array, nul: number): string {
  const save = 'save it as UTF-8 (in most editors: Save with Encoding, or File > Save As > Encoding: UTF-8)';
  const sample = bytes.subarray(0, 512);
  const zeros = (parity: number) => sample.filter((b, i) => i % 2 === parity && b === 0).length;
  const utf16Bom = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (utf16Bom || (sample.length >= 8 && Math.max(zeros(0), zeros(1)) > sample.length / 4 && Math.min(zeros(0), zeros(1)) < sample.length / 32))
    return `looks like UTF-16 text (${utf16Bom ? 'it starts with a UTF-16 byte-order mark' : `a NUL byte at offset ${nul}, every other byte NUL`}): content files are UTF-8; ${save}`;
  const bad = nul < 0 ? firstInvalidUtf8(bytes) : -1;
  // Half of a character written as a UTF-16 surrogate (CESU-8): the file is otherwise UTF-8.
  if (bad >= 0 && bytes[bad] === 0xed && bytes[bad + 1]! >= 0xa0)
    return `not valid UTF-8 at byte offset ${bad}: a UTF-16 surrogate written as UTF-8 (bytes 0x${[...bytes.subarray(bad, bad + 3)].map((b) => b.toString(16)).join(' 0x')}), as some tools write half of an emoji; retype the character there, or remove it`;
  // Text in a one-byte encoding: printable ASCII around lone bytes 0x80-0xFF (é, ñ, ü as one byte).
  const controls = sample.filter((b) => b < 0x09 || (b > 0x0d && b < 0x20)).length;
  if (nul < 0 && bad >= 0 && controls === 0)
    return `not valid UTF-8 at byte offset ${bad} (byte 0x${bytes[bad]!.toString(16).padStart(2, '0')}): it looks like Latin-1 or Windows-1252 text; content files are UTF-8: ${save}`;
  return `not a text file (${nul >= 0 ? `a NUL byte at offset ${nul}` : `not valid UTF-8 at byte offset ${bad}`}): content files are UTF-8 text; was a binary file saved under this name?`;
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

/**
 * The content folder of one load, its real path resolved on the first read and reused by the rest
 * of that load (thousands of posts: one realpath each instead of two). A new load makes a new one.
 */
export interface ContentRoot {
  readonly dir: string;
  real?: string;
}

/** Synchronous `readContentText` (posts: thousands of small files read one after the other); `root`: the load's content folder. */
export function readContentTextSync(abs: string, rel: string, diags: Diagnostics, root?: ContentRoot, { linked = true } = {}): string | undefined {
  // A file reached through no link (the caller listed its folder and the folders above it) lies inside.
  if (linked && !inside(abs, rel, diags, root)) return undefined;
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
