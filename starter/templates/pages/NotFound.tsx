import type { PageContext } from '../model/index.ts';

/** The 404 page (and the offline page the service worker shows). */
export function NotFound({ ctx }: { ctx: PageContext }) {
  const { t, route } = ctx;
  const id = route.page!.id;
  return (
    <main>
      <h1>{t(`page.${id}.title`)}</h1>
      <p>{t(`page.${id}.description`)}</p>
      <p>
        <a href={ctx.link('home')}>{t('notFound.back')}</a>
      </p>
    </main>
  );
}
