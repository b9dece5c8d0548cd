/**
 * [R-INC-2] Hostile cases for the posts an incremental `site build` leaves unread (a post whose file
 * still has the stamp, inode and change time kept with it in the posts' cache is not read; its body
 * is read from its file when a page needs it: src/content/post-body.ts). As in
 * incremental-hostile.test.ts, the incremental output must equal a cold build of the same content,
 * and a build that fails says why, exits non-zero and leaves the published output as it was.
 * Written by a hostile review of that change: tests 1-4 and 11 failed on its first version.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { age, build, differencesFromCold, fresh, ok, pausedAtCarry, postsEntries, postsFile, recordFile, spawnBuild, writePostsEntries } from '../helpers/incremental.ts';
import { edit, EPOCH, ROOT, tmpDir, type CliResult } from '../helpers/site.ts';

/** A preload for the CLI: the first read of the file $HOOK_GONE removes it just before (the file goes while the build runs, after load). */
const GONE = path.join(tmpDir('unread-posts-hook-'), 'gone-at-first-read.cjs');
writeFileSync(
  GONE,
  `const fs = require('fs');
const orig = fs.readFileSync;
let first = true;
fs.readFileSync = function (p, ...a) {
  if (first && p === process.env.HOOK_GONE) {
    first = false;
    fs.rmSync(p);
  }
  return orig.call(this, p, ...a);
};
require('module').syncBuiltinESMExports();
`,
);

/** `site build` in a process of its own that is killed after `ms`: `timedOut` says whether it was (a build that never exits). */
function spawnBuildWithin(ms: number, content: string, out: string, env: Record<string, string>): Promise<CliResult & { timedOut: boolean }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, 'bin', 'site.js'), 'build', '--content', content, '--out', out],
      { cwd: ROOT, env: { ...process.env, SOURCE_DATE_EPOCH: EPOCH, ...env }, timeout: ms, killSignal: 'SIGKILL', maxBuffer: 32 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const e = err as (Error & { code?: unknown; killed?: boolean; signal?: string }) | null;
        resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, stdout, stderr, timedOut: e?.signal === 'SIGKILL' });
      },
    );
  });
}

// ---- helpers of this file -----------------------------------------------------------------------

/** A post `blog/<slug>/<lang>.md` with this title and body (no link unless the body has one). */
function addPost(content: string, slug: string, title: string, body: string, lang = 'en', date = '2025-05-01'): string {
  const rel = `blog/${slug}/${lang}.md`;
  mkdirSync(path.join(content, 'blog', slug), { recursive: true });
  writeFileSync(path.join(content, rel), `---\ntitle: "${title}"\nexcerpt: "About ${title}."\ndate: ${date}\ncategory: travel\nauthor: "Aurelia"\ntags: []\n---\n\n${body}\n`);
  return rel;
}

/** A text every English page shows, changed: every English page is rendered, posts from bodies read on demand. */
let footer = 0;
// A text every English page reads itself (its title's template): every page is rendered again. (A
// footer text would not do: the footer is a piece, spliced into pages without rendering them.)
const everyEnglishPage = (content: string) => edit(content, 'i18n/en.yaml', /^(\s*titleTemplate:).*$/m, `$1 "{title} · {brand} ${++footer}"`);

const liveBuild = (out: string) => readlinkSync(path.join(path.dirname(out), `.${path.basename(out)}.builds`, 'live'));

describe('[R-INC-2] posts left unread by an incremental build (same output as a cold build)', () => {
  // 1. Size and modification time alone are not taken for a post's content: two posts of one size
  // written in one clock tick (a checkout, a cp -r, a script; age() here) swap files by mv, which
  // keeps each file's times. Each path then has the size and time kept for it, but another inode
  // and change time: both are read (the first version of unread posts served their old pages).
  it('two same-size posts sharing one mtime swapped by mv, with another post edited: both pages as a cold build', async () => {
    const { content, out } = fresh();
    const one = addPost(content, 'swap-one', 'Post one', 'The body of post one.');
    const two = addPost(content, 'swap-two', 'Post two', 'The body of post two.');
    age(content);
    await ok(build(content, out));
    const tmp = path.join(path.dirname(content), 'swap.md');
    renameSync(path.join(content, one), tmp);
    renameSync(path.join(content, two), path.join(content, one));
    renameSync(tmp, path.join(content, two));
    appendFileSync(path.join(content, 'blog/monaco-grand-prix/en.md'), '\nAnother paragraph.\n');
    await ok(build(content, out));
    expect(readFileSync(path.join(out, 'blog/swap-one.html'), 'utf8')).toContain('The body of post two.');
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  // 2. A same-size edit whose modification time is set back to the one kept (cp -p, rsync -a,
  // tar x, touch -r), with another post edited: the change time gives it away, the post is read.
  // (Alone, such an edit is still "Nothing changed", as before unread posts: the build's shortcut
  // trusts size and time, like make's.)
  it('a same-size edit that keeps a plain-stamped mtime, with another post edited: as a cold build', async () => {
    const { content, out } = fresh();
    const rel = 'blog/madrid-luxury-dining/en.md';
    const file = path.join(content, rel);
    const then = new Date(Date.now() - 3_600_000);
    age(content);
    utimesSync(file, then, then);
    await ok(build(content, out));
    // The cache holds the post's plain stamp (size:mtime, no hash: the file is not recent).
    const kept = postsEntries<{ post?: { stamp: string } }>(postsFile(content)).find(([r]) => r === rel)?.[1].post?.stamp;
    expect(kept?.split(':')).toHaveLength(2);
    const before = readFileSync(file, 'utf8');
    const after = before.replace('title: "An Evening', 'title: "An EVENING').replace('Madrid has a way', 'Madrid had a way');
    expect(Buffer.byteLength(after)).toBe(Buffer.byteLength(before));
    writeFileSync(file, after);
    utimesSync(file, then, then);
    appendFileSync(path.join(content, 'blog/monaco-grand-prix/en.md'), '\nAnother paragraph.\n');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  // 3. A post saved during a build that renders it (after load, before render): its body read on
  // demand is not the one its key was made from, so the build fails naming it and publishes
  // nothing; the save undone, the next build is a cold build (the first version of unread posts
  // rendered the new text under the old key, and kept that page after the undo).
  it('a post saved during a build that renders it, then the save undone: the next build is a cold build', async () => {
    const { content, out } = fresh();
    const rel = addPost(content, 'plain-post', 'Plain post', 'The first text of this post.'); // no link: not read before rendering
    age(content);
    await ok(build(content, out));
    const file = path.join(content, rel);
    const original = readFileSync(file);
    everyEnglishPage(content);
    const live = liveBuild(out);
    const paused = await pausedAtCarry(content, out);
    writeFileSync(file, original.toString().replace('The first text', 'A second text'));
    paused.go();
    const failed = await paused.done;
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`${rel} changed while the site was being built (its text is not the one loaded): build again`);
    expect(liveBuild(out)).toBe(live);
    writeFileSync(file, original); // undone
    await ok(build(content, out));
    expect(readFileSync(path.join(out, 'blog/plain-post.html'), 'utf8')).toContain('The first text of this post.');
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  // 4. An incremental build that renders many posts hands their bodies to the markdown helper
  // (MarkdownHelper.forPosts; from 1 post here): an unread post whose file went after load fails
  // the build naming it, before the helper's thread starts (it once hung the process).
  it('an unread post gone before the markdown helper gets its body: exit 1 naming it, never a hang, output untouched', async () => {
    const { content, out } = fresh();
    const rel = addPost(content, 'gone-post', 'Gone post', 'A body without links.');
    age(content);
    await ok(build(content, out));
    const live = liveBuild(out);
    everyEnglishPage(content);
    const r = await spawnBuildWithin(30_000, content, out, {
      SITE_RENDER_THREADS: '2',
      SITE_MIN_PARALLEL_ROUTES: '1000000',
      SITE_MIN_MARKDOWN_HELPER_POSTS: '1',
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${GONE}`,
      HOOK_GONE: path.join(content, rel),
    });
    expect({ timedOut: r.timedOut, code: r.code }).toEqual({ timedOut: false, code: 1 });
    expect(r.stderr + r.stdout).toContain(rel);
    expect(liveBuild(out)).toBe(live);
  });

  // 5. Every English page rendered after a build that left posts unread: post pages from
  // bodies read on demand on this thread, in page workers (withoutBody) and through the helper.
  it.each<{ how: string; env: Record<string, string> }>([
    { how: 'this thread', env: { SITE_RENDER_THREADS: '1' } },
    { how: 'page workers', env: { SITE_RENDER_THREADS: '3', SITE_MIN_PARALLEL_ROUTES: '10' } },
    { how: 'the markdown helper', env: { SITE_RENDER_THREADS: '2', SITE_MIN_PARALLEL_ROUTES: '1000000', SITE_MIN_MARKDOWN_HELPER_POSTS: '1' } },
  ])('a text on every page after posts were left unread, rendered on $how: as a cold build', async ({ env }) => {
    const { content, out } = fresh();
    for (let i = 1; i <= 12; i++) addPost(content, `plain-${i}`, `Plain ${i}`, `Body ${i}. ${'x'.repeat(i * 13)}`);
    age(content);
    await ok(build(content, out));
    appendFileSync(path.join(content, 'blog/plain-3/en.md'), '\nEdited.\n'); // a build that leaves the others unread
    await ok(build(content, out));
    everyEnglishPage(content);
    const r = await ok(spawnBuild(content, out, [], env));
    expect(r.stdout).toMatch(/rendered \d+ of \d+ pages \(i18n\/en\.yaml changed\)/);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  // 6. Bodies the lazy reader splits as load does: BOM, CRLF, empty body, no newline after
  // the closing ---, --- lines in the body, Greek and Cyrillic text.
  it('unread posts with a BOM, CRLF, an empty body, --- in the body, non-ASCII text, rendered again: as a cold build', async () => {
    const { content, out } = fresh();
    const head = (t: string, nl = '\n') => ['---', `title: "${t}"`, 'excerpt: "x"', 'date: 2025-05-02', 'category: travel', 'author: "A"', 'tags: ["Αθήνα", "Москва"]', '---'].join(nl);
    const posts: Record<string, string> = {
      bom: `\uFEFF${head('BOM')}\n\nBody after a byte-order mark.\n`,
      crlf: `${head('CRLF', '\r\n')}\r\n\r\nLine one.\r\n\r\n## Heading\r\n\r\nMore.\r\n`,
      empty: `${head('Empty')}\n`,
      bare: head('Bare'),
      dashes: `${head('Dashes')}\n\nAbove.\n\n---\n\ntitle: not front matter\n\n---\n\nBelow.\n`,
      intl: `${head('Ελληνικά и русский')}\n\nΚαλημέρα! Доброе утро. 🎉\n`,
    };
    for (const [slug, text] of Object.entries(posts)) {
      mkdirSync(path.join(content, 'blog', slug));
      writeFileSync(path.join(content, 'blog', slug, 'en.md'), text);
    }
    age(content);
    await ok(build(content, out));
    everyEnglishPage(content);
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  // 7. An unread post showing an image: the image goes, the build fails naming the post's
  // file and line, and the output stays; a link added where only the linking post changed is checked.
  it('an unread post whose image goes, and a link to no post added to a post without links: errors naming file and line, output untouched', async () => {
    const { content, out } = fresh();
    addPost(content, 'with-image', 'With image', 'Text.\n\n![A portrait](/images/portrait-1.svg)');
    const plain = addPost(content, 'no-links', 'No links', 'Text without links.');
    age(content);
    await ok(build(content, out));
    const live = liveBuild(out);
    renameSync(path.join(content, 'images/portrait-1.svg'), path.join(path.dirname(content), 'portrait-1.svg'));
    let r = await build(content, out);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('blog/with-image/en.md:12: error [post-link] ![A portrait](/images/portrait-1.svg)');
    renameSync(path.join(path.dirname(content), 'portrait-1.svg'), path.join(content, 'images/portrait-1.svg'));
    appendFileSync(path.join(content, plain), '\nSee [nothing](/blog/nowhere).\n');
    r = await build(content, out);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/blog\/no-links\/en\.md:\d+: error \[post-link\] \[nothing\]\(\/blog\/nowhere\)/);
    expect(liveBuild(out)).toBe(live);
  });

  // 8. More than 64 posts with new stamps rewrite the cache (hashed stamps: touched just
  // now); then a same-size edit in one clock tick of one of them is still seen.
  it('70 posts touched, then a same-size edit of one of them keeping its mtime: as a cold build', async () => {
    const { content, out } = fresh();
    for (let i = 1; i <= 70; i++) addPost(content, `many-${i}`, `Many ${i}`, `Body ${i}. ${'y'.repeat(i)}`);
    age(content);
    await ok(build(content, out));
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    for (let i = 1; i <= 70; i++) utimesSync(path.join(content, `blog/many-${i}/en.md`), now, now);
    await ok(build(content, out));
    const file = path.join(content, 'blog/many-7/en.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Body 7.', 'Body 8.'));
    utimesSync(file, now, now);
    const r = await ok(build(content, out));
    expect(r.stdout).toMatch(/blog\/many-7\/en\.md changed/);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  // 9. Two output folders of one content folder share its posts cache; built in turn with
  // edits between, each is a cold build.
  it('two output folders built in turn from one content folder, edits between: each as a cold build', async () => {
    const { content, out } = fresh();
    const other = path.join(path.dirname(content), 'other');
    age(content);
    await ok(build(content, out));
    await ok(build(content, other));
    for (let i = 0; i < 3; i++) {
      appendFileSync(path.join(content, 'blog/madrid-luxury-dining/en.md'), `\nParagraph ${i}.\n`);
      await ok(build(content, i % 2 ? out : other));
      edit(content, 'blog/monaco-grand-prix/es.md', /^title: .*$/m, `title: "Título ${i}"`);
      await ok(build(content, i % 2 ? other : out));
    }
    await ok(build(content, other)); // the last edit, in the folder that has not seen it yet
    expect(await differencesFromCold(content, out)).toEqual([]);
    expect(await differencesFromCold(content, other)).toEqual([]);
  });

  // 10.   // An unread post holding a link is read by the link check; its file gone after load: exit 1
  // naming it, output untouched.
  // A post's body edited, nothing else: only its own pages are keyed again (routes/inputs.ts
  // afterBodyEdits), unless it now looks different from other pages. Here the English version's
  // first image becomes the preview image of its Spanish version too (site.postImages), whose file
  // did not change: its page must still change, as in a cold build.
  it('a body edit that gives a post its first image: its other version\'s page shows it too, as in a cold build', async () => {
    const { content, out } = fresh();
    // The image is some post's preview already: its files stay the same (else every page is rendered).
    const image = readdirSync(path.join(content, 'images/gallery')).find((f) => /\.(jpe?g|png|webp|svg)$/i.test(f))!;
    addPost(content, 'image-owner', 'Image owner', `![A view](/images/gallery/${image})`);
    const en = addPost(content, 'shared-image', 'Shared image', 'No image yet.');
    addPost(content, 'shared-image', 'Imagen compartida', 'Sin imagen.', 'es');
    age(content);
    await ok(build(content, out));
    appendFileSync(path.join(content, en), `\n![A view](/images/gallery/${image})\n`);
    const r = await ok(build(content, out));
    expect(r.stdout).toMatch(/rendered \d+ of \d+ pages \(blog\/shared-image\/en\.md changed\)/);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a body edit with a last-build record whose post digests are wrong, missing or not text: a good build, as a cold one', async () => {
    const { content, out } = fresh();
    const spoils: ((m: Record<string, unknown>) => void)[] = [
      (m) => Object.keys(m).forEach((k) => (m[k] = 'wrong')),
      (m) => Object.keys(m).forEach((k) => delete m[k]),
      (m) => Object.keys(m).forEach((k) => (m[k] = 5)),
    ];
    await ok(build(content, out));
    for (const [i, spoil] of spoils.entries()) {
      const record = JSON.parse(readFileSync(recordFile(out), 'utf8')) as { metas: Record<string, unknown> };
      expect(Object.keys(record.metas).length, `spoil ${i}`).toBeGreaterThan(3);
      spoil(record.metas);
      writeFileSync(recordFile(out), JSON.stringify(record));
      appendFileSync(path.join(content, 'blog/monaco-grand-prix/en.md'), `\nParagraph ${i}.\n`);
      await ok(build(content, out));
      expect(await differencesFromCold(content, out), `spoil ${i}`).toEqual([]);
    }
  });

  // The links and images of an unchanged post are kept with it (content/post-body.ts): the link
  // check does not read it. The hook removes the file at its first read, so a file still there
  // after a good build was never read.
  it('an unread post with a link is checked from the links kept with it: the build does not read its file', async () => {
    const { content, out } = fresh();
    const rel = addPost(content, 'linking', 'Linking', 'See [the Grand Prix](/blog/monaco-grand-prix).');
    age(content);
    await ok(build(content, out));
    appendFileSync(path.join(content, 'blog/monaco-grand-prix/es.md'), '\nMás.\n');
    const r = await spawnBuildWithin(30_000, content, out, { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${GONE}`, HOOK_GONE: path.join(content, rel) });
    expect({ timedOut: r.timedOut, code: r.code }).toEqual({ timedOut: false, code: 0 });
    expect(existsSync(path.join(content, rel)), `${rel} was read`).toBe(true);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('an unread post with a link whose kept links are lost, its file gone before the link check reads it: exit 1 naming it, output untouched', async () => {
    const { content, out } = fresh();
    const rel = addPost(content, 'linking', 'Linking', 'See [the Grand Prix](/blog/monaco-grand-prix).');
    age(content);
    await ok(build(content, out));
    const live = liveBuild(out);
    // Without its kept links, the link check reads the post's body on demand.
    const entries = postsEntries<{ post?: Record<string, unknown> }>(postsFile(content));
    for (const [, e] of entries) delete e.post?.refs;
    writePostsEntries(postsFile(content), entries);
    appendFileSync(path.join(content, 'blog/monaco-grand-prix/es.md'), '\nMás.\n');
    const r = await spawnBuildWithin(30_000, content, out, { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${GONE}`, HOOK_GONE: path.join(content, rel) });
    expect({ timedOut: r.timedOut, code: r.code }).toEqual({ timedOut: false, code: 1 });
    expect(r.stderr).toContain(rel);
    expect(liveBuild(out)).toBe(live);
  });

  // 11. (Older than unread posts.) A post's link to
  // another post goes to its version in the post's language when there is one (resolvePostLink);
  // the post page's key holds only its own versions, not the route table, so when the Spanish
  // version of the linked post goes, the Spanish linking page keeps /es/blog/<slug>, now a 404.
  it('a Spanish post linking a post whose Spanish version is removed: the link is rewritten as in a cold build', async () => {
    const { content, out } = fresh();
    for (const lang of ['en', 'es']) {
      addPost(content, 'link-src', `Source ${lang}`, 'See [the other post](/blog/link-dst).', lang);
      addPost(content, 'link-dst', `Target ${lang}`, 'Target body.', lang);
    }
    await ok(build(content, out));
    expect(readFileSync(path.join(out, 'es/blog/link-src.html'), 'utf8')).toContain('href="/es/blog/link-dst"');
    rmSync(path.join(content, 'blog/link-dst/es.md'));
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
  });
});
