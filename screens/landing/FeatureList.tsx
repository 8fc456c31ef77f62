import type { TFunction } from 'i18next';
import { FeatureIcon } from './FeatureIcon';
import { FEATURES } from './features';

/** The same features as a short checklist, for the landings that only mention them. */
export function FeatureList({ t }: { t: TFunction }) {
  return (
    <section className="landing-section" aria-labelledby="features-title">
      <h2 id="features-title" className="landing-section__title">
        {t('landing.features.compact_title')}
      </h2>
      <ul className="feature-list">
        {FEATURES.map((feature) => (
          <li key={feature} className="feature-list__item">
            <FeatureIcon name={feature} />
            {t(`landing.features.${feature}.title`)}
          </li>
        ))}
      </ul>
    </section>
  );
}
