import { TestNotice } from '../after/TestNotice';
import { Island } from '../layout/Island';
import type { ScreenProps } from '../types';
import { checkoutPaymentProps } from './payment-method-props';
import { offeredPlans, planChoiceProps } from './plan-choice-props';
import { paymentReceiptProps } from './receipt-props';
import { ScreenHeading } from './ScreenHeading';

/** The card provider's documented test cards, for QA walking the stripe_test flow. */
const TEST_CARDS = [
  { number: '4242 4242 4242 4242', outcome: 'card_success' },
  { number: '4000 0000 0000 0002', outcome: 'card_declined' },
  { number: '4000 0027 6000 3184', outcome: 'card_3ds' },
] as const;

/**
 * checkout-test, the checkout of the stripe_test flow used by QA (SPEC.md §2): pays through the
 * provider the portal names, which locally is the test gateway.
 */
export function CheckoutTestScreen(props: ScreenProps) {
  const { screen, t } = props;
  return (
    <section className="screen test-screen" aria-labelledby="screen-title">
      <TestNotice t={t} />
      <ScreenHeading screen={screen} t={t} />
      <Island
        name="PlanChoice"
        props={planChoiceProps(props, offeredPlans(props, 'checkout-test'), { summary: true })}
      />
      <h2 className="test-screen__cards-title">{t('plans.test.cards_label')}</h2>
      <dl className="test-screen__cards">
        {TEST_CARDS.map((card) => (
          <div key={card.number} className="test-screen__card">
            <dt>
              <bdi dir="ltr">{card.number}</bdi>
            </dt>
            <dd>{t(`plans.test.${card.outcome}`)}</dd>
          </div>
        ))}
      </dl>
      <Island
        name="CheckoutPayment"
        props={checkoutPaymentProps(props, {
          layout: 'vertical',
          methods: ['card'],
          offer: offeredPlans(props, 'checkout-test'),
        })}
      />
      <Island name="PaymentReceipt" props={paymentReceiptProps(props, 'dialog')} />
    </section>
  );
}
