import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { purchase } from '../../../islands/payments/purchase';
import { $checkout } from '../../../islands/stores/checkout';
import { $error } from '../../../islands/stores/error';
import { $paymentPhase, type PaymentPage, pay } from '../../../islands/stores/payment';
import { showsPaymentErrorBesidePay } from '../../../islands/stores/payment-error';
import {
  cardRequest,
  final,
  freshCheckout,
  httpFailure,
  storeDeps,
  succeeded,
  world,
} from './fakes';

/**
 * The product API failing while a checkout asks for its charge's result (the embedded portal's
 * 'polling-result' fault, relayed as a 500 by the worker: test/worker/api/portal-faults.test.ts
 * and test/worker/portal/faults.test.ts): the checkout's state machine behind its payment store,
 * as Pay follows them. Each failed poll is reported to the console and asked again after its
 * pause, while Pay stays held (the 'paying' phase: a busy Pay, test/unit/kit/ContinueButton.test.tsx)
 * and nothing says the payment failed, neither a toast nor the error beside Pay; once the portal
 * answers, the one charge is confirmed in the receipt.
 */

/** Four polls that fail in a row: by the pauses of 0.5, 1 and 2 s, the last 3.5 s after the first. */
const FAILED_POLLS = 4;

const page: PaymentPage = {
  next: '/upsell_an_private?skip_split=true',
  declined: '/payment_declined?skip_split=true',
  here: '/checkout_v3_tr?skip_split=true',
  texts: {},
  production: false,
  confirm: true,
};

beforeEach(freshCheckout);
afterEach(freshCheckout);

/** What the visitor sees as the checkout asks for the result: Pay's phase and any failure said. */
const shown = () =>
  `${$paymentPhase.get()} toast=${$error.get().show} beside=${$checkout.get().paymentError.show}`;

describe('the polling result fails for a while', () => {
  it('Pay stays held and nothing says it failed; once the portal answers, one charge, confirmed', async () => {
    const seen: string[] = [];
    const { deps, portal, report, clock } = world({
      script: {
        poll: async (_id, n) => {
          seen.push(shown());
          if (n < FAILED_POLLS) {
            throw httpFailure(500, {
              errors: { messages: ['Internal error'] },
              code: 'emulator_fault',
            });
          }
          return final(succeeded());
        },
      },
    });
    const leave = showsPaymentErrorBesidePay();
    await pay(
      cardRequest(),
      page,
      storeDeps((request) => purchase(request, deps)),
    );
    leave();

    // Every ask, the failed ones and the one after them, found Pay held and no failure said.
    expect(seen).toEqual(Array(FAILED_POLLS + 1).fill('paying toast=false beside=false'));
    expect(report, 'each failed poll reported to the console').toHaveBeenCalledTimes(FAILED_POLLS);
    expect(clock.sleeps.slice(0, 3), 'asked again after its pause').toEqual([500, 1000, 2000]);
    // Never answered with a second POST: one charge in all.
    expect(portal.posts).toHaveLength(1);
    expect(portal.charges()).toBe(1);
    expect($checkout.get()).toMatchObject({ isSuccess: true, id: 'sub_1', showSuccessPopup: true });
    expect(shown()).toBe('paying toast=false beside=false');
  });
});
