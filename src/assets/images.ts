/**
 * Stage "images": every photo-like file under `content/images` (SVG artwork included) becomes
 * AVIF and WebP in several widths plus one JPEG fallback, all under content-hashed names in
 * `assets/img/`; no source file is copied. The site icons keep their format but are re-encoded
 * too: the PNG through sharp, the SVG through SVGO (editor metadata, comments and absolute paths
 * removed). Any other file under `content/images` (HEIC, RAW, text) is an error naming it: it
 * would be shipped byte for byte, metadata included.
 *
 * Encoding is slow (AVIF above all), so every source's outputs are cached in
 * `<cacheDir>/images/<key>/`, the key being a hash of the source bytes, the options below and
 * sharp's version: a rebuild of unchanged images reads files and never loads sharp. Metadata:
 * sharp writes none unless `withMetadata`/`keepMetadata` is called, and it is never called here,
 * so no EXIF (GPS, camera, dates), XMP, IPTC or ICC profile reaches `dist/`; pixels are converted
 * to sRGB and turned upright (EXIF orientation) before the metadata goes.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { listFiles } from '../files.ts';
import { requireCjs } from '../require.ts';
import type { Sharp } from 'sharp';
import { BuildError } from '../diagnostics.ts';
import { contentHash, hashedName } from '../hash.ts';
import type { ImageAsset } from '../render/context.ts';
import type { OutputFile } from './bundle.ts';

/** What every raster output is made with; part of the cache key. */
export const IMAGE_OPTIONS = Object.freeze({
  quality: 85,
  /** Fit inside this box, never upscaled. */
  maxWidth: 1920,
  maxHeight: 1080,
  /** Candidate srcset widths; only those below the (clamped) source width, plus that width. */
  widths: [480, 800, 1200, 1920],
  /** Social preview (og:image): networks want 1200x630 JPEG or PNG, never SVG or AVIF. */
  social: { width: 1200, height: 630 },
});
/** Bump when the pipeline changes in a way the options above do not show. */
const PIPELINE = 2;
/** Files processed into AVIF/WebP/JPEG; anything else (icons excepted) is an error. */
const RASTER = /\.(?:svg|png|jpe?g|webp|avif|gif|tiff?)$/i;
/** What an icon may still hold after SVGO, and must not: a path on the author's machine. */
const ABSOLUTE_PATH = /file:\/\/|(?:^|[\s"'(=])\/(?:home|Users|root|tmp|var|mnt|media)\/|[A-Za-z]:\\/;
const RASTER_NAMES = 'SVG, PNG, JPEG, WebP, AVIF, GIF and TIFF';
/** Encodes at a time: the build machine has two cores (sharp also gets one libvips thread each). */
const ENCODERS = 2;
/** Cache entries not used for this long are removed. */
const CACHE_TTL_MS = 30 * 24 * 3600 * 1000;

type Format = 'avif' | 'webp' | 'jpeg';
const MIME: Record<Format, string> = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' };
const EXT: Record<Format, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg' };

/** One encoded file of a cache entry (`<width>.<hash>.<ext>` in the entry's folder). */
interface Variant {
  format: Format;
  width: number;
  height: number;
  hash: string;
}

/** `meta.json` of a cache entry. */
interface Entry {
  /** Size of the image as served (the source fitted inside the max box, or the social frame). */
  width: number;
  height: number;
  /** Size of the source itself (upright). */
  sourceWidth: number;
  sourceHeight: number;
  variants: Variant[];
}

export interface ImageStats {
  /** Source images processed into modern formats. */
  sources: number;
  /** Files written for them (every width and format, and the fallbacks). */
  files: number;
  /** Sources whose files came from the cache / were encoded in this build. */
  cached: number;
  encoded: number;
}

export interface ProcessedImages {
  files: OutputFile[];
  stats: ImageStats;
  get(file: string): ImageAsset;
  /** Every processed image by content path (what page workers receive to answer `get`). */
  table(): Record<string, ImageAsset>;
  /** Images left out because nothing uses them (paths under content/images), when `used` was given. */
  unused: readonly string[];
  /** The `used` option this result was made for (a build with other uses processes again). */
  usedKey: string;
}

export interface ImageOptions {
  /** Build cache folder (`config.cacheDir`); entries go to its `images/` subfolder. */
  cacheDir: string;
  /** Files (under content/images) kept in their own format, re-encoded without metadata: the favicon and touch icon. */
  icons: ReadonlySet<string>;
  /** The Open Graph image: cropped to 1200x630 so every network shows it whole. */
  social?: string;
  /** Images some page shows (paths under content/images); any other is neither encoded nor shipped. */
  used?: ReadonlySet<string>;
  /** Called with how many of `total` images are done (read from the cache or encoded). */
  progress?: (done: number, total: number) => void;
}

let sharpVersion: string | undefined;
function sharpVersionOf(): string {
  return (sharpVersion ??= (createRequire(import.meta.url)('sharp/package.json') as { version: string }).version);
}

/** Loaded on the first cache miss only: a warm build never pays for the native module. */
let sharpModule: Promise<typeof import('sharp')> | undefined;
function loadSharp(): Promise<typeof import('sharp')> {
  return (sharpModule ??= import('sharp').then((m) => {
    const sharp = (m as { default?: typeof import('sharp') }).default ?? (m as unknown as typeof import('sharp'));
    sharp.concurrency(1);
    return sharp;
  }));
}

/** A tiny semaphore: at most `n` encodes run at once across the whole build. */
function limiter(n: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(job: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await job();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

/**
 * Widths for the srcset: the candidates below the served width, then the served width itself. A
 * candidate within 10% of it is left out (an 800 beside an 810 costs an encode and saves nothing).
 */
export function srcsetWidths(width: number, candidates: readonly number[] = IMAGE_OPTIONS.widths): number[] {
  return [...candidates.filter((w) => w < width * 0.9), width];
}

/** Fit (w, h) inside the max box without enlarging. */
function clamp(w: number, h: number): { width: number; height: number } {
  const scale = Math.min(1, IMAGE_OPTIONS.maxWidth / w, IMAGE_OPTIONS.maxHeight / h);
  return { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
}

const variantName = (v: Variant) => `${v.width}.${v.hash}.${EXT[v.format]}`;

/** Encode one source: every width in AVIF and WebP, and the JPEG fallback, in memory. */
async function encode(bytes: Buffer, social: boolean, run: ReturnType<typeof limiter>): Promise<{ entry: Entry; blobs: Buffer[] }> {
  const sharp = await loadSharp();
  const meta = await sharp(bytes).metadata();
  if (!meta.width || !meta.height) throw new Error('cannot read its width and height');
  const isSvg = meta.format === 'svg';
  // Upright size: EXIF orientations 5-8 swap width and height.
  const swap = (meta.orientation ?? 1) >= 5;
  const sourceWidth = meta.autoOrient?.width ?? (swap ? meta.height : meta.width);
  const sourceHeight = meta.autoOrient?.height ?? (swap ? meta.width : meta.height);
  const target = social ? { ...IMAGE_OPTIONS.social } : clamp(sourceWidth, sourceHeight);
  // SVG is rasterised at a density that gives at least the target size (72 dpi = its own size).
  const scale = Math.max(target.width / sourceWidth, target.height / sourceHeight, 1);
  const open = (): Sharp => (isSvg ? sharp(bytes, { density: Math.min(72 * scale, 2400) }) : sharp(bytes));
  // Decode once to upright sRGB pixels at the served size; every output is resized from these.
  let pipeline = open().rotate();
  pipeline = social
    ? pipeline.resize(target.width, target.height, { fit: 'cover', position: 'attention' })
    : pipeline.resize(target.width, target.height, { fit: 'inside', withoutEnlargement: true });
  const { data: decoded, info } = await run(() => pipeline.toColourspace('srgb').raw().toBuffer({ resolveWithObject: true }));
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } } as const;
  // An alpha channel that is fully opaque (SVG artwork, most PNGs) only costs bytes.
  const opaque = info.channels === 4 && (await sharp(decoded, raw).stats()).isOpaque;
  const base = () => (opaque ? sharp(decoded, raw).removeAlpha() : sharp(decoded, raw));

  const q = IMAGE_OPTIONS.quality;
  const jobs: { format: Format; width: number; make: () => Sharp }[] = [];
  for (const width of srcsetWidths(info.width)) {
    const resized = () => (width === info.width ? base() : base().resize({ width }));
    jobs.push({ format: 'avif', width, make: () => resized().avif({ quality: q }) });
    jobs.push({ format: 'webp', width, make: () => resized().webp({ quality: q }) });
  }
  // The fallback `src` is a JPEG at the served size, not a WebP: it is also the og:image (networks
  // do not all read WebP, and the social image must be exactly 1200x630) and the JSON-LD
  // contentUrl, and it is what the few browsers without AVIF and WebP get. Browsers that read
  // AVIF or WebP take the <source> srcsets and never download it.
  jobs.push({ format: 'jpeg', width: info.width, make: () => base().flatten({ background: '#ffffff' }).jpeg({ quality: q, mozjpeg: true }) });

  const done = await Promise.all(
    jobs.map((job) =>
      run(async () => {
        const { data, info: out } = await job.make().toBuffer({ resolveWithObject: true });
        return { variant: { format: job.format, width: out.width, height: out.height, hash: contentHash(data) }, data };
      }),
    ),
  );
  return {
    entry: { width: info.width, height: info.height, sourceWidth, sourceHeight, variants: done.map((d) => d.variant) },
    blobs: done.map((d) => d.data),
  };
}

/** An SVG icon through SVGO: editor namespaces, metadata, comments and absolute paths removed. */
function optimizeSvg(bytes: Buffer): Buffer {
  const { optimize } = requireCjs('svgo') as typeof import('svgo');
  const dropPaths = {
    name: 'removeAbsolutePaths',
    fn: () => ({
      element: {
        enter(node: { attributes: Record<string, string> }) {
          for (const [name, value] of Object.entries(node.attributes)) if (ABSOLUTE_PATH.test(value)) delete node.attributes[name];
        },
      },
    }),
  };
  const out = optimize(bytes.toString('utf8'), { multipass: true, plugins: ['preset-default', dropPaths] }).data;
  if (ABSOLUTE_PATH.test(out)) throw new Error('still names a path on the author\'s machine after optimising (in its text?): remove it');
  return Buffer.from(out);
}

/** A PNG icon re-encoded by sharp: upright pixels, no EXIF, text chunks or ICC profile. */
async function reencodePng(bytes: Buffer): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(bytes).rotate().png({ compressionLevel: 9 }).toBuffer();
}

/** An icon's re-encoded bytes, from the cache (`<root>/<key>.<ext>`) or made now. */
async function icon(rel: string, bytes: Buffer, cacheRoot: string, optionsKey: string, used: Set<string>): Promise<Buffer> {
  const ext = path.extname(rel).toLowerCase();
  if (ext !== '.svg' && ext !== '.png') throw new Error('an icon must be an SVG or a PNG file');
  const name = `${createHash('sha256').update(optionsKey).update('icon').update(bytes).digest('hex').slice(0, 24)}${ext}`;
  used.add(name);
  const cached = await fs.readFile(path.join(cacheRoot, name)).catch(() => undefined);
  if (cached) return cached;
  const made = ext === '.svg' ? optimizeSvg(bytes) : await reencodePng(bytes);
  const tmp = path.join(cacheRoot, `${name}.${process.pid}.tmp`);
  await fs.mkdir(cacheRoot, { recursive: true });
  await fs.writeFile(tmp, made);
  await fs.rename(tmp, path.join(cacheRoot, name)).catch(() => fs.rm(tmp, { force: true }));
  return made;
}

async function readEntry(dir: string): Promise<{ entry: Entry; blobs: Buffer[] } | undefined> {
  try {
    const entry = JSON.parse(await fs.readFile(path.join(dir, 'meta.json'), 'utf8')) as Entry;
    const blobs = await Promise.all(entry.variants.map((v) => fs.readFile(path.join(dir, variantName(v)))));
    return { entry, blobs };
  } catch {
    return undefined;
  }
}

/** Write an entry to a private folder, then rename it into place (parallel builds may race). */
async function writeEntry(dir: string, entry: Entry, blobs: Buffer[]): Promise<void> {
  const tmp = `${dir}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    await fs.mkdir(tmp, { recursive: true });
    await Promise.all(entry.variants.map((v, i) => fs.writeFile(path.join(tmp, variantName(v)), blobs[i]!)));
    await fs.writeFile(path.join(tmp, 'meta.json'), JSON.stringify(entry));
    try {
      await fs.rename(tmp, dir);
    } catch {
      // The folder exists: a parallel build wrote it (keep it) or it is damaged (replace it).
      if (await readEntry(dir)) return;
      await fs.rm(dir, { recursive: true, force: true });
      await fs.rename(tmp, dir);
    }
  } catch {
    // Another build wrote the same entry first, or the cache is read-only: the build goes on.
  } finally {
    await fs.rm(tmp, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Mark an entry used (at most once a day) and drop entries unused for CACHE_TTL_MS. */
async function tidyCache(root: string, used: ReadonlySet<string>): Promise<void> {
  const now = Date.now();
  let names: string[];
  try {
    names = await fs.readdir(root);
  } catch {
    return;
  }
  await Promise.all(
    names.map(async (name) => {
      const p = path.join(root, name);
      try {
        const { mtimeMs } = await fs.stat(p);
        if (used.has(name)) {
          if (now - mtimeMs > 24 * 3600 * 1000) await fs.utimes(p, new Date(now), new Date(now));
        } else if (now - mtimeMs > CACHE_TTL_MS) await fs.rm(p, { recursive: true, force: true });
      } catch {
        // Removed by a parallel build.
      }
    }),
  );
}

/** A key naming a `used` set, to tell whether a cached result was made for the same uses. */
export function usedKey(used: ReadonlySet<string> | undefined): string {
  return used ? [...used].sort().join('\n') : '*';
}

/**
 * Process `content/images`: AVIF, WebP and a JPEG fallback for every image a page uses, the icons
 * re-encoded without metadata; anything the pipeline cannot read is an error.
 */
export async function processImages(contentDir: string, options: ImageOptions): Promise<ProcessedImages> {
  const dir = path.join(contentDir, 'images');
  const cacheRoot = path.join(options.cacheDir, 'images');
  const all = await listFiles(dir);
  const wanted = (rel: string) => !options.used || options.used.has(rel) || options.icons.has(rel);
  // A file the pipeline cannot read is an error even when unused: it must not sit among the images.
  const unreadable = all.filter((rel) => !options.icons.has(rel) && !RASTER.test(rel));
  const names = all.filter((rel) => wanted(rel) && !unreadable.includes(rel));
  const run = limiter(ENCODERS);
  const files: OutputFile[] = [];
  const assets = new Map<string, ImageAsset>();
  const stats: ImageStats = { sources: 0, files: 0, cached: 0, encoded: 0 };
  const used = new Set<string>();
  const errors: { rel: string; message: string }[] = [];
  const optionsKey = JSON.stringify({ PIPELINE, sharp: sharpVersionOf(), ...IMAGE_OPTIONS });
  for (const rel of unreadable)
    errors.push({ rel, message: `not an image the build can convert (it reads ${RASTER_NAMES}); it would be published as it is, metadata included. Convert it (for example to JPEG) or move it out of the images folder` });

  let finished = 0;
  const tick = () => options.progress?.(++finished, names.length);
  await Promise.all(
    names
      .map(async (rel) => {
      const bytes = await fs.readFile(path.join(dir, rel));
      const flat = rel.replace(/\//g, '-');
      if (options.icons.has(rel)) {
        let made: Buffer;
        try {
          made = await icon(rel, bytes, cacheRoot, optionsKey, used);
        } catch (err) {
          errors.push({ rel, message: (err as Error).message });
          return;
        }
        const out = `assets/img/${hashedName(flat, contentHash(made))}`;
        files.push({ file: out, content: made });
        assets.set(rel, { src: `/${out}`, width: 0, height: 0, sources: [] });
        return;
      }
      const social = rel === options.social;
      const key = createHash('sha256').update(optionsKey).update(social ? 'social' : 'photo').update(bytes).digest('hex').slice(0, 24);
      const entryDir = path.join(cacheRoot, key);
      used.add(key);
      let result = await readEntry(entryDir);
      stats.sources++;
      if (result) stats.cached++;
      else {
        try {
          result = await encode(bytes, social, run);
        } catch (err) {
          errors.push({ rel, message: (err as Error).message });
          return;
        }
        stats.encoded++;
        await writeEntry(entryDir, result.entry, result.blobs);
      }
      const { entry, blobs } = result;
      const stem = flat.replace(/\.[^.]+$/, '');
      const urls = entry.variants.map((v, i) => {
        const out = `assets/img/${stem}-${v.width}.${v.hash}.${EXT[v.format]}`;
        files.push({ file: out, content: blobs[i]! });
        return `/${out}`;
      });
      stats.files += entry.variants.length;
      const srcset = (format: Format) =>
        entry.variants
          .map((v, i) => ({ v, url: urls[i]! }))
          .filter(({ v }) => v.format === format)
          .sort((a, b) => a.v.width - b.v.width)
          .map(({ v, url }) => `${url} ${v.width}w`)
          .join(', ');
      const fallback = entry.variants.findIndex((v) => v.format === 'jpeg');
      assets.set(rel, {
        src: urls[fallback]!,
        width: entry.width,
        height: entry.height,
        sources: (['avif', 'webp'] as const).map((f) => ({ type: MIME[f], srcset: srcset(f) })),
      });
      })
      .map((done) => done.then(tick)),
  );
  if (errors.length)
    throw new BuildError(
      'images',
      errors.map((e) => ({ severity: 'error', code: 'image', file: `images/${e.rel}`, message: e.message.startsWith('not an image') ? e.message : `cannot process this image: ${e.message}` })),
    );
  await tidyCache(cacheRoot, used);
  files.sort((a, b) => a.file.localeCompare(b.file));
  return {
    files,
    stats,
    get(file) {
      const asset = assets.get(file);
      if (!asset) throw new BuildError('images', [{ severity: 'error', code: 'missing-image', file: `images/${file}`, message: 'image named in content does not exist under content/images' }]);
      return asset;
    },
    table: () => Object.fromEntries(assets),
    unused: all.filter((rel) => !wanted(rel)),
    usedKey: usedKey(options.used),
  };
}
