import type { PlanChoiceOption } from '../../islands/PlanChoice';
import { type PlanFamilyId, planOf } from '../../shared/plans/catalogue';
import { SCREEN_OFFERS } from '../../shared/plans/screen-offers';
import { Island } from '../layout/Island';
import type { ScreenProps } from '../types';
import { gatewayCopy, paymentPage } from './payment-method-props';
import { offeredPlans, planChoiceProps } from './plan-choice-props';
import { visitorCurrency } from './plan-copy';
import { ScreenHeading } from './ScreenHeading';
import { SkipForm } from './SkipForm';
import { upsellChargeCopy } from './upsell-charge';

/**
 * The anonymous mode and private chat upsell (SPEC.md §1: 30% off), monthly or quarterly, at the
 * tier the visitor's route or upsell price test names (SPEC.md §3: 9.99, 7.99, 5.99), else its
 * own. The choice goes to $plans.upsellPlan; one click buys it with the payment method on file,
 * 'No, thanks' moves on.
 */
export function UpsellPrivateScreen(props: ScreenProps) {
  const { screen, t, continueAction, next } = props;
  const offer = offeredPlans(props, 'upsell_an_private');
  // Whichever tier is offered, it is sold with the upsell's own coupon (SPEC.md §1, §9).
  const { coupon } = SCREEN_OFFERS.upsell_an_private;
  const offered = planChoiceProps(props, {
    families: offer.families,
    defaultFamily: offer.defaultFamily,
    slot: 'upsellPlan',
    coupon,
    label: t('plans.upsell_private.badge', { percent: coupon.percentOff }),
  });
  const choice = { ...offered, options: offered.options.map(withPeriod(props, offer.families)) };
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
      <Island name="PlanChoice" props={choice} />
      <Island
        name="UpsellPurchase"
        props={{
          offers: Object.fromEntries(choice.options.map((option) => [option.id, option.details])),
          defaultPlanId: choice.defaultId,
          action: continueAction,
          copy: {
            buy: t('plans.upsell_private.cta'),
            paying: t('plans.pay.paying'),
            noAccount: t('plans.card.no_account'),
            gateway: gatewayCopy(t),
            ...upsellChargeCopy(
              t,
              Object.fromEntries(
                offered.options.map((option, index) => [
                  option.id,
                  // Charged now, then the same with its period: the coupon takes its share of
                  // every payment, as the plan's disclosure says.
                  {
                    amount: option.fullPrice ?? '',
                    renewal: choice.options[index]?.fullPrice ?? null,
                  },
                ]),
              ),
            ),
          },
          ...paymentPage(props),
        }}
      />
      <SkipForm action={continueAction} next={next} label={t('plans.upsell_private.skip')} />
    </section>
  );
}

/**
 * The monthly and quarterly offers cost the same per period, so each option's total names its
 * period ('$6.99 every 3 months'): what differs between them is then on the card, beside the
 * per-day price.
 */
function withPeriod(props: ScreenProps, families: readonly PlanFamilyId[]) {
  const currency = visitorCurrency(props);
  const months = new Map<string, number>(
    families.map((family) => {
      const plan = planOf(family, currency);
      return [plan.id, plan.billing.kind === 'recurring' ? plan.billing.months : 0];
    }),
  );
  return (option: PlanChoiceOption): PlanChoiceOption => {
    const count = months.get(option.id);
    if (!count || !option.fullPrice) return option;
    return {
      ...option,
      fullPrice: props.t('plans.receipt.every_months', { price: option.fullPrice, count }),
    };
  };
}
