import type { PageContext } from '../model/index.ts';

/** The journal's list pages (all posts, or one category), cut into pages by the generator. */
export function Blog({ ctx }: { ctx: PageContext }) {
  const { t, route, format } = ctx;
  const list = route.list!;
  return (
    <main>
      <h1>{route.category ? t('page.category.title', { category: t(`blog.category.${route.category}`) }) : t('page.blog.title')}</h1>
      {list.posts.length === 0 && <p>{t('blog.empty')}</p>}
      {list.posts.map((p) => (
        <article key={p.slug}>
          <h2>
            <a href={ctx.blogLink({ slug: p.slug })}>{p.title}</a>
          </h2>
          <p>
            <time dateTime={p.date}>{format.date(p.date)}</time> · {p.excerpt}
          </p>
        </article>
      ))}
    </main>
  );
}

export function Post({ ctx }: { ctx: PageContext }) {
  const post = ctx.route.post!;
  return (
    <main>
      <article>
        <h1>{post.title}</h1>
        <p>
          <time dateTime={post.date}>{ctx.format.date(post.date)}</time>
        </p>
        <div dangerouslySetInnerHTML={{ __html: ctx.postBody(post) }} />
      </article>
    </main>
  );
}
