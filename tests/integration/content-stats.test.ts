/**
 * [R-INC-2] The resident process stats the content files the last build recorded on its file
 * thread while the main thread walks the folders (output/carry.ts ContentStats). The stamps must be
 * the ones the main thread alone takes: the same key, the same stamp and identity per file, whatever
 * the list holds (files gone since, files added since, folders, names that are no file).
 */
import { appendFileSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config.ts';
import { inputStamps, readRecord, statFiles } from '../../src/output/carry.ts';
import { build, fresh, ok } from '../helpers/incremental.ts';

/** What the stamps say about the content (the rest does not involve the content files). */
const said = (s: Awaited<ReturnType<typeof inputStamps>>) => ({ key: s.key, content: s.content, ids: s.ids, dirs: s.dirs, idsKey: s.idsKey });

describe('[R-INC-2] content stats taken on another thread', () => {
  it('give the stamps the main thread takes alone, with files added, removed and edited since the list was made', async () => {
    const { content, out } = fresh({ english: true });
    await ok(build(content, out));
    const config = resolveConfig({ content, out, quiet: true });
    const last = await readRecord(config);
    const recorded = Object.keys(last!.content!);
    expect(recorded.length).toBeGreaterThan(20);

    // As recorded: every file stat-ed on the other side (one modified at another time than it changed).
    const dated = recorded.find((f) => f.startsWith('i18n/'))!;
    utimesSync(path.join(content, dated), new Date('2025-01-02T03:04:05Z'), new Date('2025-01-02T03:04:05Z'));
    const all = { files: recorded, stats: Promise.resolve(statFiles(content, recorded)) };
    expect(said(await inputStamps(config, last, all))).toEqual(said(await inputStamps(config, last)));

    // Then the content changes: a post edited, one removed; the list holds a folder, a name that is
    // no file, and a post stat-ed before it was added (none then: the main thread stats it).
    const post = recorded.find((f) => f.startsWith('blog/') && f.endsWith('/en.md'))!;
    const gone = recorded.filter((f) => f.startsWith('blog/') && f !== post)[0]!;
    appendFileSync(path.join(content, post), '\nEdited.\n');
    rmSync(path.join(content, gone));
    const list = [...recorded, 'blog', 'blog/no-such-post/en.md', 'blog/a-new-post/en.md'];
    const stated = { files: list, stats: Promise.resolve(statFiles(content, list)) };
    mkdirSync(path.join(content, 'blog/a-new-post'));
    writeFileSync(path.join(content, 'blog/a-new-post/en.md'), '---\ntitle: New\n---\nBody.\n');
    const alone = await inputStamps(config, last);
    expect(said(await inputStamps(config, last, stated))).toEqual(said(alone));
    expect(alone.content['blog/a-new-post/en.md']).toBeDefined();
    expect(alone.content[gone]).toBeUndefined();

    // A thread that could not answer (io-thread.ts gives none; a rejection too): the main thread stats them all.
    const none = { files: list, stats: Promise.resolve(undefined) };
    expect(said(await inputStamps(config, last, none))).toEqual(said(alone));
    const rejected = Promise.reject(new Error('the file thread exited'));
    rejected.catch(() => undefined); // (handled here too: never reported as unhandled while the walk runs)
    expect(said(await inputStamps(config, last, { files: list, stats: rejected }))).toEqual(said(alone));
  });
});
