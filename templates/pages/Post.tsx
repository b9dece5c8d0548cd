import type { PageContext } from '../model/index.ts';

/** A blog post: back link, author line, body, tags and share links. */
export function Post({ ctx }: { ctx: PageContext }) {
  const { t, route, format, head } = ctx;
  const post = route.post!;
  const url = encodeURIComponent(head.canonical ?? '');
  const text = encodeURIComponent(post.title);
  const share = [
    { id: 'whatsapp', href: `https://wa.me/?text=${text}%20${url}` },
    { id: 'telegram', href: `https://t.me/share/url?url=${url}&text=${text}` },
    { id: 'x', href: `https://x.com/intent/post?url=${url}&text=${text}` },
    { id: 'email', href: `mailto:?subject=${text}&body=${url}` },
  ];
  return (
    <main id="main" tabIndex={-1}>
      <article className="container narrow post">
        <p>
          <a href={ctx.blogLink()} className="text-link link-back">
            {t('blog.back')}
          </a>
        </p>
        <p className="kicker">
          <a href={ctx.blogLink({ category: post.category })}>{t(`blog.category.${post.category}`)}</a>
        </p>
        <h1>{post.title}</h1>
        <p className="muted">
          {t('blog.by', { author: post.author })} · <time dateTime={post.date}>{format.date(post.date)}</time>
        </p>
        <p className="lead">{post.excerpt}</p>
        {/* Markdown `##` sections render as h3 (src/content/markdown.ts); this h2 keeps the outline in order. */}
        <h2 className="visually-hidden">{t('blog.article')}</h2>
        <div className="prose" dangerouslySetInnerHTML={{ __html: ctx.postBody(post) }} />
        {post.tags.length > 0 && (
          <>
          <h2 className="visually-hidden">{t('blog.tags')}</h2>
          <ul className="tags">
            {post.tags.map((tag) => (
              <li key={tag}>{tag}</li>
            ))}
          </ul>
          </>
        )}
        <nav aria-label={t('blog.share')} className="share">
          <h2 className="h-small">{t('blog.share')}</h2>
          <ul className="button-row">
            {share.map((s) => (
              <li key={s.id}>
                <a className="button" href={s.href} target="_blank" rel="noopener noreferrer">
                  {t(`blog.shareOn.${s.id}`)}
                  <span className="visually-hidden"> {t('nav.newTab')}</span>
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </article>
    </main>
  );
}
