import type { PageContext } from '../model/index.ts';

/** Redirect stub: the forward script and meta refresh in the head do the work; this is the fallback. */
export function Redirect({ ctx }: { ctx: PageContext }) {
  const { t, route } = ctx;
  return (
    <main>
      <p>
        {t('redirect.text')} <a href={ctx.url(route.target!)}>{t('redirect.link')}</a>
      </p>
    </main>
  );
}

/** Hidden directory landing page: visually hidden title and text, a plain link without JavaScript. */
export function Landing({ ctx }: { ctx: PageContext }) {
  const { t, route } = ctx;
  return (
    <main>
      <h1 className="visually-hidden">{ctx.head.title}</h1>
      <p className="visually-hidden">{t('landing.text')}</p>
      <p>
        <a href={ctx.url(route.target!)}>{t('landing.continue')}</a>
      </p>
    </main>
  );
}
