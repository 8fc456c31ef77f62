import { planOf } from '../../shared/plans/catalogue';
import type { ScreenProps } from '../types';
import { checkoutPaymentProps } from './payment-method-props';
import { type PaywallWording, resultPaywallComposition } from './paywall-section-specs';
import { paywallComponent } from './paywall-sections';
import { offeredPlans, planChoiceProps } from './plan-choice-props';
import { visitorCurrency } from './plan-copy';

/**
 * The paywalls paycheck1_pr5_h_win and paycheck1_pr5_h_ai (SPEC.md §2): the located number,
 * the offer countdown and a picker of the intro plans. The AI one words its benefits around
 * AI-powered location (SPEC.md §1), and the chosen plan's order summary. The call to action opens
 * the checkout's payment form right here (SPEC.md §3 Plans state showCheckout), paying for the plan picked above. Drawn from its
 * sections (./paywall-sections.tsx) as a marketer's content arranges them.
 */
export function paywallScreen(wording: PaywallWording) {
  const id = wording === 'win' ? 'paycheck1_pr5_h_win' : 'paycheck1_pr5_h_ai';
  return paywallComponent(
    {
      wording,
      callout: (props: ScreenProps) => ({
        emphasis: 'trial',
        plan: planOf(offeredPlans(props, id).defaultFamily, visitorCurrency(props)),
      }),
      plans: (props) => planChoiceProps(props, offeredPlans(props, id), { summary: true }),
      payment: (props) => ({
        form: {
          ...checkoutPaymentProps(props, {
            layout: 'vertical',
            methods: ['card'],
            offer: offeredPlans(props, id),
          }),
          gateLabel: props.t('plans.paywall.cta'),
        },
        methods: ['card'],
      }),
      // Cards only, taken by the card provider.
      providers: () => ['stripe'],
    },
    resultPaywallComposition(wording),
  );
}
