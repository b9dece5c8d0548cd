/**
 * [R-INC-1] A one-shot build takes a post unchanged since the build that kept it (the posts' cache,
 * by the file's stamp) without reading its file: its body is read when a page shows it. So a
 * rebuild after one post changed reads that post, and a body is never captured early: one asked
 * for later comes from the file, checked against the text loaded, and a file changed or gone by
 * then is an error naming it (content/post-body.ts).
 */
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { buildDate, resolveConfig } from '../../src/config.ts';
import { DiskWriter } from '../../src/output/writer.ts';
import { age } from '../helpers/incremental.ts';
import { copyContent, EPOCH, tmpDir } from '../helpers/site.ts';

describe('[R-INC-1] unchanged posts are read only when a page shows them', () => {
  it('[R-INC-1] a rebuild reads the edited post; another post\'s body comes from its file when asked for, and a gone file is an error naming it', async () => {
    const content = copyContent();
    // Three posts of our own, made from one of the content's (valid front matter whatever the content).
    const blog = path.join(content, 'blog');
    const model = readdirSync(blog).flatMap((slug) => readdirSync(path.join(blog, slug)).map((f) => path.join(blog, slug, f)))[0]!;
    const lang = path.basename(model);
    const source = readFileSync(model, 'utf8').replace(/^draft: true$/m, 'draft: false');
    const matter = source.slice(0, source.indexOf('\n---', 3) + 4);
    const rels = ['lazy-one', 'lazy-two', 'lazy-three'].map((slug) => {
      mkdirSync(path.join(blog, slug));
      writeFileSync(path.join(blog, slug, lang), `${matter}\n\nThe body of ${slug}.\n`);
      return `blog/${slug}/${lang}`;
    });
    age(content);
    const out = path.join(tmpDir(), 'dist');
    const config = { ...resolveConfig({ content, out, quiet: true }), today: buildDate({ SOURCE_DATE_EPOCH: EPOCH }) };
    await build(config, new DiskWriter(config.outDir));

    appendFileSync(path.join(content, rels[0]!), '\nOne more paragraph.\n');
    const second = await build(config, new DiskWriter(config.outDir));
    // Only the edited post's page: the others were neither rendered nor read.
    expect(second.stats.incremental?.why).toContain(rels[0]);
    const post = (rel: string) => second.site!.posts.find((p) => p.file === rel)!;
    expect(post(rels[0]!).body).toContain('One more paragraph.');

    // Read on first use, after the build: a file changed since is not taken for the one loaded (a
    // body read at load would be returned as it was), and a file gone is an error naming it.
    appendFileSync(path.join(content, rels[1]!), '\nWritten after the build.\n');
    expect(() => post(rels[1]!).body).toThrow(`${rels[1]} changed while the site was being built (its text is not the one loaded)`);
    rmSync(path.join(content, rels[2]!));
    expect(() => post(rels[2]!).body).toThrow(`${rels[2]} changed while the site was being built`);
  });
});
