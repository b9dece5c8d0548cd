/**
 * [R-INC-2][R-BUILD-7] A watch session after post body edits: only the edited posts' pages are keyed
 * and rendered again (the keys of every other route, and of every layout piece, hold when no post
 * changed as other pages see it), and the output stays what a cold build of the same content
 * writes, through a rebuild that failed in between (its edits are keyed by the next one). Posts no
 * event named are neither listed nor read again; the folders and files events name are.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_TABLE_COLUMNS } from '../../src/content/markdown.ts';
import { buildDate, resolveConfig } from '../../src/config.ts';
import { WatchSession } from '../../src/watch/session.ts';
import { differencesFromCold, fresh } from '../helpers/incremental.ts';
import { edit, EPOCH } from '../helpers/site.ts';

/** A watch session on `content` (writing into `out`) after its first rebuild, which must succeed. */
async function watching(content: string, out: string): Promise<WatchSession> {
  const session = new WatchSession({ ...resolveConfig({ content, out, quiet: true }), today: buildDate({ SOURCE_DATE_EPOCH: EPOCH }) });
  const start = await session.rebuild([]);
  expect(start.ok, start.error).toBe(true);
  return session;
}

describe('[R-INC-2][R-BUILD-7] post edits in a watch session', () => {
  it('a body edit renders that post alone; a failed rebuild\'s edits are rendered by the next; a title edit renders its lists; each as a cold build', async () => {
    const { content, out } = fresh({ english: true });
    const session = await watching(content, out);
    const [a, b] = readdirSync(path.join(content, 'blog')).sort().map((slug) => `blog/${slug}/en.md`);
    const abs = (rel: string) => path.join(content, rel);

    edit(content, a!, /\n*$/, '\n\nA paragraph added while watching.\n');
    const one = await session.rebuild([abs(a!)]);
    expect(one.ok, one.error).toBe(true);
    expect(one.rendered).toBe(1);
    expect(await differencesFromCold(content, out)).toEqual([]);

    // b breaks the build (a table too wide to render); a is edited again while it is broken.
    const columns = MAX_TABLE_COLUMNS + 1;
    const wide = `\n\n|${'a|'.repeat(columns)}\n|${'-|'.repeat(columns)}\n`;
    edit(content, b!, /\n*$/, wide);
    expect((await session.rebuild([abs(b!)])).ok).toBe(false);
    edit(content, a!, 'A paragraph added while watching.', 'A paragraph edited while another post was broken.');
    expect((await session.rebuild([abs(a!)])).ok).toBe(false);
    edit(content, b!, wide, '\n');
    const fixed = await session.rebuild([abs(b!)]);
    expect(fixed.ok, fixed.error).toBe(true);
    expect(fixed.rendered).toBe(1); // a again; b is back as the last good build has it
    expect(await differencesFromCold(content, out)).toEqual([]);

    // A post edited in a rebuild that fails before the posts are read (site.yaml broken): the next reads it.
    edit(content, a!, 'A paragraph edited while another post was broken.', 'A paragraph edited while site.yaml was broken.');
    edit(content, 'site.yaml', /^languages: /m, 'languages: [[[ ');
    expect((await session.rebuild([abs(a!), abs('site.yaml')])).ok).toBe(false);
    edit(content, 'site.yaml', /^languages: \[\[\[ /m, 'languages: ');
    expect((await session.rebuild([abs('site.yaml')])).ok).toBe(true);
    expect(await differencesFromCold(content, out)).toEqual([]);

    edit(content, a!, /^title: .*$/m, 'title: "A title edited while watching"');
    const titled = await session.rebuild([abs(a!)]);
    expect(titled.ok, titled.error).toBe(true);
    expect(titled.rendered).toBeGreaterThan(1);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });
  it('posts added, removed, renamed and given a new language, as the watcher names them (files and folders): each rebuild as a cold build', async () => {
    const { content, out } = fresh();
    const session = await watching(content, out);
    const blog = path.join(content, 'blog');
    const [first, second, third] = readdirSync(blog).sort();
    const rebuilt = async (...changes: string[]) => {
      const r = await session.rebuild(changes.map((c) => path.join(blog, c)));
      expect(r.ok, r.error).toBe(true);
      expect(await differencesFromCold(content, out)).toEqual([]);
    };
    // A copy of a post under a new slug (a folder and its files appear).
    cpSync(path.join(blog, first!), path.join(blog, 'copied-while-watching'), { recursive: true });
    await rebuilt('copied-while-watching', 'copied-while-watching/en.md');
    // A language version removed, then written again with a new body.
    const es = path.join(blog, second!, 'es.md');
    const text = readFileSync(es, 'utf8');
    rmSync(es);
    await rebuilt(`${second}/es.md`);
    writeFileSync(es, `${text}\nOtra frase.\n`);
    await rebuilt(`${second}/es.md`);
    // A folder renamed (the watcher names both folders), then one removed (the folder alone).
    renameSync(path.join(blog, third!), path.join(blog, `${third}-moved`));
    await rebuilt(third!, `${third}-moved`);
    rmSync(path.join(blog, 'copied-while-watching'), { recursive: true });
    await rebuilt('copied-while-watching');
    // A folder replaced by another of the same name with fewer files (the folder alone is named).
    const [, , , fourth] = readdirSync(blog).sort();
    rmSync(path.join(blog, first!), { recursive: true });
    cpSync(path.join(blog, fourth!), path.join(blog, first!), { recursive: true });
    for (const f of readdirSync(path.join(blog, first!))) if (f !== 'en.md') rmSync(path.join(blog, first!, f));
    await rebuilt(first!);
  });

  it('an images folder linked into the content folder and relinked to another copy: the watcher names the target, the images are made again', async () => {
    const { content, out } = fresh({ english: true });
    const images = path.join(content, 'images');
    const folder = readdirSync(images, { withFileTypes: true }).find((e) => e.isDirectory())!.name;
    const media = path.join(content, 'media');
    mkdirSync(media);
    renameSync(path.join(images, folder), path.join(media, 'one'));
    symlinkSync('../media/one', path.join(images, folder));
    const session = await watching(content, out);
    // A second copy with its SVGs recoloured, then the link pointed at it (chokidar reports the copy's path).
    cpSync(path.join(media, 'one'), path.join(media, 'two'), { recursive: true });
    for (const svg of readdirSync(path.join(media, 'two')).filter((f) => f.endsWith('.svg')))
      writeFileSync(path.join(media, 'two', svg), readFileSync(path.join(media, 'two', svg), 'utf8').replace(/fill="#[0-9a-fA-F]+"/g, 'fill="#00ff00"'));
    unlinkSync(path.join(images, folder));
    symlinkSync('../media/two', path.join(images, folder));
    const r = await session.rebuild([path.join(media, 'two')]);
    expect(r.ok, r.error).toBe(true);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a post folder linked to a folder inside the content folder gains a language there: the watcher names the target, the post is listed again', async () => {
    const { content, out } = fresh();
    const blog = path.join(content, 'blog');
    const slug = readdirSync(blog).sort().find((d) => readdirSync(path.join(blog, d)).includes('es.md'))!;
    const kept = path.join(content, 'kept', slug);
    mkdirSync(path.dirname(kept));
    renameSync(path.join(blog, slug), kept);
    const es = readFileSync(path.join(kept, 'es.md'), 'utf8');
    rmSync(path.join(kept, 'es.md'));
    symlinkSync(`../kept/${slug}`, path.join(blog, slug));
    const session = await watching(content, out);
    writeFileSync(path.join(kept, 'es.md'), es);
    const r = await session.rebuild([path.join(kept, 'es.md')]);
    expect(r.ok, r.error).toBe(true);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it("a swap file and a .DS_Store beside a post while it is edited: rebuilt as without them, before and after they go", async () => {
    const { content, out } = fresh({ english: true });
    const session = await watching(content, out);
    const [a, b] = readdirSync(path.join(content, 'blog')).sort().map((slug) => `blog/${slug}/en.md`);
    const left = [path.join(content, path.dirname(a!), '.en.md.swp'), path.join(content, path.dirname(a!), '.DS_Store')];
    for (const f of left) writeFileSync(f, 'b0VIM 9.0');
    edit(content, a!, /\n*$/, '\n\nSaved in vim.\n');
    // The watcher names the saved post only (it ignores such names); its folder is listed again.
    const r1 = await session.rebuild([path.join(content, a!)]);
    expect(r1.ok, r1.error).toBe(true);
    expect(await differencesFromCold(content, out)).toEqual([]);
    for (const f of left) rmSync(f);
    edit(content, b!, /\n*$/, '\n\nAnother post saved.\n');
    const r2 = await session.rebuild([path.join(content, b!)]);
    expect(r2.ok, r2.error).toBe(true);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('posts removed so that the journal loses a page: its pages go, and no empty folder stays behind', async () => {
    const { content, out } = fresh({ english: true });
    const session = await watching(content, out);
    const blog = path.join(content, 'blog');
    const [first] = readdirSync(blog).sort();
    const perPage = Number(/^postsPerPage: (\d+)/m.exec(readFileSync(path.join(content, 'data/blog.yaml'), 'utf8'))![1]);
    const copies = Array.from({ length: perPage }, (_, i) => path.join(blog, `copy-${i}`));
    for (const c of copies) cpSync(path.join(blog, first!), c, { recursive: true });
    const more = await session.rebuild(copies);
    expect(more.ok, more.error).toBe(true);
    const folders = () => readdirSync(out, { recursive: true, withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => path.relative(out, path.join(e.parentPath, e.name)));
    const paged = folders();
    for (const c of copies) rmSync(c, { recursive: true });
    const fewer = await session.rebuild(copies);
    expect(fewer.ok, fewer.error).toBe(true);
    expect(await differencesFromCold(content, out)).toEqual([]);
    const gone = paged.filter((d) => !folders().includes(d));
    expect(gone.length).toBeGreaterThan(0); // the second pages' folders
    expect(folders().filter((d) => readdirSync(path.join(out, d)).length === 0)).toEqual([]);
  });
});
