import { BottomButton } from '../kit/BottomButton';
import { ContinueForm } from '../layout/ContinueForm';
import type { ScreenProps } from '../types';
import { ScreenHeading } from './ScreenHeading';

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

/**
 * The feature screen (SPEC.md §2): what the app does, as the copy claims it (SPEC.md §1). A long
 * list, so its Continue is pinned to the bottom, in reach wherever the visitor has scrolled.
 */
export function FeaturesScreen({ screen, t, continueAction, next }: ScreenProps) {
  return (
    <section className="screen features" aria-labelledby="screen-title">
      <ScreenHeading screen={screen} t={t} />
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
      <p className="features__users">{t('plans.features.users')}</p>
      <BottomButton>
        <ContinueForm action={continueAction} next={next} t={t} />
      </BottomButton>
      <p className="features__guarantee">{t('plans.guarantee.title')}</p>
    </section>
  );
}
