/**
 * [R-INC-2] The posts' and data's kept cache (content/load.ts postCache) is made with the model's
 * schemas: what they import from outside templates/ is written with it, and a cache whose outside
 * inputs changed is no cache (its name counts them only when the build is recorded).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { postCache, type ParseCache } from '../../src/content/load.ts';
import { tmpDir } from '../helpers/site.ts';

describe('[R-INC-2] the kept posts cache and the files its schemas came from', () => {
  it('is taken while its outside inputs hold, and is empty once they do not (also from this process memory)', () => {
    const file = path.join(tmpDir(), 'posts-test.v8');
    const cache = postCache.read(file, () => true);
    cache.set('blog/a/en.md', { source: 'title: A', post: undefined } as unknown as Parameters<ParseCache['set']>[1]);
    postCache.write(file, cache, () => true, { '/elsewhere/shared.ts': 'hash-1' });
    const seen: Record<string, string>[] = [];
    const holds = (ok: boolean) => (extras: Readonly<Record<string, string>>) => (seen.push({ ...extras }), ok);
    expect([...postCache.read(file, holds(true)).keys()]).toEqual(['blog/a/en.md']);
    expect(seen.at(-1)).toEqual({ '/elsewhere/shared.ts': 'hash-1' });
    expect([...postCache.read(file, holds(false)).keys()]).toEqual([]);
    // Read from the file (another cache read since: none in memory).
    const other = path.join(path.dirname(file), 'posts-other.v8');
    postCache.write(other, postCache.read(other, () => true), () => true, {});
    expect([...postCache.read(file, holds(false)).keys()]).toEqual([]);
    expect([...postCache.read(other, () => true).keys()]).toEqual([]);
    expect([...postCache.read(file, holds(true)).keys()]).toEqual(['blog/a/en.md']);
  });
});
