import { Island } from '../layout/Island';
import type { ScreenProps } from '../types';
import { CheckoutWayOut } from './CheckoutWayOut';
import { OfferTimerBanner } from './OfferTimerBanner';
import { PaymentTrust } from './PaymentTrust';
import { checkoutPaymentProps } from './payment-method-props';
import { offeredPlans, planChoiceProps } from './plan-choice-props';
import { paymentReceiptProps } from './receipt-props';
import { ScreenHeading } from './ScreenHeading';

/**
 * The `{hash}` 3-day combo paywall (SPEC.md §2): the 3-day intro plan with its order summary
 * and disclosure; its call to action opens the payment form, Apple Pay first, then the card.
 */
const COMBO_METHODS = ['apple_pay', 'card'] as const;

export function ComboPaywallScreen(props: ScreenProps) {
  const { screen, t } = props;
  return (
    <section className="screen paywall paywall--combo" aria-labelledby="screen-title">
      <OfferTimerBanner t={t} />
      <ScreenHeading screen={screen} t={t} />
      <Island
        name="PlanChoice"
        props={planChoiceProps(props, {
          ...offeredPlans(props, 'paycheck_combo_3d'),
          summary: true,
        })}
      />
      <Island
        name="CheckoutPayment"
        props={{
          ...checkoutPaymentProps(props, { layout: 'vertical', methods: COMBO_METHODS }),
          gateLabel: t('plans.combo.cta'),
        }}
      />
      <Island name="PaymentReceipt" props={paymentReceiptProps(props, 'dialog')} />
      <CheckoutWayOut props={props} methods={COMBO_METHODS} />
      <PaymentTrust t={t} providers={['stripe']} />
    </section>
  );
}
