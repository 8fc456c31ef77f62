import type { TFunction } from 'i18next';

/** The catch-all `*` route's fallback screen (SPEC.md §2). */
export function NotFound({ t, startUrl }: { t: TFunction; startUrl: string }) {
  return (
    <section className="screen" aria-labelledby="screen-title">
      <h1 id="screen-title">{t('not_found.title')}</h1>
      <p className="lead">{t('not_found.lead')}</p>
      <a className="button button--primary" id="continue-button" href={startUrl}>
        {t('not_found.action')}
      </a>
    </section>
  );
}
