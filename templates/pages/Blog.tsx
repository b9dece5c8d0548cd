import type { PageContext } from '../../src/render/context.ts';
import { PageIntro } from '../components/Blocks.tsx';

/** Blog list and category pages: filters are links, so they work without JavaScript. */
export function Blog({ ctx }: { ctx: PageContext }) {
  const { t, site, route, format } = ctx;
  const category = route.category;
  const posts = site.posts.filter((p) => p.lang === route.lang && (!category || p.category === category));
  const title = category ? t('page.category.title', { category: t(`blog.category.${category}`) }) : t('blog.title');
  return (
    <main id="main" tabIndex={-1}>
      <div className="container">
        <PageIntro title={title} intro={t('blog.intro')} />
        <nav aria-label={t('blog.filters')} className="filters">
          <ul>
            <li>
              <a href={ctx.blogLink()} aria-current={!category ? 'page' : undefined}>
                {t('blog.all')}
              </a>
            </li>
            {site.blog.categories.map((c) => (
              <li key={c}>
                <a href={ctx.blogLink({ category: c })} aria-current={c === category ? 'page' : undefined}>
                  {t(`blog.category.${c}`)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        {posts.length === 0 ? (
          <p>{t('blog.empty')}</p>
        ) : (
          <ul className="cards posts">
            {posts.map((p) => (
              <li key={p.slug} className="card post-card">
                <p className="muted">
                  <a href={ctx.blogLink({ category: p.category })}>{t(`blog.category.${p.category}`)}</a> · <time dateTime={p.date}>{format.date(p.date)}</time>
                </p>
                <h2>
                  <a href={ctx.blogLink({ slug: p.slug })}>{p.title}</a>
                </h2>
                <p>{p.excerpt}</p>
              </li>
            ))}
          </ul>
        )}
      </div>
    </main>
  );
}
