/**
 * Stage "images": every photo-like file under `content/images` (SVG artwork included) becomes
 * AVIF and WebP in several widths plus one JPEG fallback, all under content-hashed names in
 * `assets/img/`; no source file is copied. The names come from the site's data, never from the
 * source file's name (see `publicNames`): an image a post shows is named after the post, an image
 * of the site's data after its id. An image a post is shared with also gets one 1200x630 JPEG for previews. The site icons keep their format but are re-encoded
 * too: the PNG through sharp, the SVG through SVGO (editor metadata, comments and absolute paths
 * removed). Any other file under `content/images` (HEIC, RAW, text) is an error naming it: it
 * would be shipped byte for byte, metadata included.
 *
 * Encoding is slow (AVIF above all), so every source's outputs are cached in
 * `<cacheDir>/images/<key>/`, the key being a hash of the source bytes, the options below and
 * sharp's version: a rebuild of unchanged images reads files and never loads sharp. A cold cache
 * (`npm ci` empties it: every CI run and fresh clone) encodes every output once, all of them
 * through one queue that keeps every core busy (see ENCODERS and `scheduler`); two identical
 * sources are encoded once. Metadata:
 * sharp writes none unless `withMetadata`/`keepMetadata` is called, and it is never called here,
 * so no EXIF (GPS, camera, dates), XMP, IPTC or ICC profile reaches `dist/`; pixels are converted
 * to sRGB and turned upright (EXIF orientation) before the metadata goes.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { listFilesWithin } from '../files.ts';
import { requireCjs } from '../require.ts';
import type { Sharp } from 'sharp';
import { BuildError } from '../diagnostics.ts';
import { contentHash, hashedName, publishedHash } from '../hash.ts';
import type { ImageAsset } from '../render/context.ts';
import type { OutputFile } from './bundle.ts';

/** What every raster output is made with; part of the cache key. */
export const IMAGE_OPTIONS = Object.freeze({
  quality: 85,
  /**
   * Encoder effort, chosen by measurement (`node benchmarks/images.js --sweep`: the 14 shipped
   * images, every output, one encoder on one thread, median of 3; AMD EPYC x2, 2026-11-25). AVIF
   * is most of the work: at sharp's default effort 4 it took 11.4 of 13.6 s CPU for 108 KB.
   *   AVIF effort 4 (default): 13.6 s CPU, AVIF 107.6 KB, all formats 433.7 KB
   *   AVIF effort 3:            5.7 s,     AVIF 124.1 KB (+15 %), all 450.2 KB
   *   AVIF effort 2:            4.4 s,     AVIF 117.9 KB (+9.6 %), all 444.0 KB (+2.4 %)   <- chosen
   *   AVIF effort 1:            3.3 s,     AVIF 155.5 KB (+45 %), all 481.6 KB (+11 %)
   *   AVIF effort 0:            3.1 s,     AVIF 236.6 KB (+120 %), all 562.7 KB (+30 %)
   * Effort 2 is the fastest within ~10 % of today's bytes (PSNR against the source stays above
   * 50 dB: 51.9 dB mean against 52.7 at effort 4). WebP (1.1 s of CPU in all) gains nothing
   * measurable below effort 4 (3: same bytes and time; 2: +17 % WebP bytes; 0: +65 % for 0.6 s
   * less), so it keeps its default. mozjpeg stays on: off saves ~0.1 s and costs +32 % JPEG bytes.
   */
  avifEffort: 2,
  webpEffort: 4,
  mozjpeg: true,
  /** Fit inside this box, never upscaled. */
  maxWidth: 1920,
  maxHeight: 1080,
  /** Candidate srcset widths; only those below the (clamped) source width, plus that width. */
  widths: [480, 800, 1200, 1920],
  /** Social preview (og:image): networks want 1200x630 JPEG or PNG, never SVG or AVIF. */
  social: { width: 1200, height: 630 },
});
/** Part of an icon's cache key: 'icon-4' since SVG icons' styles load nothing, escapes included (a cached icon made before must not be reused). */
const ICON_PIPELINE = 'icon-4';
/** Bump when the pipeline changes in a way the options above do not show. */
const PIPELINE = 2;
/** Files processed into AVIF/WebP/JPEG; anything else (icons excepted) is an error. */
const RASTER = /\.(?:svg|png|jpe?g|webp|avif|gif|tiff?)$/i;
/** What an icon may still hold after SVGO, and must not: a path on the author's machine. */
const ABSOLUTE_PATH = /file:\/\/|(?:^|[\s"'(=])\/(?:home|Users|root|tmp|var|mnt|media)\/|[A-Za-z]:\\/;
const RASTER_NAMES = 'SVG, PNG, JPEG, WebP, AVIF, GIF and TIFF';
/**
 * Encodes at a time, each on one libvips thread (`sharp.concurrency(1)`): one per core plus one.
 * Measured on 2 cores, idle (benchmarks/images.js --parallel, median of 5, 2026-11-25), the
 * encodes of the 14 shipped images took: 1 encoder 3.56 s (1.01 cores busy), 2 encoders 2.05 s
 * (1.79: each job's hand-over leaves a core idle for a moment), 3 encoders 1.87 s (1.93 cores),
 * 4 encoders 1.85 s (1.96); CPU time the same for all (4.4 s). One encoder with 2 libvips threads
 * instead took 2.86 s, and AVIF came out different (aom splits its work: 126.6 KB instead of
 * 117.9), so files would depend on the build machine's core count. At most UV_THREADPOOL_SIZE - 1
 * (4 - 1 by default): sharp runs on libuv's thread pool, and file reads and writes need a thread
 * of it too.
 */
const ENCODERS = Math.max(1, Math.min(os.availableParallelism() + 1, (Number(process.env.UV_THREADPOOL_SIZE) || 4) - 1));
/**
 * Relative CPU cost of one output pixel by format at the efforts above (benchmarks/images.js
 * --jobs: AVIF 0.086 s per megapixel, WebP 0.043, mozjpeg 0.033), to start the longest jobs first.
 */
const COST: Record<'avif' | 'webp' | 'jpeg', number> = { avif: 2, webp: 1, jpeg: 0.75 };
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
  /** The `used`, `names` and `shares` options this result was made for (a build with other uses processes again). */
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
  /**
   * What each image's files are named after (path under content/images → an id in the site's
   * data, a post's slug), the most important first: see `publicNames`. An image without a name is
   * published as `image`, never under its source file's name.
   */
  names?: ReadonlyMap<string, string | undefined>;
  /**
   * Images posts are shared with (og:image): each also gets one JPEG of exactly 1200x630, cropped
   * as the social image is (the asset's `share`). Networks show a preview in that frame, and some
   * messaging apps show none for a large file: a full-size photo is neither.
   */
  shares?: ReadonlySet<string>;
  /**
   * Called with how many of `total` images are done (read from the cache or encoded), and which
   * one just finished (its path under content/images, with its encoding time when encoded).
   */
  progress?: (done: number, total: number, current?: string) => void;
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

/** Where a job stands in the queue: its image's estimated cost and turn, then its own cost. */
interface Priority {
  image: number;
  seq: number;
  cost: number;
}

/**
 * One queue for the CPU work of every image in the build (decodes and encodes): at most `n` jobs
 * run at once, the most urgent first. Images go largest first and one after the other (an image's
 * jobs go before the next image's), its jobs longest first: the long AVIF encodes start early so
 * the tail is one small job, only the images being encoded hold decoded pixels (a site of 500
 * photos does not decode all of them before encoding any), and each image is finished (cached, and
 * counted in the progress line) as soon as its own jobs are done.
 */
function scheduler(n: number) {
  let active = 0;
  const queue: { at: Priority; start: () => void }[] = [];
  // Negative when `a` goes first: the larger image, then the one queued first, then the longer job.
  const order = (a: Priority, b: Priority) => b.image - a.image || a.seq - b.seq || b.cost - a.cost;
  const next = () => {
    while (active < n && queue.length) {
      let best = 0;
      for (let i = 1; i < queue.length; i++) if (order(queue[i]!.at, queue[best]!.at) < 0) best = i;
      active++;
      queue.splice(best, 1)[0]!.start();
    }
  };
  let images = 0;
  /** The queue of one image (estimated cost `image`): `run(cost, job)` queues one of its jobs. */
  return (image: number) => {
    const seq = images++;
    return <T>(cost: number, job: () => Promise<T>): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        queue.push({
          at: { image, seq, cost },
          start: () =>
            void job()
              .then(resolve, reject)
              .finally(() => {
                active--;
                next();
              }),
        });
        next();
      });
  };
}
type Scheduler = ReturnType<typeof scheduler>;

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

/** A source's format and upright size (EXIF orientations 5-8 swap width and height). */
async function uprightSize(sharp: typeof import('sharp'), bytes: Buffer): Promise<{ isSvg: boolean; sourceWidth: number; sourceHeight: number }> {
  const meta = await sharp(bytes).metadata();
  if (!meta.width || !meta.height) throw new Error('cannot read its width and height');
  const swap = (meta.orientation ?? 1) >= 5;
  return {
    isSvg: meta.format === 'svg',
    sourceWidth: meta.autoOrient?.width ?? (swap ? meta.height : meta.width),
    sourceHeight: meta.autoOrient?.height ?? (swap ? meta.width : meta.height),
  };
}

/**
 * The sharing rendition of a source (a post's og:image): one JPEG of exactly 1200x630, upright,
 * sRGB, cropped where the picture's interest is, as the social image is. Decoded from the source
 * on its own (JPEG decoders shrink on load, so a 12-megapixel photo costs little more than its
 * preview), so it is cached apart from the source's other files: choosing another image for a post
 * never encodes the photos again.
 */
async function encodeShare(bytes: Buffer, queue: Scheduler): Promise<{ entry: Entry; blobs: Buffer[]; ms: number }> {
  const sharp = await loadSharp();
  const { isSvg, sourceWidth, sourceHeight } = await uprightSize(sharp, bytes);
  const { width, height } = IMAGE_OPTIONS.social;
  const scale = Math.max(width / sourceWidth, height / sourceHeight, 1);
  const cost = width * height * COST.jpeg;
  const started = performance.now();
  const data = await queue(cost)(cost, () =>
    (isSvg ? sharp(bytes, { density: Math.min(72 * scale, 2400) }) : sharp(bytes))
      .rotate()
      .resize(width, height, { fit: 'cover', position: 'attention' })
      .toColourspace('srgb')
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: IMAGE_OPTIONS.quality, mozjpeg: IMAGE_OPTIONS.mozjpeg })
      .toBuffer(),
  );
  return {
    entry: { width, height, sourceWidth, sourceHeight, variants: [{ format: 'jpeg', width, height, hash: contentHash(data) }] },
    blobs: [data],
    ms: performance.now() - started,
  };
}

/** Encode one source: every width in AVIF and WebP, and the JPEG fallback, in memory. */
async function encode(bytes: Buffer, social: boolean, queue: Scheduler): Promise<{ entry: Entry; blobs: Buffer[]; ms: number }> {
  const sharp = await loadSharp();
  const { isSvg, sourceWidth, sourceHeight } = await uprightSize(sharp, bytes);
  const target = social ? { ...IMAGE_OPTIONS.social } : clamp(sourceWidth, sourceHeight);
  // The image's place in the queue: its estimated CPU cost (every output's pixels by format).
  const pixels = (width: number) => width * Math.round((width * target.height) / target.width);
  const run = queue(srcsetWidths(target.width).reduce((sum, w) => sum + pixels(w) * (COST.avif + COST.webp), pixels(target.width) * COST.jpeg));
  // SVG is rasterised at a density that gives at least the target size (72 dpi = its own size).
  const scale = Math.max(target.width / sourceWidth, target.height / sourceHeight, 1);
  const open = (): Sharp => (isSvg ? sharp(bytes, { density: Math.min(72 * scale, 2400) }) : sharp(bytes));
  // Decode once to upright sRGB pixels at the served size; every output is resized from these.
  let pipeline = open().rotate();
  pipeline = social
    ? pipeline.resize(target.width, target.height, { fit: 'cover', position: 'attention' })
    : pipeline.resize(target.width, target.height, { fit: 'inside', withoutEnlargement: true });
  // Time spent on this image's jobs (not waiting for the queue): what the progress line shows.
  let ms = 0;
  const timed = async <T>(job: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await job();
    } finally {
      ms += performance.now() - started;
    }
  };
  const { decoded, info, raw, opaque } = await run(Infinity, () => timed(async () => {
    const { data, info } = await pipeline.toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } } as const;
    // An alpha channel that is fully opaque (SVG artwork, most PNGs) only costs bytes.
    const opaque = info.channels === 4 && (await sharp(data, raw).stats()).isOpaque;
    return { decoded: data, info, raw, opaque };
  }));
  const base = () => (opaque ? sharp(decoded, raw).removeAlpha() : sharp(decoded, raw));

  const q = IMAGE_OPTIONS.quality;
  const jobs: { format: Format; width: number; make: () => Sharp }[] = [];
  for (const width of srcsetWidths(info.width)) {
    const resized = () => (width === info.width ? base() : base().resize({ width }));
    jobs.push({ format: 'avif', width, make: () => resized().avif({ quality: q, effort: IMAGE_OPTIONS.avifEffort }) });
    jobs.push({ format: 'webp', width, make: () => resized().webp({ quality: q, effort: IMAGE_OPTIONS.webpEffort }) });
  }
  // The fallback `src` is a JPEG at the served size, not a WebP: it is also the og:image (networks
  // do not all read WebP, and the social image must be exactly 1200x630) and the JSON-LD
  // contentUrl, and it is what the few browsers without AVIF and WebP get. Browsers that read
  // AVIF or WebP take the <source> srcsets and never download it.
  jobs.push({ format: 'jpeg', width: info.width, make: () => base().flatten({ background: '#ffffff' }).jpeg({ quality: q, mozjpeg: IMAGE_OPTIONS.mozjpeg }) });

  const done = await Promise.all(
    jobs.map((job) =>
      run(job.width * Math.round((job.width * info.height) / info.width) * COST[job.format], () => timed(async () => {
        const { data, info: out } = await job.make().toBuffer({ resolveWithObject: true });
        return { variant: { format: job.format, width: out.width, height: out.height, hash: contentHash(data) }, data };
      })),
    ),
  );
  return {
    entry: { width: info.width, height: info.height, sourceWidth, sourceHeight, variants: done.map((d) => d.variant) },
    blobs: done.map((d) => d.data),
    ms,
  };
}

/**
 * What a published SVG must not hold after sanitising: it is served as an SVG document on the
 * site's origin, and on a host that sends no CSP header (`--host static`) a script in it would run.
 */
const ACTIVE_SVG = /<script|<foreignObject|<iframe|<embed|<object|\son[a-z]+\s*=|(?:href|src|action|data)\s*=\s*["']?\s*(?:javascript|data|vbscript):|@import|url\(\s*["']?\s*(?!#)|<style[^>]*>[^<]*\\|style="[^"]*\\/i;

/** CSS of an SVG icon with nothing it would load: `@import` rules dropped, a `url()` that leaves the file made `none`. */
function localCss(css: string): string {
  return css.replace(/@import[^;]*;?/gi, '').replace(/url\(\s*(["']?)\s*(?!#)[^)]*\)/gi, 'none');
}

/**
 * An SVG icon through SVGO: editor namespaces, metadata, comments and absolute paths removed, and
 * sanitised: scripts, event handlers, `javascript:` links (SVGO's removeScripts), any other `on…`
 * attribute, foreign objects and external or `data:` references removed; what is left is checked.
 */
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
  const dropActive = {
    name: 'removeActiveContent',
    fn: () => ({
      element: {
        enter(node: { name: string; attributes: Record<string, string>; children?: { type: string; value?: string }[] }, parent: { children: unknown[] }) {
          // HTML inside an SVG, and elements that load other documents: never needed by an icon.
          if (/^(?:foreignObject|iframe|embed|object)$/i.test(node.name.split(':').pop()!)) {
            parent.children = parent.children.filter((c) => c !== node);
            return;
          }
          // Styles keep their rules but load nothing: no @import, no url() out of the file. A style
          // with a CSS escape (`@\69mport`) goes whole: an icon's colours need none, and an escape
          // could spell what the check looks for.
          if (node.name === 'style') {
            if ((node.children ?? []).some((c) => typeof c.value === 'string' && c.value.includes('\\'))) {
              parent.children = parent.children.filter((c) => c !== node);
              return;
            }
            for (const c of node.children ?? []) if (typeof c.value === 'string') c.value = localCss(c.value);
          }
          for (const [name, value] of Object.entries(node.attributes)) {
            if (name === 'style') {
              if (value.includes('\\')) delete node.attributes[name];
              else node.attributes[name] = localCss(value);
            }
            if (/^on/i.test(name)) delete node.attributes[name];
            // Links and references stay inside the file (#id): nothing external, no data: or script URLs.
            else if (/(?:^|:)(?:href|src)$/i.test(name) && !value.trim().startsWith('#')) delete node.attributes[name];
          }
        },
      },
    }),
  };
  const out = optimize(bytes.toString('utf8'), { multipass: true, plugins: ['preset-default', 'removeScripts', dropActive, dropPaths] }).data;
  if (ABSOLUTE_PATH.test(out)) throw new Error('still names a path on the author\'s machine after optimising (in its text?): remove it');
  if (ACTIVE_SVG.test(out)) throw new Error(`still holds active content after sanitising (${ACTIVE_SVG.exec(out)![0].trim()}): an icon needs shapes only; remove it`);
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
  const name = `${createHash('sha256').update(optionsKey).update(ICON_PIPELINE).update(bytes).digest('hex').slice(0, 24)}${ext}`;
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

/** A key naming the `used`, `names` and `shares` options, to tell whether a cached result was made for the same uses. */
export function usedKey(options: Pick<ImageOptions, 'used' | 'names' | 'shares'>): string {
  const { used, names, shares } = options;
  return JSON.stringify([used ? [...used].sort() : '*', [...(names ?? [])], [...(shares ?? [])].sort()]);
}

/**
 * A name as it may stand in a URL on any host: lowercase ASCII letters and digits in runs joined
 * by single hyphens (accents dropped: `Málaga` → `malaga`), at most 64 characters; `image` when
 * nothing is left (a name in another script, or none).
 */
export function urlName(name: string | undefined): string {
  const ascii = (name ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return ascii.slice(0, 64).replace(/-+$/, '') || 'image';
}

/**
 * The name each image's files are published under (`<name>-<width>.<hash>.<ext>`): the name
 * `names` gives it, made URL-safe (`urlName`), taken in the order of `names` (the most important
 * first), then the images without one (`image`) in path order. An image whose name another one
 * has already gets `-2`, `-3`… until it is free, so no two images ever share a name. The source
 * file's own name is never used: a phone's `IMG_20250312_184455.jpg` says when it was taken.
 */
export function publicNames(files: readonly string[], names: ReadonlyMap<string, string | undefined> = new Map()): Map<string, string> {
  const wanted = new Set(files);
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const file of [...[...names.keys()].filter((f) => wanted.has(f)), ...[...files].sort()]) {
    if (out.has(file)) continue;
    const base = urlName(names.get(file));
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
    taken.add(name);
    out.set(file, name);
  }
  return out;
}

/** A link under the images folder to the content folder, or to another folder holding the images folder (files.ts listFilesWithin). */
export const ENCLOSING_LINK = 'is a link to a folder that holds the images folder (the content folder, say): everything in it, posts and text tables too, would count as images, so it is not followed. Link a folder of images instead';
/** Why a file in the images folder the pipeline cannot read (HEIC, RAW, text) is an error. */
export const NOT_CONVERTIBLE = `not an image the build can convert (it reads ${RASTER_NAMES}); it would be published as it is, metadata included. Convert it (for example to JPEG) or move it out of the images folder`;

/** Files of the images folder (relative) the pipeline cannot read: an error even when unused, so nothing unconverted sits among the images. */
export function unconvertible(all: readonly string[], icons: ReadonlySet<string>): string[] {
  return all.filter((rel) => !icons.has(rel) && !RASTER.test(rel));
}

/**
 * Process `content/images`: AVIF, WebP and a JPEG fallback for every image a page uses, the icons
 * re-encoded without metadata; anything the pipeline cannot read is an error.
 */
export async function processImages(contentDir: string, options: ImageOptions): Promise<ProcessedImages> {
  const dir = path.join(contentDir, 'images');
  const cacheRoot = path.join(options.cacheDir, 'images');
  // Links leading out of the content folder are left out (build.ts reports them).
  const all = listFilesWithin(dir, contentDir).files;
  const wanted = (rel: string) => !options.used || options.used.has(rel) || options.icons.has(rel);
  const unreadable = unconvertible(all, options.icons);
  const names = all.filter((rel) => wanted(rel) && !unreadable.includes(rel));
  const published = publicNames(names.filter((rel) => !options.icons.has(rel)), options.names);
  const queue = scheduler(ENCODERS);
  /** Cache entries read or made in this build, by key: two identical sources are encoded once. */
  const entries = new Map<string, Promise<{ entry: Entry; blobs: Buffer[]; ms?: number }>>();
  const files: OutputFile[] = [];
  const assets = new Map<string, ImageAsset>();
  const stats: ImageStats = { sources: 0, files: 0, cached: 0, encoded: 0 };
  const used = new Set<string>();
  const errors: { rel: string; message: string }[] = [];
  const optionsKey = JSON.stringify({ PIPELINE, sharp: sharpVersionOf(), ...IMAGE_OPTIONS });
  for (const rel of unreadable) errors.push({ rel, message: NOT_CONVERTIBLE });

  let finished = 0;
  const tick = (current: string) => options.progress?.(++finished, names.length, current);
  await Promise.all(
    names
      // Each resolves to what the progress line says of it: its path, and its encoding time.
      .map(async (rel): Promise<string> => {
      const bytes = await fs.readFile(path.join(dir, rel));
      const flat = rel.replace(/\//g, '-');
      if (options.icons.has(rel)) {
        let made: Buffer;
        try {
          made = await icon(rel, bytes, cacheRoot, optionsKey, used);
        } catch (err) {
          errors.push({ rel, message: (err as Error).message });
          return rel;
        }
        const out = `assets/img/${hashedName(flat, contentHash(made))}`;
        files.push({ file: out, content: made });
        assets.set(rel, { src: `/${out}`, width: 0, height: 0, sources: [] });
        return rel;
      }
      const social = rel === options.social;
      // A cache entry by kind ('social', 'photo', 'share') and source bytes, read or made once per build.
      const cached = (kind: string, make: () => Promise<{ entry: Entry; blobs: Buffer[]; ms: number }>) => {
        const key = createHash('sha256').update(optionsKey).update(kind).update(bytes).digest('hex').slice(0, 24);
        used.add(key);
        let pending = entries.get(key);
        const first = !pending;
        if (!pending) {
          const entryDir = path.join(cacheRoot, key);
          pending = (async () => {
            const hit = await readEntry(entryDir);
            if (hit) return hit;
            const made = await make();
            await writeEntry(entryDir, made.entry, made.blobs);
            return made;
          })();
          entries.set(key, pending);
        }
        // A copy of a source met earlier in this build counts as cached: its files were made once.
        return pending.then((r) => ({ ...r, ms: first ? r.ms : undefined }));
      };
      const sharing = Boolean(options.shares?.has(rel)) && !social;
      stats.sources++;
      let result: Awaited<ReturnType<typeof cached>>;
      let share: Awaited<ReturnType<typeof cached>> | undefined;
      try {
        [result, share] = await Promise.all([
          cached(social ? 'social' : 'photo', () => encode(bytes, social, queue)),
          sharing ? cached('share', () => encodeShare(bytes, queue)) : undefined,
        ]);
      } catch (err) {
        errors.push({ rel, message: (err as Error).message });
        return rel;
      }
      const ms = result.ms === undefined && share?.ms === undefined ? undefined : (result.ms ?? 0) + (share?.ms ?? 0);
      const encoded = ms !== undefined;
      if (encoded) stats.encoded++;
      else stats.cached++;
      const { entry, blobs } = result;
      // Named after the site's data (an id, a post's slug), never after the source file.
      const stem = published.get(rel)!;
      const urls = entry.variants.map((v, i) => {
        const out = `assets/img/${stem}-${v.width}.${publishedHash(v.hash)}.${EXT[v.format]}`;
        files.push({ file: out, content: blobs[i]! });
        return `/${out}`;
      });
      stats.files += entry.variants.length;
      let shareUrl: string | undefined;
      if (share) {
        const v = share.entry.variants[0]!;
        const out = `assets/img/${stem}-${v.width}x${v.height}.${publishedHash(v.hash)}.${EXT[v.format]}`;
        files.push({ file: out, content: share.blobs[0]! });
        stats.files++;
        shareUrl = `/${out}`;
      }
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
        // The social image's own fallback is already the 1200x630 crop.
        ...(shareUrl ? { share: shareUrl } : social && options.shares?.has(rel) ? { share: urls[fallback]! } : {}),
      });
      return encoded ? `${rel} (${(ms / 1000).toFixed(1)} s of encoding)` : rel;
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
    usedKey: usedKey(options),
  };
}
