import type { TFunction } from 'i18next';
import { FeatureIcon } from './FeatureIcon';
import { FEATURES } from './features';

/** Every claimed feature with a line of explanation: the "all features" landing's centrepiece. */
export function FeatureGrid({ t }: { t: TFunction }) {
  return (
    <section className="landing-section" aria-labelledby="features-title">
      <h2 id="features-title" className="landing-section__title">
        {t('landing.features.title')}
      </h2>
      <ul className="feature-grid">
        {FEATURES.map((feature) => (
          <li key={feature} className="feature-grid__item">
            <FeatureIcon name={feature} />
            <h3 className="feature-grid__title">{t(`landing.features.${feature}.title`)}</h3>
            <p className="feature-grid__text">{t(`landing.features.${feature}.text`)}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
