import { absoluteUrl } from '@site/api';
import type { PageContext } from '../model/index.ts';
import { sharedClientData } from '../client-data.ts';
import { PageIntro } from '../components/Blocks.tsx';

/** Admin pages (off by default, public when on): only what the build knows, never secrets. */
export function Admin({ ctx }: { ctx: PageContext }) {
  const { t, site, routes, route } = ctx;
  const id = route.page!.id;
  return (
    <main id="main" tabIndex={-1}>
      <div className="container">
        <PageIntro title={t(`page.${id}.title`)} intro={t(`admin.${id}.intro`)} />
        <p className="notice card">{t('admin.public')}</p>
        {id === 'directory-profiles' && (
          <table>
            <thead>
              <tr>
                <th scope="col">{t('admin.landing')}</th>
                <th scope="col">{t('admin.source')}</th>
                <th scope="col">{t('admin.target')}</th>
              </tr>
            </thead>
            <tbody>
              {routes.routes
                .filter((r) => r.kind === 'landing')
                .map((r) => (
                  <tr key={r.path}>
                    <td>
                      <code>{absoluteUrl(site.config.baseUrl, r.path)}</code>
                    </td>
                    <td>{r.source}</td>
                    <td>
                      <a href={r.target && ctx.url(r.target)}>{r.target}</a>
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        )}
        {id === 'lead-magnet' && (
          <ul className="cards">
            {site.data.cta.variants.map((v) => (
              <li key={v.id} className="card">
                <h2>
                  <span aria-hidden="true">{v.icon}</span> {v.id}
                </h2>
                <p>{t(`cta.${v.id}.primary`)}</p>
                <p className="muted">{t(`cta.${v.id}.secondary`)}</p>
                <ul>
                  {Object.entries(sharedClientData(site, ctx.textsOf).messages.city).map(([city, name]) => (
                    <li key={city}>
                      <strong>{city}:</strong> {site.data.cta.messages.intro[v.id]?.replace('{city}', name)}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
        {id === 'marketing-dashboard' && (
          <>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('admin.language')}</th>
                  <th scope="col">{t('admin.pages')}</th>
                  <th scope="col">{t('admin.posts')}</th>
                </tr>
              </thead>
              <tbody>
                {site.languages.map((l) => (
                  <tr key={l}>
                    <td>{l}</td>
                    <td>{routes.routes.filter((r) => r.lang === l && r.indexable).length}</td>
                    <td>{site.posts.filter((p) => p.lang === l).length}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <h2>{t('admin.funnel')}</h2>
            <ol>
              {['directory_view', 'site_visit', 'contact_view', 'contact_click', 'booking_submit'].map((s) => (
                <li key={s}>
                  <code>{s}</code>
                </li>
              ))}
            </ol>
            <h2>{t('admin.sources')}</h2>
            <p>{site.data.tracking.directorySources.join(', ')}</p>
          </>
        )}
      </div>
    </main>
  );
}
