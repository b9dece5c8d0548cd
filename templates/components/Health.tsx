import type { PageContext } from '../model/index.ts';
import { addMonths } from '../model/helpers.ts';

/**
 * The health documentation card and its one dialog. Without JavaScript the card links to the
 * details section (#health-details) that the dialog shows when scripted.
 */
export function HealthCard({ ctx }: { ctx: PageContext }) {
  const { t, site, format } = ctx;
  const h = site.data.health;
  // A check date in the past is never presented as the next one (the build warns that it is due).
  const next = addMonths(h.lastUpdate, h.intervalMonths);
  return (
    <aside className="card health-card" aria-labelledby="health-title">
      <h3 id="health-title">{t('health.cardTitle')}</h3>
      <p>{t('health.cardText', { months: h.intervalMonths })}</p>
      <a className="button" href="#health-dialog" data-dialog-open="health-dialog">
        {t('health.open')}
      </a>
      <dialog id="health-dialog" className="dialog" aria-labelledby="health-dialog-title" data-dialog>
        <div className="dialog-body">
          <h2 id="health-dialog-title">{t('health.dialogTitle')}</h2>
          <p className="badge">{t('health.verified')}</p>
          <p>{t('health.intro')}</p>
          <button type="button" className="button" data-toggle="health-details" aria-expanded="false" aria-controls="health-details" data-js-only>
            <span data-when="closed">{t('health.show')}</span>
            <span data-when="open" hidden>
              {t('health.hide')}
            </span>
          </button>
          <div id="health-details" data-toggle-target>
            <ul className="checks">
              <li>{t('health.interval', { months: h.intervalMonths })}</li>
              <li>{t('health.lastUpdate', { date: format.date(h.lastUpdate) })}</li>
              {next >= site.today && <li>{t('health.nextCheck', { date: format.date(next) })}</li>}
              <li>{t('health.onRequest')}</li>
            </ul>
          </div>
          <form method="dialog" data-js-only>
            <button type="submit" className="button button-primary" data-dialog-close>
              {t('health.close')}
            </button>
          </form>
          {/* Without script the dialog shows as the address's #health-dialog: leaving it closes it. */}
          <noscript>
            <a className="button button-primary" href="#health-title">
              {t('health.close')}
            </a>
          </noscript>
        </div>
      </dialog>
    </aside>
  );
}
