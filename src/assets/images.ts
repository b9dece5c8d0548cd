/** Stage "images": content images copied under hashed names (format conversion: see issue 6). */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { BuildError } from '../diagnostics.ts';
import { contentHash, hashedName } from '../hash.ts';
import type { ImageAsset } from '../render/context.ts';
import type { OutputFile } from './bundle.ts';

async function walk(dir: string, prefix = ''): Promise<string[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await walk(path.join(dir, e.name), rel)));
    else if (!e.name.startsWith('.')) out.push(rel);
  }
  return out;
}

/** Dimensions declared in content for each image file. */
export type ImageSizes = ReadonlyMap<string, { width: number; height: number }>;

export interface ProcessedImages {
  files: OutputFile[];
  get(file: string): ImageAsset;
}

/** Copy every file of `content/images` to `assets/img/<name>.<hash>.<ext>`. */
export async function processImages(contentDir: string, sizes: ImageSizes): Promise<ProcessedImages> {
  const dir = path.join(contentDir, 'images');
  const names = await walk(dir);
  const files: OutputFile[] = [];
  const map = new Map<string, ImageAsset>();
  await Promise.all(
    names.map(async (rel) => {
      const bytes = await fs.readFile(path.join(dir, rel));
      const out = `assets/img/${hashedName(rel.replace(/\//g, '-'), contentHash(bytes))}`;
      files.push({ file: out, content: bytes });
      const size = sizes.get(rel) ?? { width: 0, height: 0 };
      map.set(rel, { src: `/${out}`, ...size, sources: [] });
    }),
  );
  files.sort((a, b) => a.file.localeCompare(b.file));
  return {
    files,
    get(file) {
      const asset = map.get(file);
      if (!asset) throw new BuildError('images', [{ severity: 'error', code: 'missing-image', file: `images/${file}`, message: 'image named in content does not exist under content/images' }]);
      return asset;
    },
  };
}
