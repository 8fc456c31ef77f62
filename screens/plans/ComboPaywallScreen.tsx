import { planOf } from '../../shared/plans/catalogue';
import { checkoutPaymentProps } from './payment-method-props';
import { COMBO_COMPOSITION } from './paywall-section-specs';
import { paywallComponent } from './paywall-sections';
import { offeredPlans, planChoiceProps } from './plan-choice-props';
import { visitorCurrency } from './plan-copy';

/**
 * The `{hash}` 3-day combo paywall (SPEC.md §2): the 3-day intro plan with its order summary
 * and disclosure; its call to action opens the payment form, Apple Pay first, then the card.
 * Drawn from its sections (./paywall-sections.tsx) as a marketer's content arranges them.
 */
const COMBO_METHODS = ['apple_pay', 'card'] as const;

export const ComboPaywallScreen = paywallComponent(
  {
    wording: 'win',
    callout: (props) => ({
      emphasis: 'trial',
      plan: planOf(offeredPlans(props, 'paycheck_combo_3d').defaultFamily, visitorCurrency(props)),
    }),
    plans: (props) =>
      planChoiceProps(props, offeredPlans(props, 'paycheck_combo_3d'), { summary: true }),
    payment: (props) => ({
      form: {
        ...checkoutPaymentProps(props, {
          layout: 'vertical',
          methods: COMBO_METHODS,
          offer: offeredPlans(props, 'paycheck_combo_3d'),
        }),
        gateLabel: props.t('plans.combo.cta'),
      },
      methods: COMBO_METHODS,
    }),
    providers: () => ['stripe'],
  },
  COMBO_COMPOSITION,
);
