import type { PlanChoiceOption, PlanChoiceProps } from '../../islands/PlanChoice';
import { isPlanId, planById } from '../../shared/plans/catalogue';
import { endedOffer, SCREEN_OFFERS } from '../../shared/plans/screen-offers';
import { composedScreen, type SectionKind } from '../kit/composition';
import { supportSection } from '../kit/SupportLinks';
import { trustSection } from '../kit/TrustLabels';
import { Island } from '../layout/Island';
import type { ScreenProps } from '../types';
import { OfferTimerBanner } from './OfferTimerBanner';
import { payTermsCopy } from './pay-terms-props';
import { gatewayCopy, paymentPage } from './payment-method-props';
import { couponSavingShown, offeredPlans, planChoiceProps } from './plan-choice-props';
import { headingSection } from './ScreenHeading';
import { skipSection } from './SkipForm';
import { upsellCardAgainProps, upsellChargeCopy } from './upsell-charge';
import {
  UPSELL_PRIVATE_COMPOSITION,
  UPSELL_PRIVATE_SECTION_SPECS,
  type UpsellPrivateSection,
} from './upsell-section-specs';

const { coupon: COUPON } = SCREEN_OFFERS.upsell_an_private;

/**
 * What UpsellPurchase sells of a plan choice: each option's details, and per option the charge
 * line and the button naming what a press takes.
 */
function purchaseOffers(props: ScreenProps, choice: PlanChoiceProps) {
  const withRenewal = choice.options.map(withPeriod(props));
  const { chargeNow, buyFor } = upsellChargeCopy(
    props.t,
    props.t('plans.upsell_private.cta'),
    Object.fromEntries(
      choice.options.map((option, index) => [
        option.id,
        // Charged now, then the same with its period: the coupon takes its share of every
        // payment, as the plan's disclosure says.
        { amount: option.fullPrice ?? '', renewal: withRenewal[index]?.fullPrice ?? null },
      ]),
    ),
  );
  return {
    offers: Object.fromEntries(choice.options.map((option) => [option.id, option.details])),
    defaultPlanId: choice.defaultId,
    chargeNow,
    buyFor,
  };
}

/**
 * The upsell's offer: the tiers the route or price test names, each with its period, sold with
 * the upsell's coupon until the visitor's offer ended; its '30% off' only while that is true.
 */
function privateOffer(props: ScreenProps) {
  const { t } = props;
  const offer = offeredPlans(props, 'upsell_an_private');
  const offered = planChoiceProps(props, offer, {
    slot: 'upsellPlan',
    couponLabel: t('plans.upsell_private.badge', { percent: COUPON.percentOff }),
  });
  const periods = withPeriod(props);
  const choice: PlanChoiceProps = {
    ...offered,
    options: offered.options.map(periods),
    afterOffer: offered.afterOffer && {
      ...offered.afterOffer,
      options: offered.afterOffer.options.map(periods),
    },
  };
  const after = offered.afterOffer && { ...offered, ...offered.afterOffer };
  return {
    choice,
    purchase: purchaseOffers(props, offered),
    // Each tier renews: where the visitor's country asks, they agree to it here as at the
    // checkout (shared/plans/renewal-consent.ts), at the price a press takes.
    terms: payTermsCopy(props, offer),
    afterPurchase: after
      ? { ...purchaseOffers(props, after), terms: payTermsCopy(props, endedOffer(offer)) }
      : undefined,
  };
}

/**
 * The choice: the plan picker, whose pick goes to $plans.upsellPlan, and Buy, which buys it in
 * one click with the payment method on file.
 */
function PrivateChoice(props: ScreenProps) {
  const { t, continueAction } = props;
  const { choice, purchase, afterPurchase, terms } = privateOffer(props);
  return (
    <>
      <Island name="PlanChoice" props={choice} />
      <Island
        name="UpsellPurchase"
        props={{
          offers: purchase.offers,
          defaultPlanId: purchase.defaultPlanId,
          afterOffer: afterPurchase,
          action: continueAction,
          terms,
          copy: {
            paying: t('plans.pay.paying'),
            noAccount: t('plans.card.no_account'),
            gateway: gatewayCopy(t),
            buy: t('plans.upsell_private.cta'),
            onFile: t('plans.upsell_charge.on_file'),
            chargeNow: purchase.chargeNow,
            buyFor: purchase.buyFor,
          },
          ...paymentPage(props),
          ...upsellCardAgainProps(props),
        }}
      />
    </>
  );
}

/** The upsell's sections with what draws each (./upsell-section-specs.ts says what each is). */
const UPSELL_PRIVATE_SECTIONS: Record<UpsellPrivateSection, SectionKind> = {
  badge: {
    ...UPSELL_PRIVATE_SECTION_SPECS.badge,
    // '30% off' is said only while it is true: the visitor's countdown runs, and after it the
    // full price is charged (shared/plans/anchors.ts); the countdown says when it ends.
    render: (props) => (
      <>
        {couponSavingShown(props, SCREEN_OFFERS.upsell_an_private) ? (
          <p className="upsell__badge">
            {props.t('plans.upsell_private.badge', { percent: COUPON.percentOff })}
          </p>
        ) : null}
        <OfferTimerBanner t={props.t} clock={props.offerClock} />
      </>
    ),
  },
  heading: headingSection(UPSELL_PRIVATE_SECTION_SPECS.heading),
  features: {
    ...UPSELL_PRIVATE_SECTION_SPECS.features,
    render: ({ t }) => (
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
    ),
  },
  choice: {
    ...UPSELL_PRIVATE_SECTION_SPECS.choice,
    render: (props) => <PrivateChoice {...props} />,
  },
  skip: skipSection(UPSELL_PRIVATE_SECTION_SPECS.skip, 'plans.upsell_private.skip'),
  trust: trustSection(UPSELL_PRIVATE_SECTION_SPECS.trust),
  support: supportSection(UPSELL_PRIVATE_SECTION_SPECS.support),
};

/**
 * The anonymous mode and private chat upsell (SPEC.md §1: 30% off), monthly or quarterly, at the
 * tier the visitor's route or upsell price test names (SPEC.md §3: 9.99, 7.99, 5.99), else its
 * own; 'No, thanks' moves on. Drawn from its sections as a marketer's content arranges them.
 */
export const UpsellPrivateScreen = composedScreen(
  UPSELL_PRIVATE_COMPOSITION,
  UPSELL_PRIVATE_SECTIONS,
);

/**
 * The monthly and quarterly offers cost the same per period, so each option's total names its
 * period ('$6.99 every 3 months'): what differs between them is then on the card, beside the
 * per-day price.
 */
function withPeriod(props: ScreenProps) {
  return (option: PlanChoiceOption): PlanChoiceOption => {
    const plan = isPlanId(option.id) ? planById(option.id) : null;
    const count = plan?.billing.kind === 'recurring' ? plan.billing.months : 0;
    if (!count || !option.fullPrice) return option;
    return {
      ...option,
      fullPrice: props.t('plans.receipt.every_months', { price: option.fullPrice, count }),
    };
  };
}
