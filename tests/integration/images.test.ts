/** Images at build time: modern formats in several widths, no metadata, no originals, cache, LCP preload. */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSite, copyContent, edit, htmlFiles, listFiles, read, runCli, tmpDir } from '../helpers/site.ts';
import { parseHtml } from '../helpers/dom.ts';
import { renderSite } from '../helpers/render.ts';

const IMAGE_FILE = /\.(?:avif|webp|jpe?g|png|gif|tiff?)$/i;
const SUMMARY = /images: (\d+) sources, (\d+) files \((\d+) from cache, (\d+) encoded\)/;

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/** URLs of a srcset, without descriptors. */
const srcsetUrls = (srcset: string) => srcset.split(',').map((s) => s.trim().split(/\s+/)[0]!);

/**
 * A photo as a camera would leave it: EXIF with GPS and camera model, XMP and an ICC profile, and
 * EXIF orientation 6 (stored 1000x750, shown upright as 750x1000). Pixels are a fixed pattern, so
 * the file (and its cache entry) is the same on every run.
 */
async function cameraPhoto(): Promise<Buffer> {
  const [w, h] = [1000, 750];
  const px = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      px[i] = (x * 255) / w;
      px[i + 1] = (y * 255) / h;
      px[i + 2] = ((x ^ y) & 0xff) >> 1;
    }
  return sharp(px, { raw: { width: w, height: h, channels: 3 } })
    .withMetadata({ orientation: 6 })
    .withIccProfile('p3')
    .withExif({
      IFD0: { Make: 'Canon', Model: 'EOS Private', Copyright: 'Owner Name', ImageDescription: 'home address' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 25/1 1234/100', GPSLongitudeRef: 'W', GPSLongitude: '3/1 42/1 5/1' },
    })
    .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:creator="Owner Name"/></rdf:RDF></x:xmpmeta>')
    .jpeg({ quality: 90 })
    .toBuffer();
}

describe('images of the shipped site (plus one camera photo with metadata)', () => {
  let out: string;
  let content: string;
  let summary: string;
  const doc = (file: string) => parseHtml(read(out, file));
  const bytesOf = (url: string) => readFileSync(path.join(out, url));

  beforeAll(async () => {
    content = copyContent();
    const photo = await cameraPhoto();
    writeFileSync(path.join(content, 'images/gallery/camera.jpg'), photo);
    // Upright and served at its own size: 750x1000.
    edit(content, 'data/gallery.yaml', 'file: gallery/lifestyle-8.svg', 'file: gallery/camera.jpg');
    const built = await buildSite(content);
    out = built.out;
    summary = built.result.stdout;
  }, 300_000);

  it('[R-BUILD-9] every <img> has width, height and alt; every <picture> has AVIF and WebP sources whose files exist (the LCP image WebP only, the hidden carousel none)', async () => {
    let pictures = 0;
    for (const f of htmlFiles(out)) {
      const d = doc(f);
      for (const img of d.querySelectorAll('img')) {
        expect(Number(img.getAttribute('width')), `${f} ${img.outerHTML}`).toBeGreaterThan(0);
        expect(Number(img.getAttribute('height')), `${f} ${img.outerHTML}`).toBeGreaterThan(0);
        expect(img.hasAttribute('alt'), `${f} ${img.outerHTML}`).toBe(true);
        expect(img.getAttribute('src')!.endsWith('.svg'), `${f}: an original SVG as <img>`).toBe(false);
      }
      // The hidden featured carousel: plain JPEGs, no sources to download (spec: it exists, hidden).
      for (const img of d.querySelectorAll('[data-featured] img')) expect(img.closest('picture')?.querySelectorAll('source').length ?? 0, f).toBe(0);
      for (const picture of d.querySelectorAll('picture')) {
        pictures++;
        const img = picture.querySelector('img')!;
        const types = [...picture.querySelectorAll('source')].map((s) => s.getAttribute('type'));
        if (picture.closest('[data-featured]')) expect(types, f).toEqual([]);
        else if (img.getAttribute('fetchpriority') === 'high') expect(types, f).toEqual(['image/webp']);
        else expect(types, f).toEqual(['image/avif', 'image/webp']);
        for (const source of picture.querySelectorAll('source')) {
          expect(source.getAttribute('sizes'), f).toBeTruthy();
          for (const url of srcsetUrls(source.getAttribute('srcset')!)) expect(listFiles(out).includes(url.slice(1)), `${f}: ${url}`).toBe(true);
        }
        // The fallback is a JPEG with the same aspect ratio as the intrinsic size the <img> declares.
        const fallback = await sharp(bytesOf(img.getAttribute('src')!)).metadata();
        expect(fallback.format).toBe('jpeg');
        expect(fallback.width / fallback.height).toBeCloseTo(Number(img.getAttribute('width')) / Number(img.getAttribute('height')), 2);
      }
    }
    // Every page with images has some (the hidden carousel's plain JPEGs are bare <img>s).
    expect(pictures).toBeGreaterThan(80);
  });

  it('[R-BUILD-9] srcset widths are real, formats are AVIF and WebP, nothing exceeds 1920x1080 or is upscaled', async () => {
    const home = doc('index.html');
    const checked = new Set<string>();
    for (const source of home.querySelectorAll('picture source')) {
      const type = source.getAttribute('type')!;
      const entries = source.getAttribute('srcset')!.split(',').map((s) => s.trim().split(/\s+/));
      const img = source.parentElement!.querySelector('img')!;
      const widths = entries.map(([, w]) => Number(w!.slice(0, -1)));
      expect(widths, 'ascending widths, the largest is the served width').toEqual([...widths].sort((a, b) => a - b));
      expect(widths.at(-1)).toBe(Number(img.getAttribute('width')));
      for (const [url, w] of entries) {
        if (checked.has(url!)) continue;
        checked.add(url!);
        const m = await sharp(bytesOf(url!)).metadata();
        expect(`${m.format}/${m.compression ?? ''}`, url).toBe(type === 'image/avif' ? 'heif/av1' : 'webp/');
        expect(m.width, url).toBe(Number(w!.slice(0, -1)));
      }
    }
    expect(checked.size).toBeGreaterThan(40);
    for (const f of listFiles(out).filter((f) => f.startsWith('assets/img/') && IMAGE_FILE.test(f))) {
      const m = await sharp(path.join(out, f)).metadata();
      expect(m.width, f).toBeLessThanOrEqual(1920);
      expect(m.height, f).toBeLessThanOrEqual(1080);
    }
    // The 1200x900 artwork gives 480, 800 and 1200; the 800x1000 portrait 480 and 800 (never 1200).
    const widthsOf = (stem: string) => [...new Set(listFiles(out).filter((f) => f.startsWith(`assets/img/${stem}-`)).map((f) => Number(/-(\d+)\.[0-9a-f]{8}\./.exec(f)![1])))].sort((a, b) => a - b);
    // Files are named after the gallery id (lifestyle-1), never the source file (gallery/lifestyle-1.svg).
    expect(widthsOf('lifestyle-1')).toEqual([480, 800, 1200]);
    expect(widthsOf('portrait-1')).toEqual([480, 800]);
    // The camera photo (gallery/camera.jpg, id lifestyle-8) is turned upright before its orientation tag goes.
    const camera = home.querySelector('img[src^="/assets/img/lifestyle-8-"]')!;
    expect([camera.getAttribute('width'), camera.getAttribute('height')]).toEqual(['750', '1000']);
    // 14 shipped images minus lifestyle-8 (no longer used: not converted) plus the photo.
    expect(summary).toMatch(SUMMARY);
    expect(Number(SUMMARY.exec(summary)![1])).toBe(14);
  });

  it('[R-BUILD-9] og:image and twitter:image are a 1200x630 JPEG', async () => {
    for (const f of ['index.html', 'es/rates.html', 'blog/monaco-grand-prix.html']) {
      const d = doc(f);
      const og = d.querySelector('meta[property="og:image"]')!.getAttribute('content')!;
      expect(d.querySelector('meta[name="twitter:image"]')!.getAttribute('content')).toBe(og);
      expect(og).toMatch(/^https:\/\/[^/]+\/assets\/img\/social-1200\.[0-9a-f]{8}\.jpg$/);
      const m = await sharp(bytesOf(new URL(og).pathname)).metadata();
      expect([m.format, m.width, m.height]).toEqual(['jpeg', 1200, 630]);
    }
  });

  it('[R-PRIV-4] no output image carries EXIF, GPS, XMP, IPTC or an ICC profile', async () => {
    const images = listFiles(out).filter((f) => IMAGE_FILE.test(f));
    expect(images.filter((f) => f.startsWith('assets/img/lifestyle-8-')).length).toBeGreaterThanOrEqual(5);
    for (const f of images) {
      const m = await sharp(path.join(out, f)).metadata();
      expect({ file: f, exif: m.exif, xmp: m.xmp, iptc: m.iptc, icc: m.icc, orientation: m.orientation }).toEqual({ file: f, exif: undefined, xmp: undefined, iptc: undefined, icc: undefined, orientation: undefined });
      const raw = readFileSync(path.join(out, f)).toString('latin1');
      for (const secret of ['EOS Private', 'Owner Name', 'GPS']) expect(raw.includes(secret), `${f} contains "${secret}"`).toBe(false);
    }
  });

  it('[R-PRIV-4][R-SAFE-3] no source image is copied to dist, not even the icons (re-encoded)', () => {
    const sources = new Map<string, string>();
    const dir = path.join(content, 'images');
    for (const f of listFiles(dir)) sources.set(sha(readFileSync(path.join(dir, f))), f);
    const copied = listFiles(out)
      .filter((f) => sources.has(sha(readFileSync(path.join(out, f)))))
      .map((f) => sources.get(sha(readFileSync(path.join(out, f)))));
    expect(copied).toEqual([]);
    expect(listFiles(out).filter((f) => f.endsWith('.svg'))).toEqual([expect.stringMatching(/^assets\/img\/icon\.[0-9a-f]{8}\.svg$/)]);
  });

  it('[R-BUILD-9] the hero (LCP) image is preloaded with high priority on home and about; every other image is lazy', () => {
    for (const [file, cls] of [['index.html', 'hero-image'], ['es.html', 'hero-image'], ['about.html', 'about-portrait']] as const) {
      const d = doc(file);
      const preloads = [...d.querySelectorAll('head link[rel="preload"][as="image"]')];
      expect(preloads, file).toHaveLength(1);
      const link = preloads[0]!;
      const hero = d.querySelector(`picture.${cls}`)!;
      const webp = hero.querySelector('source[type="image/webp"]')!;
      expect(link.getAttribute('type')).toBe('image/webp');
      expect(link.getAttribute('fetchpriority')).toBe('high');
      expect(link.getAttribute('imagesrcset')).toBe(webp.getAttribute('srcset'));
      expect(link.getAttribute('imagesizes')).toBe(webp.getAttribute('sizes'));
      const img = hero.querySelector('img')!;
      expect([img.getAttribute('fetchpriority'), img.getAttribute('loading')]).toEqual(['high', 'eager']);
      const others = [...d.querySelectorAll('img')].filter((i) => i !== img);
      if (file !== 'about.html') expect(others.length, file).toBeGreaterThanOrEqual(12);
      for (const o of others) expect([o.getAttribute('loading'), o.getAttribute('fetchpriority')], o.outerHTML).toEqual(['lazy', null]);
    }
    for (const file of ['rates.html', 'blog/monaco-grand-prix.html']) expect(doc(file).querySelector('link[rel="preload"][as="image"]'), file).toBeNull();
  });
});

describe('[R-BUILD-9] image cache and declared sizes', () => {
  it('a second build with unchanged images reuses the cache: 0 encoded', async () => {
    const content = copyContent();
    // A new image nobody has built before, so the first build must encode it.
    const nonce = `${process.pid}-${Date.now()}`;
    writeFileSync(path.join(content, 'images/probe.svg'), `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48"><!-- ${nonce} --><rect width="64" height="48" fill="#a86b4c"/></svg>`);
    // Used in place of lifestyle-8 (an image nothing uses is not converted at all).
    edit(content, 'data/gallery.yaml', 'file: gallery/lifestyle-8.svg', 'file: probe.svg');
    const counts = (stdout: string) => {
      const m = SUMMARY.exec(stdout);
      expect(m, stdout).not.toBeNull();
      const [sources, files, cached, encoded] = m!.slice(1).map(Number) as [number, number, number, number];
      return { sources, files, cached, encoded };
    };
    const out = path.join(tmpDir(), 'dist');
    const first = await runCli(['build', '--content', content, '--out', out]);
    expect(first.code, first.stderr).toBe(0);
    const a = counts(first.stdout);
    expect(a.sources).toBe(14);
    expect(a.encoded).toBeGreaterThanOrEqual(1);
    expect(a.cached + a.encoded).toBe(a.sources);
    const second = await runCli(['build', '--content', content, '--out', out]);
    expect(second.code, second.stderr).toBe(0);
    expect(counts(second.stdout)).toEqual({ sources: 14, files: a.files, cached: 14, encoded: 0 });
    // probe.svg is published under the id of the entry it replaced.
    expect(listFiles(out).filter((f) => f.startsWith('assets/img/lifestyle-8-64.'))).toHaveLength(3);
  });

  it('[R-FAST-4] two identical new images in one build are encoded once', async () => {
    const content = copyContent();
    // Noise nobody has built before: the image cache cannot have it.
    const noise = Buffer.from(Array.from({ length: 48 * 32 * 3 }, () => Math.floor(Math.random() * 256)));
    const png = await sharp(noise, { raw: { width: 48, height: 32, channels: 3 } }).png().toBuffer();
    writeFileSync(path.join(content, 'images/gallery/twin-a.png'), png);
    writeFileSync(path.join(content, 'images/gallery/twin-b.png'), png);
    edit(content, 'data/gallery.yaml', 'file: gallery/lifestyle-8.svg', 'file: gallery/twin-a.png');
    edit(content, 'data/gallery.yaml', 'file: gallery/lifestyle-7.svg', 'file: gallery/twin-b.png');
    const { result, out } = await renderSite(content);
    expect(result.stats.images).toMatchObject({ sources: 14, encoded: 1, cached: 13 });
    // Each under its own gallery id (twin-a is lifestyle-8, twin-b lifestyle-7).
    const twins = listFiles(out).filter((f) => /^assets\/img\/lifestyle-[78]-48\./.test(f));
    expect(twins.filter((f) => f.includes('lifestyle-8-'))).toHaveLength(3);
    expect(twins.filter((f) => f.includes('lifestyle-7-'))).toHaveLength(3);
  });

  it('[R-OPS-4] gallery.yaml takes no width/height: sizes come from the files (a typed size is an unknown key)', async () => {
    const content = copyContent();
    edit(content, 'data/gallery.yaml', 'file: gallery/lifestyle-3.svg }', 'file: gallery/lifestyle-3.svg, width: 1200, height: 800 }');
    const r = await runCli(['build', '--content', content, '--out', path.join(tmpDir(), 'dist')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/data\/gallery\.yaml:\d+:\d+: error \[schema\] images\[lifestyle-3\]\.width: unknown keys? "width"/);
  });
});
