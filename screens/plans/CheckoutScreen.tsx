import { planOf } from '../../shared/plans/catalogue';
import type { ScreenProps } from '../types';
import {
  CHECKOUT_VARIANTS,
  type CheckoutScreenId,
  checkoutProviders,
  offeredVariant,
} from './checkout-variants';
import { checkoutPaymentProps, methodsFor } from './payment-method-props';
import { CHECKOUT_COMPOSITION } from './paywall-section-specs';
import { paywallComponent } from './paywall-sections';
import { offeredPlans, planChoiceProps } from './plan-choice-props';
import { visitorCurrency } from './plan-copy';

/**
 * A checkout (SPEC.md §2 checkout page content): the offer countdown, the plan with its order
 * summary (discount and total) and intro-then-recurring disclosure, the payment-method choice
 * with the card form and Pay (SPEC.md §4 Payment), and the guarantee; drawn from its sections
 * (./paywall-sections.tsx) as a marketer's content arranges them.
 */
export function checkoutScreen(id: CheckoutScreenId) {
  const named = CHECKOUT_VARIANTS[id];
  const variantOf = (props: ScreenProps) => offeredVariant(named, props.paypal ?? false);
  return paywallComponent(
    {
      wording: 'win',
      className: (props) => {
        const variant = variantOf(props);
        return `screen checkout checkout--${variant.layout} checkout--${variant.emphasis}`;
      },
      lead: (props) =>
        // The screen's own lead names PayPal: where PayPal is off, it says the card alone.
        named.methods.includes('paypal') && !variantOf(props).methods.includes('paypal')
          ? props.t('plans.checkout.card_lead')
          : undefined,
      callout: (props) => ({
        emphasis: variantOf(props).emphasis,
        plan: planOf(offeredPlans(props, id).defaultFamily, visitorCurrency(props)),
      }),
      plans: (props) => {
        return planChoiceProps(props, offeredPlans(props, id), { summary: true });
      },
      payment: (props) => {
        const variant = variantOf(props);
        return {
          form: checkoutPaymentProps(props, {
            layout: variant.layout,
            methods: variant.methods,
            offer: offeredPlans(props, id),
            forceDirect: variant.provider === 'braintree',
          }),
          methods: variant.methods,
        };
      },
      providers: (props) => {
        const variant = variantOf(props);
        return checkoutProviders(methodsFor(variant.methods, props.inApp), variant.provider);
      },
    },
    CHECKOUT_COMPOSITION,
  );
}
