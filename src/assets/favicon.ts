/**
 * `/favicon.ico`: browsers request it on every site whatever the page links, so it exists at the
 * root: an ICO container holding one 32x32 PNG rendered from the site icon (ICO allows PNG
 * entries since Windows Vista; every current browser reads them). Cached by the icon's bytes, so
 * a warm build never loads sharp for it.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

const SIZE = 32;

/** Wrap one PNG in an ICO container (6-byte header, one 16-byte directory entry, the PNG). */
export function icoFromPng(png: Uint8Array, size = SIZE): Uint8Array {
  const head = Buffer.alloc(22);
  head.writeUInt16LE(0, 0); // reserved
  head.writeUInt16LE(1, 2); // type: icon
  head.writeUInt16LE(1, 4); // one image
  head.writeUInt8(size >= 256 ? 0 : size, 6);
  head.writeUInt8(size >= 256 ? 0 : size, 7);
  head.writeUInt8(0, 8); // no palette
  head.writeUInt8(0, 9);
  head.writeUInt16LE(1, 10); // colour planes
  head.writeUInt16LE(32, 12); // bits per pixel
  head.writeUInt32LE(png.byteLength, 14);
  head.writeUInt32LE(22, 18); // image data offset
  return Buffer.concat([head, png]);
}

/** The favicon.ico bytes for the icon file `iconPath` (SVG or PNG). */
export async function faviconIco(iconPath: string, cacheDir: string): Promise<Uint8Array> {
  const source = await fs.readFile(iconPath);
  const key = createHash('sha256').update(source).update(String(SIZE)).digest('hex').slice(0, 16);
  const cached = path.join(cacheDir, 'favicon', `${key}.ico`);
  try {
    return await fs.readFile(cached);
  } catch {
    // not cached yet
  }
  const m = await import('sharp');
  const sharp = (m as { default?: typeof import('sharp') }).default ?? (m as unknown as typeof import('sharp'));
  const png = await sharp(source, { density: 300 }).resize(SIZE, SIZE, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } }).png().toBuffer();
  const ico = icoFromPng(png);
  await fs.mkdir(path.dirname(cached), { recursive: true });
  // Written aside and renamed: a build running at the same time never reads half a file.
  const tmp = `${cached}.${process.pid}.tmp`;
  await fs.writeFile(tmp, ico);
  await fs.rename(tmp, cached);
  return ico;
}
