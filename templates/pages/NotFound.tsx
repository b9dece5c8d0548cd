import type { PageContext } from '../model/index.ts';
import { callLabel, PageIntro } from '../components/Blocks.tsx';

/**
 * Not-found page, one per language; also the offline page the service worker falls back to, whose
 * text says to call if it is urgent: there the call button comes first (a call needs no connection).
 */
export function NotFound({ ctx }: { ctx: PageContext }) {
  const { t, route, site } = ctx;
  const offline = route.kind === 'offline';
  const key = offline ? 'offline' : 'notFound';
  const phone = site.config.contact.phone;
  return (
    <main id="main" tabIndex={-1}>
      <div className="container narrow">
        <PageIntro title={t(`${key}.title`)} intro={t(`${key}.text`)} />
        <ul className="button-row">
          {offline && (
            <li>
              <a className="button button-primary" href={`tel:${phone.replace(/\s+/g, '')}`} data-call="offline">
                {callLabel(ctx, 'contact.call', phone)}
              </a>
            </li>
          )}
          <li>
            <a className={offline ? 'button' : 'button button-primary'} href={ctx.link('home')}>
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
