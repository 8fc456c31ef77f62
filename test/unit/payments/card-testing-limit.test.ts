// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckoutPaymentProps } from '../../../islands/CheckoutPayment';
import { purchase } from '../../../islands/payments/purchase';
import { $checkout } from '../../../islands/stores/checkout';
import { payingPage } from '../../../islands/stores/checkout-purchase';
import { $error } from '../../../islands/stores/error';
import { $paymentPhase, pay } from '../../../islands/stores/payment';
import { showsPaymentErrorBesidePay } from '../../../islands/stores/payment-error';
import { islandProps, renderScreen } from '../plans/render-screen';
import { cardRequest, freshCheckout, httpFailure, storeDeps, world } from './fakes';

/**
 * The card-testing limit as a checkout visitor meets it (docs/payments.md, "Card testing"). The
 * worker refuses the charge after the visitor's fifth decline with 429 `payment_rate_limited`
 * before the product API, a card that would pay included
 * (test/worker/purchases/payment-limits.test.ts); here the checkout as the worker renders it
 * takes that refusal through its state machine and payment store: said beside Pay in the page's
 * words, once (no toast), the visitor left on the checkout with Pay free, nothing asked again.
 */

const { document } = await renderScreen('checkout_v3_tr', { country: 'SG' });
const checkout = islandProps<CheckoutPaymentProps>(document, 'CheckoutPayment');

beforeEach(freshCheckout);
afterEach(freshCheckout);

describe('the charge after five declines, refused by the worker', () => {
  it('says the limit beside Pay in the checkout’s words, stays on the checkout, and frees Pay', async () => {
    const { deps, portal } = world({
      script: {
        start: async () => {
          throw httpFailure(429, { errors: { messages: [] }, code: 'payment_rate_limited' });
        },
      },
    });
    const store = storeDeps((request) => purchase(request, deps));
    // The checkout's form shows the payment error beside its Pay while it is in the page.
    const leave = showsPaymentErrorBesidePay();
    await pay(cardRequest(), payingPage(checkout.page, checkout.errorTexts), store);
    leave();

    expect($checkout.get().paymentError).toEqual({
      show: true,
      message:
        'Too many declined payments. For your security, please wait an hour or contact your card issuer before trying again.',
    });
    expect($error.get().show, 'no toast repeats it').toBe(false);
    expect(store.navigate, "not 'Payment declined': nothing was declined").not.toHaveBeenCalled();
    expect($paymentPhase.get()).toBe('idle');
    expect(portal.posts, 'one POST, not asked again').toHaveLength(1);
  });
});
