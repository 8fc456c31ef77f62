import type { TFunction } from 'i18next';

/** SPEC.md §1, §9: the 100% money-back guarantee. */
export function Guarantee({ t }: { t: TFunction }) {
  return (
    <section className="guarantee" aria-labelledby="guarantee-title">
      <h2 id="guarantee-title" className="guarantee__title">
        {t('landing.guarantee.title')}
      </h2>
      <p className="guarantee__text">{t('landing.guarantee.text')}</p>
    </section>
  );
}
