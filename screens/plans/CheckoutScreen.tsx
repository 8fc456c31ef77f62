import { planOf } from '../../shared/plans/catalogue';
import { Island } from '../layout/Island';
import type { ScreenProps } from '../types';
import { CheckoutCallout } from './CheckoutCallout';
import { CheckoutWayOut } from './CheckoutWayOut';
import {
  CHECKOUT_VARIANTS,
  type CheckoutScreenId,
  checkoutProviders,
  offeredVariant,
} from './checkout-variants';
import { OfferTimerBanner } from './OfferTimerBanner';
import { PaymentTrust } from './PaymentTrust';
import { checkoutPaymentProps, methodsFor } from './payment-method-props';
import { offeredPlans, planChoiceProps } from './plan-choice-props';
import { visitorCurrency } from './plan-copy';
import { paymentReceiptProps } from './receipt-props';
import { ScreenHeading } from './ScreenHeading';

/**
 * A checkout (SPEC.md §2 checkout page content): the offer countdown, the plan with its order
 * summary (discount and total) and intro-then-recurring disclosure, the payment-method choice
 * with the card form and Pay (SPEC.md §4 Payment), and the guarantee.
 */
export function checkoutScreen(id: CheckoutScreenId) {
  const named = CHECKOUT_VARIANTS[id];
  return function CheckoutScreen(props: ScreenProps) {
    const { screen, t, language } = props;
    const variant = offeredVariant(named, props.paypal ?? false);
    // The screen's own lead names PayPal: where PayPal is off, it says the card alone.
    const payPalLeftOut = named.methods.includes('paypal') && !variant.methods.includes('paypal');
    const offer = offeredPlans(props, id);
    return (
      <section
        className={`screen checkout checkout--${variant.layout} checkout--${variant.emphasis}`}
        aria-labelledby="screen-title"
      >
        <OfferTimerBanner t={t} />
        <ScreenHeading
          screen={screen}
          t={t}
          lead={payPalLeftOut ? t('plans.checkout.card_lead') : undefined}
        />
        <CheckoutCallout
          t={t}
          language={language}
          emphasis={variant.emphasis}
          plan={planOf(offer.defaultFamily, visitorCurrency(props))}
        />
        <Island
          name="PlanChoice"
          props={planChoiceProps(props, {
            families: offer.families,
            defaultFamily: offer.defaultFamily,
            summary: true,
          })}
        />
        <Island
          name="CheckoutPayment"
          props={checkoutPaymentProps(props, {
            layout: variant.layout,
            methods: variant.methods,
            forceDirect: variant.provider === 'braintree',
          })}
        />
        <Island name="PaymentReceipt" props={paymentReceiptProps(props, 'dialog')} />
        <CheckoutWayOut props={props} methods={variant.methods} />
        <PaymentTrust
          t={t}
          providers={checkoutProviders(methodsFor(variant.methods, props.inApp), variant.provider)}
        />
      </section>
    );
  };
}
