/**
 * Issue 24: a post is shared with its own photo, and published image names come from the site's
 * data (a post's slug, a gallery id), never from the source file: a phone's IMG_20250312_184455.jpg
 * would tell every visitor when the photo was taken. One fixture: the sample content with a phone
 * photo in a post (en and es; ru left without it), a phone-named gallery photo, and a post whose
 * slug is a gallery id.
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { load } from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { bytes, copyContent, edit, EPOCH, listFiles, read, tmpDir, type MemoryOutput } from '../helpers/site.ts';
import { renderSite } from '../helpers/render.ts';
import { buildDate, resolveConfig } from '../../src/config.ts';
import { WatchSession } from '../../src/watch/session.ts';
import { parseHtml } from '../helpers/dom.ts';

/** What a phone's file names give away: the date and time of the shot. */
const PHONE_POST = 'IMG_20250312_184455.jpg';
const PHONE_GALLERY = 'gallery/img_20250313_101010.jpg';
const PHONE_OTHER = 'IMG_20250314_090000.jpg';
const LEAKS = ['IMG_20250312', 'img_2025', '20250312', '20250313', '20250314'];
const ALT = 'The harbour at dusk';
/** The photo's colour: a teal nothing else on the site has. */
const TEAL = [30, 150, 140] as const;

/** A photo as a phone leaves it (EXIF with the time of the shot), a fixed pattern around `rgb`, so its cache entry is reused. */
function phonePhoto(width: number, height: number, rgb: readonly [number, number, number]): Promise<Buffer> {
  const px = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const d = ((x * 7 + y * 13) % 21) - 10;
      for (let c = 0; c < 3; c++) px[i + c] = Math.max(0, Math.min(255, rgb[c]! + d));
    }
  return sharp(px, { raw: { width, height, channels: 3 } })
    .withExif({ IFD0: { Make: 'Google', Model: 'Pixel 8', DateTime: '2025:03:12 18:44:55' } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Put `markdown` at the start of a post's body (after its front matter). */
function prepend(content: string, file: string, markdown: string): void {
  const p = path.join(content, file);
  const text = readFileSync(p, 'utf8');
  const end = text.indexOf('\n---', 3) + '\n---\n'.length;
  writeFileSync(p, `${text.slice(0, end)}\n${markdown}\n${text.slice(end)}`);
}

/** Mean colour of an image. */
async function meanColour(image: Buffer): Promise<number[]> {
  const { channels } = await sharp(image).stats();
  return channels.slice(0, 3).map((c) => c.mean);
}

describe('issue 24: post photos and published image names', () => {
  let out: MemoryOutput;
  let content: string;
  let baseUrl: string;
  const doc = (file: string) => parseHtml(read(out, file));
  const meta = (file: string, sel: string) => doc(file).querySelector(sel)?.getAttribute('content') ?? undefined;

  beforeAll(async () => {
    content = copyContent();
    writeFileSync(path.join(content, 'images', PHONE_POST), await phonePhoto(960, 720, TEAL));
    writeFileSync(path.join(content, 'images', PHONE_GALLERY), await phonePhoto(640, 480, [160, 60, 60]));
    writeFileSync(path.join(content, 'images', PHONE_OTHER), await phonePhoto(320, 240, [60, 60, 160]));
    prepend(content, 'blog/monaco-grand-prix/en.md', `![${ALT}](/images/${PHONE_POST})`);
    prepend(content, 'blog/monaco-grand-prix/es.md', `![El puerto al anochecer](../../images/${PHONE_POST})`);
    edit(content, 'data/gallery.yaml', 'file: gallery/lifestyle-8.svg', `file: ${PHONE_GALLERY}`);
    // A post whose slug is a gallery id: its photo must not take the gallery image's name.
    mkdirSync(path.join(content, 'blog/lifestyle-1'));
    const post = readFileSync(path.join(content, 'blog/monaco-grand-prix/en.md'), 'utf8').replace(/^title: .*$/m, 'title: "A lifestyle note"').replace(/!\[[^\]]*\]\([^)]*\)/, `![A note](/images/${PHONE_OTHER})`);
    writeFileSync(path.join(content, 'blog/lifestyle-1/en.md'), post);
    const built = await renderSite(content);
    out = built.out;
    baseUrl = built.result.site!.config.baseUrl;
  }, 120_000);

  it('[R-PRIV-4][R-OPS-4] no output file name or byte (pages, JSON-LD, sitemap, manifest, host files) holds the phone file names or their timestamps', () => {
    const files = [...out.memory.keys(), ...(out.beside?.keys() ?? [])];
    for (const leak of LEAKS) expect(files.filter((f) => f.toLowerCase().includes(leak.toLowerCase())), leak).toEqual([]);
    for (const [name, map] of [['web', out.memory], ['host', out.beside ?? new Map()]] as const)
      for (const [file, content] of map) {
        const text = Buffer.from(content).toString('latin1').toLowerCase();
        for (const leak of LEAKS) expect(text.includes(leak.toLowerCase()), `${name}/${file} holds "${leak}"`).toBe(false);
      }
    // The pages do show the photos, under the post's name.
    const picture = doc('blog/monaco-grand-prix.html').querySelector('picture.post-image img')!;
    expect(picture.getAttribute('src')).toMatch(/^\/assets\/img\/monaco-grand-prix-960\.[0-9a-f]{8}\.jpg$/);
    expect(listFiles(out).filter((f) => f.startsWith('assets/img/monaco-grand-prix-')).length).toBeGreaterThanOrEqual(7);
  });

  it('[R-OPS-4][R-BUILD-9] a post with a photo is shared with it: og:image and twitter:image are its absolute 1200x630 JPEG, in the output; other posts keep the social image', async () => {
    const source = readFileSync(path.join(content, 'images', PHONE_POST));
    const social = meta('blog/madrid-luxury-dining.html', 'meta[property="og:image"]')!;
    expect(social).toMatch(/\/assets\/img\/social-1200\.[0-9a-f]{8}\.jpg$/);
    // en and es show the photo; ru does not, and is still shared with the post's photo.
    const shared = new Set<string>();
    for (const file of ['blog/monaco-grand-prix.html', 'es/blog/monaco-grand-prix.html', 'ru/blog/monaco-grand-prix.html']) {
      const og = meta(file, 'meta[property="og:image"]')!;
      expect(og, file).toMatch(new RegExp(`^${baseUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/assets/img/monaco-grand-prix-1200x630\\.[0-9a-f]{8}\\.jpg$`));
      expect(meta(file, 'meta[name="twitter:image"]'), file).toBe(og);
      shared.add(og);
      const image = bytes(out, new URL(og).pathname.slice(1));
      const m = await sharp(image).metadata();
      expect([m.format, m.width, m.height, m.exif], file).toEqual(['jpeg', 1200, 630, undefined]);
      // The post's photo, not the site's social image: its colour.
      const [mean, want] = [await meanColour(image), await meanColour(source)];
      mean.forEach((v, c) => expect(Math.abs(v - want[c]!), `${file} channel ${c}`).toBeLessThan(8));
    }
    expect(shared.size).toBe(1);
    expect(meta('blog/monaco-grand-prix.html', 'meta[property="og:image:alt"]')).toBe(ALT);
    expect(meta('es/blog/monaco-grand-prix.html', 'meta[property="og:image:alt"]')).toBe('El puerto al anochecer');
    // ru has no alt text of its own for the photo: the post's title stands in.
    expect(meta('ru/blog/monaco-grand-prix.html', 'meta[property="og:image:alt"]')).toBe(doc('ru/blog/monaco-grand-prix.html').querySelector('h1')?.textContent?.trim());
  });

  it('[R-PRIV-4][R-OPS-4] gallery images are published under their ids, and a post named like a gallery id never takes its name', () => {
    const gallery = load(readFileSync(path.join(content, 'data/gallery.yaml'), 'utf8')) as Record<'images' | 'featured' | 'portraits', { id: string }[]> & { socialImage: { id: string } };
    const ids = [...gallery.images, ...gallery.featured, ...gallery.portraits, gallery.socialImage].map((g) => g.id);
    const home = read(out, 'index.html');
    // The icons (icon.svg, touch-icon.png) keep their fixed names.
    const urls = new Set([...home.matchAll(/\/assets\/img\/[^"\s,]+/g)].map((m) => m[0]).filter((u) => !/^\/assets\/img\/(?:touch-)?icon\.[0-9a-f]{8}\.(?:svg|png)$/.test(u)));
    for (const id of ids) {
      const mine = listFiles(out).filter((f) => new RegExp(`^assets/img/${id}-\\d+\\.[0-9a-f]{8}\\.(?:avif|webp|jpg)$`).test(f));
      expect(mine.length, id).toBeGreaterThanOrEqual(3);
    }
    // Every photo URL the home page shows (pictures, JSON-LD, preload) is named after a gallery id.
    expect(urls.size).toBeGreaterThan(20);
    for (const url of urls) expect(ids.some((id) => new RegExp(`^/assets/img/${id}-\\d+\\.`).test(url)), url).toBe(true);
    // The phone-named gallery photo is lifestyle-8; the post lifestyle-1's photo is lifestyle-1-2.
    expect([...urls].some((u) => u.startsWith('/assets/img/lifestyle-8-640.'))).toBe(true);
    expect(doc('blog/lifestyle-1.html').querySelector('picture.post-image img')!.getAttribute('src')).toMatch(/^\/assets\/img\/lifestyle-1-2-320\.[0-9a-f]{8}\.jpg$/);
    expect(doc('index.html').querySelector('img[src^="/assets/img/lifestyle-1-"]')!.getAttribute('src')).toMatch(/^\/assets\/img\/lifestyle-1-1200\.[0-9a-f]{8}\.jpg$/);
  });
});

describe('issue 24: a photo two posts share', () => {
  it('[R-INC-2][R-OPS-4] watch: when an older post starts showing a newer post\'s photo (the photo takes the older post\'s name), the newer post\'s pages follow, never a removed file', async () => {
    const content = copyContent();
    writeFileSync(path.join(content, 'images', PHONE_POST), await phonePhoto(960, 720, TEAL));
    // monaco-grand-prix (2025-04-22) shows it first; madrid-luxury-dining (2025-03-12) is older.
    prepend(content, 'blog/monaco-grand-prix/en.md', `![${ALT}](/images/${PHONE_POST})`);
    const outDir = path.join(tmpDir('site-watch-'), 'dev');
    const session = new WatchSession({ ...resolveConfig({ content, out: outDir, quiet: true }), today: buildDate({ SOURCE_DATE_EPOCH: EPOCH }) });
    const srcOf = () => /<picture class="post-image">.*?<img src="([^"]+)"/.exec(readFileSync(path.join(outDir, 'blog/monaco-grand-prix.html'), 'utf8'))?.[1];
    expect((await session.rebuild([])).ok).toBe(true);
    expect(srcOf()).toMatch(/^\/assets\/img\/monaco-grand-prix-960\./);

    prepend(content, 'blog/madrid-luxury-dining/en.md', `![${ALT}](/images/${PHONE_POST})`);
    const report = await session.rebuild([path.join(content, 'blog/madrid-luxury-dining/en.md')]);
    expect(report.ok, report.error).toBe(true);
    // The photo is the older post's now, and the newer post's page shows it under that name.
    expect(srcOf()).toMatch(/^\/assets\/img\/madrid-luxury-dining-960\./);
    expect(existsSync(path.join(outDir, srcOf()!))).toBe(true);
  }, 120_000);
});
