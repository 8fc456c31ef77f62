import type { TFunction } from 'i18next';
import { FeatureIcon } from './FeatureIcon';
import { FEATURES } from './features';
import { LandingSection } from './LandingSection';

/**
 * Every claimed feature: explained, as a grid with a line on each (the "all features" landing's
 * centrepiece), or as a short checklist for the landings that only mention them.
 */
export function FeatureSection({ t, explained }: { t: TFunction; explained: boolean }) {
  const block = explained ? 'feature-grid' : 'feature-list';
  const title = explained ? 'landing.features.title' : 'landing.features.compact_title';
  return (
    <LandingSection name="features" title={t(title)}>
      <ul className={block}>
        {FEATURES.map((feature) => (
          <li key={feature} className={`${block}__item`}>
            <FeatureIcon name={feature} />
            {explained ? (
              <>
                <h3 className="feature-grid__title">{t(`landing.features.${feature}.title`)}</h3>
                <p className="feature-grid__text">{t(`landing.features.${feature}.text`)}</p>
              </>
            ) : (
              t(`landing.features.${feature}.title`)
            )}
          </li>
        ))}
      </ul>
    </LandingSection>
  );
}
