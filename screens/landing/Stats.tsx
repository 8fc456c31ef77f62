import type { TFunction } from 'i18next';

const STATS = ['users', 'accuracy', 'platforms'] as const;

/** The big-number band of the second long-form landing. */
export function Stats({ t }: { t: TFunction }) {
  return (
    <dl className="stats" aria-label={t('landing.stats.label')}>
      {STATS.map((stat) => (
        <div key={stat} className="stats__item">
          <dt className="stats__value">{t(`landing.stats.${stat}_value`)}</dt>
          <dd className="stats__label">{t(`landing.stats.${stat}`)}</dd>
        </div>
      ))}
    </dl>
  );
}
