/** Issue 24: the names published images get (src/assets/images.ts publicNames): from the site's data, URL-safe, unique. */
import { describe, expect, it } from 'vitest';
import { publicNames, urlName } from '../../src/assets/images.ts';

describe('[R-PRIV-4][R-OPS-4] published image names', () => {
  it('are URL-safe in any language: ASCII letters, digits and single hyphens, accents dropped; `image` when nothing is left', () => {
    expect(urlName('lifestyle-1')).toBe('lifestyle-1');
    expect(urlName('Málaga Óleo_2')).toBe('malaga-oleo-2');
    expect(urlName('  --Ωραία θέα--  ')).toBe('image');
    expect(urlName('Фото')).toBe('image');
    expect(urlName('日本の写真 3')).toBe('3');
    expect(urlName('a/../b?c#d%20e')).toBe('a-b-c-d-20e');
    expect(urlName(undefined)).toBe('image');
    expect(urlName('x'.repeat(100))).toHaveLength(64);
    for (const name of ['Málaga', 'Фото', '../..', 'a--b', '-', 'ß']) expect(urlName(name)).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  it('come from the names given (the first asker wins), never from the file; no two images share one', () => {
    const files = ['IMG_20250312_184455.jpg', 'gallery/a.jpg', 'gallery/b.jpg', 'IMG_20250313_090000.jpg', 'post/two.jpg', 'DSC_0001.jpg', 'DSC_0002.jpg', 'x.jpg'];
    const names = publicNames(
      files,
      new Map<string, string | undefined>([
        ['gallery/a.jpg', 'lifestyle-1'],
        ['gallery/b.jpg', 'Lifestyle 1'], // the same name once made URL-safe
        ['IMG_20250312_184455.jpg', 'lifestyle-1'], // a post whose slug is a gallery id
        ['post/two.jpg', 'lifestyle-1-2'], // what the dedupe would have chosen
        ['IMG_20250313_090000.jpg', 'Фото'],
        ['x.jpg', undefined],
      ]),
    );
    expect(Object.fromEntries(names)).toEqual({
      'gallery/a.jpg': 'lifestyle-1',
      'gallery/b.jpg': 'lifestyle-1-2',
      'IMG_20250312_184455.jpg': 'lifestyle-1-3',
      'post/two.jpg': 'lifestyle-1-2-2',
      'IMG_20250313_090000.jpg': 'image',
      'x.jpg': 'image-2',
      // Not named at all: `image`, in path order.
      'DSC_0001.jpg': 'image-3',
      'DSC_0002.jpg': 'image-4',
    });
    expect(new Set(names.values()).size).toBe(files.length);
    for (const name of names.values()) expect(name).not.toMatch(/img|dsc|2025/i);
  });
});
