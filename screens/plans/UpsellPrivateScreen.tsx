import { COUPONS } from '../../shared/plans/coupons';
import { ContinueForm } from '../layout/ContinueForm';
import { Island } from '../layout/Island';
import type { ScreenProps } from '../types';
import { planChoiceProps } from './plan-choice-props';
import { ScreenHeading } from './ScreenHeading';
import { SkipForm } from './SkipForm';

/**
 * The anonymous mode and private chat upsell (SPEC.md §1: 30% off), monthly or quarterly. The
 * choice goes to $plans.upsellPlan; Continue and 'No, thanks' both move on for now.
 */
export function UpsellPrivateScreen(props: ScreenProps) {
  const { screen, t, continueAction, next } = props;
  const coupon = COUPONS.upsell_30;
  return (
    <section className="screen upsell" aria-labelledby="screen-title">
      <p className="upsell__badge">
        {t('plans.upsell_private.badge', { percent: coupon.percentOff })}
      </p>
      <ScreenHeading screen={screen} t={t} />
      <ul className="plan-features" aria-label={t('plans.upsell_private.benefits_label')}>
        {(['anonymous', 'chat'] as const).map((feature) => (
          <li key={feature} className="plan-features__item">
            <span className="plan-features__title">
              {t(`plans.upsell_private.${feature}_title`)}
            </span>
            <span className="plan-features__text">{t(`plans.upsell_private.${feature}_text`)}</span>
          </li>
        ))}
      </ul>
      <Island
        name="PlanChoice"
        props={planChoiceProps(props, {
          families: ['upsell_monthly_999', 'upsell_quarterly_999'],
          defaultFamily: 'upsell_monthly_999',
          slot: 'upsellPlan',
          coupon,
          label: t('plans.upsell_private.badge', { percent: coupon.percentOff }),
        })}
      />
      <ContinueForm action={continueAction} next={next} label={t('plans.upsell_private.cta')} />
      <SkipForm action={continueAction} next={next} label={t('plans.upsell_private.skip')} />
    </section>
  );
}
