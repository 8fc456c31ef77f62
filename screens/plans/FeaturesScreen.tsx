import { BottomButton } from '../kit/BottomButton';
import { composedScreen, type SectionKind } from '../kit/composition';
import { supportSection } from '../kit/SupportLinks';
import { trustSection } from '../kit/TrustLabels';
import { ContinueForm } from '../layout/ContinueForm';
import {
  FEATURES_COMPOSITION,
  FEATURES_SECTION_SPECS,
  type FeaturesSection,
} from './features-section-specs';
import { headingSection } from './ScreenHeading';

/** SPEC.md §1 claims, in the order the feature screen lists them. */
const FEATURES = [
  'realtime',
  'history',
  'alerts',
  'checkin',
  'sos',
  'groups',
  'chat',
  'anonymous',
  'accuracy',
  'ai',
  'platforms',
] as const;

/** The feature screen's sections with what draws each (./features-section-specs.ts says what). */
const FEATURES_SECTIONS: Record<FeaturesSection, SectionKind> = {
  heading: headingSection(FEATURES_SECTION_SPECS.heading),
  features: {
    ...FEATURES_SECTION_SPECS.features,
    render: ({ t }) => (
      <ul className="plan-features" aria-label={t('plans.features.label')}>
        {FEATURES.map((feature) => (
          <li key={feature} className="plan-features__item">
            <span className="plan-features__title">
              {t(`plans.features.items.${feature}.title`)}
            </span>
            <span className="plan-features__text">{t(`plans.features.items.${feature}.text`)}</span>
          </li>
        ))}
      </ul>
    ),
  },
  users: {
    ...FEATURES_SECTION_SPECS.users,
    render: ({ t }) => <p className="features__users">{t('plans.features.users')}</p>,
  },
  continue: {
    ...FEATURES_SECTION_SPECS.continue,
    render: ({ t, continueAction, next }) => (
      <BottomButton>
        <ContinueForm action={continueAction} next={next} t={t} />
      </BottomButton>
    ),
  },
  guarantee: {
    ...FEATURES_SECTION_SPECS.guarantee,
    render: ({ t }) => <p className="features__guarantee">{t('plans.guarantee.title')}</p>,
  },
  trust: trustSection(FEATURES_SECTION_SPECS.trust),
  support: supportSection(FEATURES_SECTION_SPECS.support),
};

/**
 * The feature screen (SPEC.md §2): what the app does, as the copy claims it (SPEC.md §1). A long
 * list, so its Continue is pinned to the bottom, in reach wherever the visitor has scrolled.
 * Drawn from its sections as a marketer's content arranges them.
 */
export const FeaturesScreen = composedScreen(FEATURES_COMPOSITION, FEATURES_SECTIONS);
