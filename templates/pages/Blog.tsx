import { documentTitle, listPagePath } from '@site/api';
import type { PageContext } from '../model/index.ts';
import { PageIntro } from '../components/Blocks.tsx';

/** Blog list and category pages: filters are links, so they work without JavaScript. */
export function Blog({ ctx }: { ctx: PageContext }) {
  const { t, site, route, format } = ctx;
  const category = route.category;
  // The route table cut the list into pages. A list that fits on one page holds every post, so the
  // client can filter it in place; otherwise the filter links lead to the category pages.
  const list = route.list!;
  const posts = list.posts;
  const inPlace = route.kind === 'blog' && list.pages === 1;
  const titleOf = (c?: string) => (c ? t('page.category.title', { category: t(`blog.category.${c}`) }) : t('blog.title'));
  // The titles the in-place filter shows: the same as the category pages' own (head.ts).
  const docTitle = (c?: string) => documentTitle(t, c ? titleOf(c) : t('page.blog.title'), site.config.brand);
  const title = titleOf(category);
  // Each category page has its own description (also its meta description, head.ts).
  const introOf = (c?: string) => (c ? t(`blog.categoryDescription.${c}`) : t('blog.intro'));

  return (
    <main id="main" tabIndex={-1}>
      <div className="container">
        <PageIntro title={title} intro={introOf(category)} />
        <nav aria-label={t('blog.filters')} className="filters" data-inplace={inPlace ? '' : undefined}>
          <ul>
            <li>
              <a href={ctx.blogLink()} aria-current={!category ? 'page' : undefined} data-filter="" data-title={titleOf()} data-intro={introOf()} data-document-title={docTitle()}>
                {t('blog.all')}
              </a>
            </li>
            {site.blog.categories.map((c) => (
              <li key={c}>
                <a href={ctx.blogLink({ category: c })} aria-current={c === category ? 'page' : undefined} data-filter={c} data-title={titleOf(c)} data-intro={introOf(c)} data-document-title={docTitle(c)}>
                  {t(`blog.category.${c}`)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <p data-blog-empty hidden={posts.length > 0 ? true : undefined}>
          {t('blog.empty')}
        </p>
        {posts.length > 0 && (
          <ul className="cards posts">
            {posts.map((p) => (
              <li key={p.slug} className="card post-card" data-category={p.category}>
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
        {list.pages > 1 && (
          <nav className="pagination" aria-label={t('blog.pagination.label')}>
            {list.page > 1 && (
              <a href={listPagePath(list.first, list.page - 1)} rel="prev" className="link-back">
                {t('blog.pagination.prev')}
              </a>
            )}
            <span aria-current="page">{t('blog.pagination.status', { n: list.page, total: list.pages })}</span>
            {list.page < list.pages && (
              <a href={listPagePath(list.first, list.page + 1)} rel="next" className="link-next">
                {t('blog.pagination.next')}
              </a>
            )}
          </nav>
        )}
      </div>
    </main>
  );
}
