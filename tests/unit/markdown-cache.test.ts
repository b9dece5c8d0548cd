/**
 * Posts' HTML kept between one-shot builds (src/content/markdown-cache.ts): entries survive a
 * reopen byte for byte, builds append, a file cut short or not of this format costs entries and
 * never yields wrong ones, and dead entries are dropped once they outweigh the live ones.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { KeptMarkdown } from '../../src/content/markdown-cache.ts';
import { ROOT, tmpDir } from '../helpers/site.ts';

const HTML = (i: number) => `<p>Post ${i}: Ωμέγα, Москва, 😀, "quotes" &amp; <a href="/x">link</a></p>\n`.repeat(1 + (i % 3));
const digest = (i: number) => `digest-${i}`;

function fileIn(dir = tmpDir()): string {
  return KeptMarkdown.fileOf(dir, '/some/content', 'a'.repeat(64));
}

/** A cache of posts `from`..`to` (exclusive) saved to `file`, with those live. */
function saved(file: string, from: number, to: number, live = range(from, to)): void {
  const kept = KeptMarkdown.open(file);
  for (let i = from; i < to; i++) kept.add(digest(i), HTML(i));
  kept.save(new Set(live.map(digest)));
  kept.close();
}
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

function contents(file: string, ids: number[]): (string | undefined)[] {
  const kept = KeptMarkdown.open(file);
  try {
    return ids.map((i) => kept.get(digest(i)));
  } finally {
    kept.close();
  }
}

afterEach(() => {
  KeptMarkdown.wholeBytes = 64 << 20;
});

describe("posts' kept markdown", () => {
  it('keeps every entry byte for byte across a reopen, read whole or entry by entry', () => {
    const file = fileIn();
    expect(KeptMarkdown.open(file).size).toBe(0);
    saved(file, 0, 50);
    expect(contents(file, range(0, 50))).toEqual(range(0, 50).map(HTML));
    expect(contents(file, [50])).toEqual([undefined]);
    // The same file read entry by entry (a cache larger than the whole-file bound).
    KeptMarkdown.wholeBytes = 0;
    expect(contents(file, range(0, 50))).toEqual(range(0, 50).map(HTML));
  });

  it('appends what a later build made, as a frame of its own', () => {
    const file = fileIn();
    saved(file, 0, 10);
    const before = readFileSync(file);
    saved(file, 10, 20, range(0, 20));
    // The first frame's bytes are untouched: appended, not written anew.
    const after = readFileSync(file);
    expect(after.length).toBeGreaterThan(before.length);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    const kept = KeptMarkdown.open(file);
    expect(kept.size).toBe(20);
    kept.close();
    expect(contents(file, range(0, 20))).toEqual(range(0, 20).map(HTML));
  });

  it('saves after it was closed (a resident process saves once the summary is out), appending or writing anew', () => {
    const file = fileIn();
    saved(file, 0, 600);
    const kept = KeptMarkdown.open(file);
    expect(kept.get(digest(1))).toBe(HTML(1));
    kept.add(digest(600), HTML(600));
    kept.close();
    kept.save(new Set(range(0, 601).map(digest)));
    expect(contents(file, [1, 600])).toEqual([HTML(1), HTML(600)]);
    // Then most entries dead: written anew after close too.
    const again = KeptMarkdown.open(file);
    again.add(digest(601), HTML(601));
    again.close();
    again.save(new Set([1, 601].map(digest)));
    const after = KeptMarkdown.open(file);
    expect(after.size).toBe(2);
    after.close();
    expect(contents(file, [1, 601, 2])).toEqual([HTML(1), HTML(601), undefined]);
  });

  it('an entry it holds already is not added again', () => {
    const file = fileIn();
    saved(file, 0, 5);
    const size = statSync(file).size;
    saved(file, 0, 5);
    expect(statSync(file).size).toBe(size);
  });

  it('a frame cut short (a build killed while appending) loses its entries only, and the next save writes the file anew', () => {
    const file = fileIn();
    saved(file, 0, 10);
    const whole = statSync(file).size;
    saved(file, 10, 20, range(0, 20));
    truncateSync(file, statSync(file).size - 7);
    expect(contents(file, [0, 9, 10, 19])).toEqual([HTML(0), HTML(9), undefined, undefined]);
    // The next build renders 10..19 again and saves: one readable file with all 20.
    saved(file, 10, 20, range(0, 20));
    expect(contents(file, range(0, 20))).toEqual(range(0, 20).map(HTML));
    // Written anew: no torn frame left in the middle.
    expect(statSync(file).size).toBeLessThan(whole * 2 + 100);
    const again = KeptMarkdown.open(file);
    expect(again.size).toBe(20);
    again.close();
  });

  it('a frame whose index does not add up to its bytes is not trusted, nor what follows it', () => {
    const file = fileIn();
    saved(file, 0, 3);
    const bytes = readFileSync(file);
    // Change one entry's length in the index ("digest-1 <n>") by one: the frame no longer adds up.
    const text = bytes.toString('latin1');
    const at = text.indexOf('digest-1 ') + 'digest-1 '.length;
    const n = Number(/^\d+/.exec(text.slice(at))![0]);
    const changed = text.slice(0, at) + String(n + 1).padStart(String(n).length, '0') + text.slice(at + String(n).length);
    writeFileSync(file, Buffer.from(changed, 'latin1'));
    expect(contents(file, [0, 1, 2])).toEqual([undefined, undefined, undefined]);
  });

  it("a frame cut short with another build's frame after it: no entry yields bytes it did not keep", () => {
    const file = fileIn();
    saved(file, 0, 6);
    const first = readFileSync(file);
    const other = fileIn();
    saved(other, 100, 104);
    // Build A's frame cut 30 bytes before its end (killed while appending), then build B's whole frame.
    const header = first.subarray(0, first.indexOf('\n') + 1);
    writeFileSync(file, Buffer.concat([first.subarray(0, first.length - 30), readFileSync(other).subarray(header.length)]));
    const got = contents(file, [...range(0, 6), ...range(100, 104)]);
    got.forEach((html, i) => expect([undefined, [...range(0, 6), ...range(100, 104)].map(HTML)[i]]).toContain(html));
    // The entries running into B's bytes are not taken.
    expect(got[5]).toBeUndefined();
    // The next good build renders that post again (as a build does on a miss) and saves: written anew, every entry whole.
    const kept = KeptMarkdown.open(file);
    expect(kept.get(digest(5))).toBeUndefined();
    kept.add(digest(5), HTML(5));
    kept.save(new Set(range(0, 6).map(digest)));
    kept.close();
    expect(contents(file, range(0, 6))).toEqual(range(0, 6).map(HTML));
  });

  it('an entry whose bytes changed on disk is not taken', () => {
    const file = fileIn();
    saved(file, 0, 3);
    const bytes = readFileSync(file);
    const at = bytes.lastIndexOf('Post 2');
    bytes.write('Tost', at, 'latin1');
    writeFileSync(file, bytes);
    expect(contents(file, [0, 1, 2])).toEqual([HTML(0), HTML(1), undefined]);
  });

  it('a damaged file is not appended to by a page worker (only the main thread writes it anew)', () => {
    const file = fileIn();
    writeFileSync(file, 'not a cache\n');
    const worker = KeptMarkdown.open(file);
    worker.add(digest(1), HTML(1));
    worker.flush();
    worker.close();
    expect(readFileSync(file, 'utf8')).toBe('not a cache\n');
  });

  it('builds creating the file at once write one header: every frame is readable', async () => {
    // Six processes wait for one moment, then each flushes its own entry into the missing file.
    const dir = tmpDir();
    const bundle = path.join(dir, 'kept.cjs');
    await build({ entryPoints: [path.join(ROOT, 'src/content/markdown-cache.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: bundle, logLevel: 'silent' });
    const file = fileIn(dir);
    const go = path.join(dir, 'go');
    const script = `const { KeptMarkdown } = require(${JSON.stringify(bundle)}); const fs = require('fs');
const kept = KeptMarkdown.open(${JSON.stringify(file)}); kept.add('digest-' + process.argv[1], 'html ' + process.argv[1]);
while (!fs.existsSync(${JSON.stringify(go)})) {}
kept.flush();`;
    const runs = range(0, 6).map((i) => new Promise<number | null>((resolve) => spawn(process.execPath, ['-e', script, String(i)], { stdio: 'ignore' }).on('exit', resolve)));
    await new Promise((r) => setTimeout(r, 300));
    writeFileSync(go, '');
    expect(await Promise.all(runs)).toEqual(range(0, 6).map(() => 0));
    const kept = KeptMarkdown.open(file);
    try {
      expect(range(0, 6).map((i) => kept.get(`digest-${i}`))).toEqual(range(0, 6).map((i) => `html ${i}`));
    } finally {
      kept.close();
    }
  });

  it('a file of another format (or garbage) is empty, and saving replaces it', () => {
    const file = fileIn();
    writeFileSync(file, 'not a cache at all\n');
    expect(contents(file, [0])).toEqual([undefined]);
    saved(file, 0, 3);
    expect(contents(file, [0, 1, 2])).toEqual([HTML(0), HTML(1), HTML(2)]);
  });

  it('drops dead entries once they outweigh the live ones, keeping the live ones', () => {
    const file = fileIn();
    saved(file, 0, 600);
    // Only 0..99 are still posts: 500 dead entries, more than half of 600.
    saved(file, 600, 600, range(0, 100));
    const kept = KeptMarkdown.open(file);
    expect(kept.size).toBe(100);
    kept.close();
    expect(contents(file, [0, 99, 100, 599])).toEqual([HTML(0), HTML(99), undefined, undefined]);
  });

  it('keeps a few dead entries rather than writing the file anew for them', () => {
    const file = fileIn();
    saved(file, 0, 600);
    const size = statSync(file).size;
    saved(file, 600, 600, range(0, 590));
    expect(statSync(file).size).toBe(size);
  });

  it("removes the same content folder's files of another generator when it saves", () => {
    const dir = tmpDir();
    const old = KeptMarkdown.fileOf(dir, '/some/content', 'b'.repeat(64));
    const other = KeptMarkdown.fileOf(dir, '/other/content', 'b'.repeat(64));
    writeFileSync(old, 'x');
    writeFileSync(other, 'x');
    saved(fileIn(dir), 0, 2);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(other)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith('.bin'))).toHaveLength(2);
  });

  it('a cache folder it cannot write costs entries, not the build', () => {
    const dir = tmpDir();
    const blocked = path.join(dir, 'file');
    writeFileSync(blocked, '');
    // The cache "folder" is a file: nothing can be created under it.
    const kept = KeptMarkdown.open(KeptMarkdown.fileOf(blocked, '/c', 'a'.repeat(64)));
    kept.add('d', '<p>x</p>');
    expect(() => kept.save(new Set(['d']))).not.toThrow();
  });
});
