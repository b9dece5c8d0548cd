import type { PageContext } from '../model/index.ts';

export function Home({ ctx }: { ctx: PageContext }) {
  const { t, site } = ctx;
  return (
    <main>
      <h1>{t('page.home.title')}</h1>
      <p>{t('home.intro')}</p>
      <h2>{t('home.links')}</h2>
      <ul>
        {site.data.links.map((l) => (
          <li key={l.id}>
            <a href={l.url}>{t(`links.${l.id}`)}</a>
          </li>
        ))}
      </ul>
      <p>
        <a href={ctx.blogLink()}>{t('home.journal')}</a>
      </p>
    </main>
  );
}
