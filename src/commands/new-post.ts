/** `site new post <slug>`: a draft post in one or more languages, front matter filled from the schema. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { postSchema } from '../content/schema.ts';
import { ensureAbsent, readDoc, writeContent } from './content-files.ts';
import { UsageError } from './usage.ts';
import { ignoredName } from '../files.ts';
import { MAX_SEGMENT_BYTES } from '../routes/table.ts';

export interface NewPostOptions {
  /** Languages to write (default: the default language). */
  langs?: string[];
  category?: string;
  title?: string;
  /** YYYY-MM-DD. */
  today: string;
}

/** The author of the newest post already written (new posts are usually by the same hand). */
function lastAuthor(contentDir: string): string | undefined {
  const blog = path.join(contentDir, 'blog');
  let newest: { date: string; author: string } | undefined;
  const names = (dir: string) => readdirSync(dir).filter((n) => !ignoredName(n));
  for (const slug of existsSync(blog) ? names(blog) : [])
    for (const file of statSync(path.join(blog, slug), { throwIfNoEntry: false })?.isDirectory() ? names(path.join(blog, slug)) : []) {
      const text = readFileSync(path.join(blog, slug, file), 'utf8');
      const date = /^date:\s*["']?(\d{4}-\d{2}-\d{2})/m.exec(text)?.[1];
      const author = /^author:\s*["']?([^"'\n]+)/m.exec(text)?.[1]?.trim();
      if (date && author && (!newest || date > newest.date)) newest = { date, author };
    }
  return newest?.author;
}

/** Write blog/<slug>/<lang>.md for each language; returns the files written. */
export function newPost(contentDir: string, slug: string, opts: NewPostOptions): string[] {
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug)) throw new UsageError(`"${slug}" is not a post slug: lowercase letters, digits and single hyphens, such as barcelona-evenings`);
  // Its page is written as <slug>.html: a name the build would refuse is refused here, before any file is written.
  if (slug.length + '.html'.length > MAX_SEGMENT_BYTES) throw new UsageError(`the slug is ${slug.length} characters long; at most ${MAX_SEGMENT_BYTES - '.html'.length} (its page's file name must fit every file system): shorten it`);
  const site = readDoc(contentDir, 'site.yaml').toJSON() as { languages: string[]; draftLanguages?: string[]; defaultLanguage: string; brand?: string };
  const blog = readDoc(contentDir, 'data/blog.yaml').toJSON() as { categories: string[] };
  // Each language once (`--langs en,en` is en).
  const langs = opts.langs?.length ? [...new Set(opts.langs)] : [site.defaultLanguage];
  if (opts.title !== undefined && !opts.title.trim()) throw new UsageError('--title: a post needs a title (leave the option out to start from the slug)');
  // A draft language's posts are written as its translators work (published with the language).
  const writable = [...site.languages, ...(site.draftLanguages ?? []).filter((l) => !site.languages.includes(l))];
  for (const l of langs) if (!writable.includes(l)) throw new UsageError(`--langs: "${l}" is not one of the site's languages (${site.languages.join(', ')}${site.draftLanguages?.length ? `; drafts: ${site.draftLanguages.join(', ')}` : ''})`);
  const category = opts.category ?? blog.categories[0]!;
  if (!blog.categories.includes(category)) throw new UsageError(`--category: "${category}" is not in data/blog.yaml categories (${blog.categories.join(', ')})`);
  const files = langs.map((l) => `blog/${slug}/${l}.md`);
  for (const f of files) ensureAbsent(contentDir, f);

  const title = opts.title ?? slug.split('-').map((w, i) => (i ? w : w.charAt(0).toUpperCase() + w.slice(1))).join(' ');
  const known: Record<string, unknown> = {
    title,
    excerpt: 'One or two sentences for the post list and search results.',
    date: opts.today,
    category,
    author: lastAuthor(contentDir) ?? site.brand ?? 'TODO',
    tags: [],
    // Not published until you set draft: false (`site build --drafts` previews it).
    draft: true,
  };
  // Every field the schema requires, in its order; a required field added later gets a TODO.
  const matter: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(postSchema.shape)) {
    if (key in known) matter[key] = known[key];
    else if (!field.safeParse(undefined).success) matter[key] = 'TODO';
  }
  for (const [i, f] of files.entries()) {
    const body = `\nWrite the post here in markdown (${langs[i]}). Headings start at ##; images go under content/images.\n`;
    writeContent(contentDir, f, `---\n${stringify(matter, { lineWidth: 0 })}---\n${body}`);
  }
  return files;
}
