import { Island } from '../layout/Island';
import type { ScreenProps } from '../types';
import { BenefitList } from './BenefitList';
import { OfferTimerBanner } from './OfferTimerBanner';
import { PaymentTrust } from './PaymentTrust';
import { checkoutPaymentProps } from './payment-method-props';
import { offeredPlans, planChoiceProps } from './plan-choice-props';
import { paymentReceiptProps } from './receipt-props';
import { ScreenHeading } from './ScreenHeading';

const BENEFITS = ['live', 'alerts', 'consent'] as const;

/**
 * The paywalls paycheck1_pr5_h_win and paycheck1_pr5_h_ai (SPEC.md §2): the located number,
 * the offer countdown and a picker of the intro plans. The AI one words its benefits around
 * AI-powered location (SPEC.md §1). The call to action opens the checkout's payment form right
 * here (SPEC.md §3 Plans state showCheckout), paying for the plan picked above.
 */
export function paywallScreen(wording: 'win' | 'ai') {
  return function PaywallScreen(props: ScreenProps) {
    const { screen, t } = props;
    return (
      <section className={`screen paywall paywall--${wording}`} aria-labelledby="screen-title">
        <OfferTimerBanner t={t} />
        <Island
          name="LocatedBanner"
          props={{ title: t('kit.located.title'), phoneLabel: t('kit.located.phone_label') }}
        />
        <ScreenHeading screen={screen} t={t} />
        <BenefitList
          label={t('plans.paywall.benefits_label')}
          items={BENEFITS.map((benefit) => t(`plans.paywall.${wording}.benefits.${benefit}`))}
        />
        <Island
          name="PlanChoice"
          props={planChoiceProps(
            props,
            offeredPlans(props, wording === 'win' ? 'paycheck1_pr5_h_win' : 'paycheck1_pr5_h_ai'),
          )}
        />
        <Island
          name="CheckoutPayment"
          props={{
            ...checkoutPaymentProps(props, { layout: 'vertical', methods: ['card'] }),
            gateLabel: t('plans.paywall.cta'),
          }}
        />
        <Island name="PaymentReceipt" props={paymentReceiptProps(props, 'dialog')} />
        <PaymentTrust t={t} providers={[]} />
      </section>
    );
  };
}
