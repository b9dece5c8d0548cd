import type { PageContext } from '../model/index.ts';
import { PageIntro } from '../components/Blocks.tsx';

/** Not-found page, one per language; also the offline page the service worker falls back to. */
export function NotFound({ ctx }: { ctx: PageContext }) {
  const { t, route } = ctx;
  const key = route.kind === 'offline' ? 'offline' : 'notFound';
  return (
    <main id="main" tabIndex={-1}>
      <div className="container narrow">
        <PageIntro title={t(`${key}.title`)} intro={t(`${key}.text`)} />
        <ul className="button-row">
          <li>
            <a className="button button-primary" href={ctx.link('home')}>
              {t('notFound.home')}
            </a>
          </li>
          <li>
            <a className="button" href={ctx.link('contact')}>
              {t('nav.contact')}
            </a>
          </li>
        </ul>
      </div>
    </main>
  );
}
