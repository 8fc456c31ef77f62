import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectTracker } from '../../../islands/analytics/emit';
import type { PurchaseOutcome } from '../../../islands/payments/purchase-types';
import { $checkout } from '../../../islands/stores/checkout';
import { $error } from '../../../islands/stores/error';
import { $events, pendingPurchases, takePendingPurchases } from '../../../islands/stores/events';
import {
  $declinedReturn,
  $paymentPhase,
  CONFIRMING_RECHECK_MS,
  type PaymentPage,
  type PaymentStoreDeps,
  type PurchasedPlan,
  pay,
  resumePayment,
} from '../../../islands/stores/payment';
import { $receipts } from '../../../islands/stores/receipt';
import { $signup } from '../../../islands/stores/signup';
import { cardRequest, TRIAL_RECEIPT } from './fakes';

/**
 * The payment store is what the checkout's Pay button and the page around it follow:
 * the phase holds or frees the button, the outcome moves the visitor on or shows a toast. The
 * state machine behind it is a fake here; its sleep is a real timer, under fake time.
 */

const page: PaymentPage = {
  next: '/upsell_private?flow=default&gclid=G-1',
  declined: '/payment_declined?flow=default&gclid=G-1',
  here: '/checkout_v3_tr?flow=default&gclid=G-1',
  texts: {
    payment_failed: 'Your payment did not go through.',
    payment_may_have_gone_through: 'Your payment may already have gone through. Check your email.',
  },
  production: true,
};

const request = cardRequest({
  planId: 'monthly_7d_usd',
  userData: { id: 'monthly_7d_usd', currency: 'USD', price: '39.99', periodPrice: '6.99' },
});

const succeeded = (id = 'sub_42'): PurchaseOutcome => ({
  kind: 'succeeded',
  subscriptionId: id,
  eventId: 'evt_42',
  priceWithDiscount: 6.99,
});
const confirming: PurchaseOutcome = { kind: 'confirming', pollingId: 'poll_1' };

function fakeDeps(
  outcomes: { purchase?: () => Promise<PurchaseOutcome>; resume?: PurchaseOutcome[] } = {},
) {
  const resumeAnswers = [...(outcomes.resume ?? [])];
  return {
    purchase: vi.fn(outcomes.purchase ?? (async () => succeeded())),
    resumePurchase: vi.fn(async () => resumeAnswers.shift() ?? null),
    unfinishedPlan: vi.fn((): PurchasedPlan | null => ({
      planId: request.planId,
      userData: request.userData,
    })),
    navigate: vi.fn<(url: string) => void>(),
    sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  } satisfies PaymentStoreDeps;
}

beforeEach(() => {
  vi.useFakeTimers();
  $paymentPhase.set('idle');
  $receipts.set({ main: null, added: [] });
  $checkout.set({
    ...$checkout.get(),
    isSuccess: null,
    id: '',
    paymentError: { show: false, message: '' },
  });
  $error.set({ show: false, message: '' });
  $declinedReturn.set('');
  $events.set({ eventsData: {}, analyticsData: {} });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('pay: what each outcome does for the visitor (SPEC.md §4 Payment)', () => {
  it('holds the button while the purchase runs', async () => {
    let answer: (outcome: PurchaseOutcome) => void = () => {};
    const deps = fakeDeps({ purchase: () => new Promise((resolve) => (answer = resolve)) });
    const done = pay(request, page, deps);
    expect($paymentPhase.get()).toBe('paying');
    answer(succeeded());
    await done;
  });

  it('succeeded: records isSuccess and the subscription id, and opens the next screen', async () => {
    const deps = fakeDeps();
    await pay(request, page, deps);
    expect($checkout.get()).toMatchObject({ isSuccess: true, id: 'sub_42' });
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith(page.next);
    // The button stays held while the next page loads: no second purchase from this page.
    expect($paymentPhase.get()).toBe('paying');
    expect($error.get().show).toBe(false);
  });

  it('succeeded on a checkout: keeps the receipt and confirms it before moving on', async () => {
    const sent: string[] = [];
    connectTracker((event) => sent.push(event.name));
    $signup.set({ ...$signup.get(), email: 'anna@example.com' });
    const deps = fakeDeps({
      purchase: async () => ({
        ...succeeded(),
        priceWithDiscount: 4.99,
        currency: 'EUR',
        paidWith: { kind: 'card', brand: 'visa', last4: '4242' },
      }),
    });
    await pay(request, { ...page, confirm: true }, deps);
    // The receipt dialog's Continue moves on, not the payment.
    expect(deps.navigate).not.toHaveBeenCalled();
    expect($checkout.get()).toMatchObject({ isSuccess: true, showSuccessPopup: true });
    expect(sent).toContain('payment_successful_popup');
    // The charge's own amount and currency, not the 6.99 USD the plan data says.
    expect($receipts.get().main).toMatchObject({
      planId: 'monthly_7d_usd',
      subscriptionId: 'sub_42',
      amount: 499,
      currency: 'EUR',
      renewsAt: null,
      email: 'anna@example.com',
      paidWith: { kind: 'card', brand: 'visa', last4: '4242' },
    });
  });

  it('succeeded with the worker’s receipt: its amount, renewal date and price, nothing computed', async () => {
    const receipt = TRIAL_RECEIPT;
    await pay(
      request,
      { ...page, confirm: true },
      fakeDeps({ purchase: async () => ({ ...succeeded(), receipt }) }),
    );
    expect($receipts.get().main).toMatchObject({
      planId: 'monthly_7d_intro_usd',
      amount: 699,
      currency: 'USD',
      renewsAt: '2026-12-03T10:00:00.000Z',
      renewalAmount: 3999,
    });
  });

  it('a charge sent with the ticked renewal consent keeps the day of it; one without keeps none', async () => {
    const consent = { text_version: 'renewal-consent-2026-11', language: 'en' };
    const receipt = TRIAL_RECEIPT;
    await pay(
      { ...request, renewalConsent: consent },
      { ...page, confirm: true },
      fakeDeps({ purchase: async () => ({ ...succeeded(), receipt }) }),
    );
    // The worker's clock that dated the charge, which stamped the consent moments before.
    expect($receipts.get().main?.renewalAgreedAt).toBe(TRIAL_RECEIPT.charged_at);

    $paymentPhase.set('idle');
    await pay(
      { ...request, renewalConsent: null },
      { ...page, confirm: true },
      fakeDeps({ purchase: async () => ({ ...succeeded('sub_43'), receipt }) }),
    );
    expect($receipts.get().main).toMatchObject({ subscriptionId: 'sub_43', renewalAgreedAt: null });
  });

  it('a reload mid-charge keeps the consent its attempt sent, for the receipt', async () => {
    const consent = { text_version: 'renewal-consent-2026-11', language: 'en' };
    const deps = {
      ...fakeDeps({
        resume: [
          {
            kind: 'succeeded',
            subscriptionId: 'sub_42',
            eventId: null,
            priceWithDiscount: 6.99,
            receipt: TRIAL_RECEIPT,
          },
        ],
      }),
      unfinishedPlan: () => ({ ...request, renewalConsent: consent }),
    };
    await resumePayment({ ...page, confirm: true }, deps);
    expect($receipts.get().main?.renewalAgreedAt).toBe(TRIAL_RECEIPT.charged_at);
  });

  it('an upsell bought after the checkout joins the main receipt once, charged to its card', async () => {
    const card = { kind: 'card', brand: 'visa', last4: '4242' } as const;
    await pay(
      request,
      { ...page, confirm: true },
      fakeDeps({ purchase: async () => ({ ...succeeded('sub_main'), paidWith: card }) }),
    );
    const upsell = { ...request, planId: 'upsell_monthly_599_usd' };
    const receipt = {
      plan_id: 'upsell_monthly_599_usd',
      amount: 599,
      currency: 'USD',
      charged_at: '2026-11-26T10:05:00.000Z',
      renews_at: '2026-12-26T10:05:00.000Z',
      renewal_amount: 599,
    };
    const deps = fakeDeps({ purchase: async () => ({ ...succeeded('sub_up'), receipt }) });
    // The next page (the upsell) starts idle.
    $paymentPhase.set('idle');
    await pay(upsell, page, deps);
    expect(deps.navigate).toHaveBeenCalledWith(page.next);
    // Its success read again (a reload resuming it) keeps one receipt.
    $paymentPhase.set('idle');
    await pay(upsell, page, deps);
    const { main, added } = $receipts.get();
    expect(main?.subscriptionId).toBe('sub_main');
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      planId: 'upsell_monthly_599_usd',
      amount: 599,
      renewsAt: '2026-12-26T10:05:00.000Z',
      paidWith: card,
    });
  });

  it('succeeded on a checkout, the answer silent on amount and card: the plan’s first charge', async () => {
    const deps = fakeDeps();
    await pay(request, { ...page, confirm: true }, deps);
    expect($receipts.get().main).toMatchObject({
      amount: 699,
      currency: 'USD',
      renewsAt: null,
      paidWith: null,
    });
  });

  it('declined: keeps this checkout for Try again and opens Payment declined', async () => {
    const deps = fakeDeps({
      purchase: async () => ({
        kind: 'declined',
        declineCode: 'card_declined',
        text: { text: 'x' },
      }),
    });
    await pay(request, page, deps);
    expect($declinedReturn.get()).toBe(page.here);
    // A decline code that names no cause: the advice for any decline (SPEC.md §8).
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith(`${page.declined}&decline=unknown`);
    expect($checkout.get().isSuccess).toBeNull();
  });

  it.each([
    [{ declineCode: 'expired_card' }, 'card_invalid'],
    [{ declineCode: 'insufficient_funds' }, 'insufficient_funds'],
    [
      { declineCode: null, processorResponse: '2014 Processor Declined - Fraud Suspected' },
      'fraud_suspected',
    ],
  ])('declined with %o: Payment declined names the class %s', async (codes, cause) => {
    const sent: Record<string, unknown>[] = [];
    connectTracker((event) => {
      if (event.name === 'subs_purchase_failed') sent.push(event.properties ?? {});
    });
    const deps = fakeDeps({
      purchase: async () => ({ kind: 'declined', text: { text: 'x' }, ...codes }),
    });
    await pay(request, page, deps);
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith(`${page.declined}&decline=${cause}`);
    // The experiments count declines by this class (docs/statistics.md, "Declines by class").
    expect(sent).toEqual([expect.objectContaining({ decline_class: cause })]);
  });

  it('failed: shows the translated text in the toast and frees the button', async () => {
    const deps = fakeDeps({
      purchase: async () => ({ kind: 'failed', text: { key: 'payment_failed' } }),
    });
    await pay(request, page, deps);
    expect($error.get()).toEqual({ show: true, message: 'Your payment did not go through.' });
    expect($paymentPhase.get()).toBe('idle');
    expect(deps.navigate).not.toHaveBeenCalled();
  });

  it('failed: keeps the error in the checkout state after the toast (SPEC.md §3 paymentError)', async () => {
    const deps = fakeDeps({
      purchase: async () => ({ kind: 'failed', text: { key: 'payment_failed' } }),
    });
    await pay(request, page, deps);
    const shown = { show: true, message: 'Your payment did not go through.' };
    expect($checkout.get().paymentError).toEqual(shown);
    // The toast's own clearing leaves it: only the visitor's next step does.
    $error.set({ show: false, message: '' });
    expect($checkout.get().paymentError).toEqual(shown);
  });

  it('a press of Pay again clears the last error as the new attempt starts', async () => {
    let answer: (outcome: PurchaseOutcome) => void = () => {};
    const answers = [
      async (): Promise<PurchaseOutcome> => ({ kind: 'failed', text: { text: 'Declined' } }),
      () => new Promise<PurchaseOutcome>((resolve) => (answer = resolve)),
    ];
    const deps = fakeDeps({ purchase: () => answers.shift()!() });
    await pay(request, page, deps);
    expect($checkout.get().paymentError.show).toBe(true);
    const second = pay(request, page, deps);
    expect($checkout.get().paymentError).toEqual({ show: false, message: '' });
    answer(succeeded());
    await second;
  });

  it('a decline, which opens its own page, leaves no payment error beside Pay', async () => {
    const declined: PurchaseOutcome = { kind: 'declined', declineCode: 'x', text: { text: 'x' } };
    await pay(request, page, fakeDeps({ purchase: async () => declined }));
    expect($checkout.get().paymentError.show).toBe(false);
  });

  it("failed with the server's own text shows that text", async () => {
    const deps = fakeDeps({
      purchase: async () => ({ kind: 'failed', text: { text: 'Your card has expired.' } }),
    });
    await pay(request, page, deps);
    expect($error.get().message).toBe('Your card has expired.');
  });

  it("a state machine that throws still frees the button with SPEC.md §8's 'Payment error'", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const deps = fakeDeps({
      purchase: async () => {
        throw new TypeError('bug');
      },
    });
    await pay(request, page, deps);
    expect($error.get()).toEqual({ show: true, message: 'Payment error' });
    expect($paymentPhase.get()).toBe('idle');
  });

  it('confirming: says so, asks again every CONFIRMING_RECHECK_MS, never posts again', async () => {
    const deps = fakeDeps({ purchase: async () => confirming, resume: [confirming, succeeded()] });
    const done = pay(request, page, deps);
    await vi.advanceTimersByTimeAsync(0);
    expect($paymentPhase.get()).toBe('confirming');
    expect(deps.resumePurchase).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(CONFIRMING_RECHECK_MS - 1);
    expect(deps.resumePurchase).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(deps.resumePurchase).toHaveBeenCalledTimes(1);
    expect($paymentPhase.get()).toBe('confirming');
    expect(deps.navigate).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(CONFIRMING_RECHECK_MS);
    await done;
    expect(deps.resumePurchase).toHaveBeenCalledTimes(2);
    expect(deps.purchase).toHaveBeenCalledTimes(1);
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith(page.next);
    expect($checkout.get()).toMatchObject({ isSuccess: true, id: 'sub_42' });
  });

  it('confirming that ends in a decline opens Payment declined', async () => {
    const declined: PurchaseOutcome = { kind: 'declined', declineCode: null, text: { text: 'x' } };
    const deps = fakeDeps({ purchase: async () => confirming, resume: [declined] });
    const done = pay(request, page, deps);
    await vi.advanceTimersByTimeAsync(CONFIRMING_RECHECK_MS);
    await done;
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith(`${page.declined}&decline=unknown`);
  });

  it('confirming whose attempt vanished keeps Pay held and says the payment may have gone through', async () => {
    // Another tab finished the attempt, or storage was cleared: the charge may have happened.
    const deps = fakeDeps({ purchase: async () => confirming, resume: [] });
    const done = pay(request, page, deps);
    await vi.advanceTimersByTimeAsync(CONFIRMING_RECHECK_MS);
    await done;
    expect(deps.resumePurchase).toHaveBeenCalledTimes(1);
    expect($paymentPhase.get()).toBe('unconfirmed');
    expect($error.get()).toEqual({
      show: true,
      message: 'Your payment may already have gone through. Check your email.',
    });
    expect(deps.navigate).not.toHaveBeenCalled();

    await pay(request, page, deps);
    await resumePayment(page, deps);
    expect(deps.purchase).toHaveBeenCalledTimes(1);
    expect(deps.resumePurchase).toHaveBeenCalledTimes(1);
    expect($paymentPhase.get()).toBe('unconfirmed');
  });

  it('a second press while paying or confirming starts nothing', async () => {
    const deps = fakeDeps({ purchase: async () => confirming, resume: [succeeded()] });
    const first = pay(request, page, deps);
    const second = pay(request, page, deps);
    await vi.advanceTimersByTimeAsync(0);
    expect($paymentPhase.get()).toBe('confirming');
    const third = pay(request, page, deps);
    await vi.advanceTimersByTimeAsync(CONFIRMING_RECHECK_MS);
    await Promise.all([first, second, third]);
    expect(deps.purchase).toHaveBeenCalledTimes(1);
    expect(deps.navigate).toHaveBeenCalledTimes(1);
  });

  it('after a failure the visitor can press Pay again', async () => {
    const answers: PurchaseOutcome[] = [
      { kind: 'failed', text: { text: 'Try again' } },
      succeeded(),
    ];
    const deps = fakeDeps({ purchase: async () => answers.shift() ?? succeeded() });
    await pay(request, page, deps);
    await pay(request, page, deps);
    expect(deps.purchase).toHaveBeenCalledTimes(2);
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith(page.next);
  });
});

describe('resumePayment: a reload during polling', () => {
  it('with nothing unfinished never holds the button nor loads the state machine', async () => {
    const deps = fakeDeps();
    deps.unfinishedPlan.mockReturnValue(null);
    const phases: string[] = [];
    const unlisten = $paymentPhase.listen((phase) => phases.push(phase));
    await resumePayment(page, deps);
    unlisten();
    expect(phases).toEqual([]);
    expect(deps.resumePurchase).not.toHaveBeenCalled();
    expect(deps.navigate).not.toHaveBeenCalled();
  });

  it('holds the button while the same attempt is read, then opens the next screen', async () => {
    let answer: (outcome: PurchaseOutcome) => void = () => {};
    const deps = fakeDeps();
    deps.resumePurchase.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    const done = resumePayment(page, deps);
    expect($paymentPhase.get()).toBe('paying');
    await pay(request, page, deps);
    expect(deps.purchase).not.toHaveBeenCalled();
    answer(succeeded('sub_resumed'));
    await done;
    expect($checkout.get()).toMatchObject({ isSuccess: true, id: 'sub_resumed' });
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith(page.next);
  });

  it('past the deadline shows confirming and keeps asking about the same attempt', async () => {
    const deps = fakeDeps({ resume: [confirming, confirming, succeeded()] });
    const done = resumePayment(page, deps);
    await vi.advanceTimersByTimeAsync(0);
    expect($paymentPhase.get()).toBe('confirming');
    await vi.advanceTimersByTimeAsync(2 * CONFIRMING_RECHECK_MS);
    await done;
    expect(deps.resumePurchase).toHaveBeenCalledTimes(3);
    expect(deps.purchase).not.toHaveBeenCalled();
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith(page.next);
  });
});

describe('the purchase handed to analytics (SPEC.md §3 Purchase tracking payload, §9)', () => {
  it('a successful purchase queues its payload for the tracker', async () => {
    await pay(request, page, fakeDeps());
    expect(pendingPurchases()).toEqual([
      {
        price: 6.99,
        currency: 'USD',
        plan: 'monthly_7d_usd',
        sub_id: 'sub_42',
        event_id: 'evt_42',
        gclid: 'G-1',
        pixelName: 'Purchase',
      },
    ]);
  });

  it('outside production the pixel event is Purchase_test', async () => {
    await pay(request, { ...page, production: false }, fakeDeps());
    expect(pendingPurchases()[0]?.pixelName).toBe('Purchase_test');
  });

  it('without a portal price it prices at the plan, and without gclid in the URL sends null', async () => {
    const deps = fakeDeps({
      purchase: async () => ({
        kind: 'succeeded',
        subscriptionId: 'sub_7',
        eventId: null,
        priceWithDiscount: null,
      }),
    });
    await pay(request, { ...page, here: '/checkout_v3_tr?flow=default' }, deps);
    expect(pendingPurchases()[0]).toMatchObject({ price: 6.99, gclid: null, event_id: null });
  });

  it('a purchase resumed after a reload is tracked with the plan of the stored attempt', async () => {
    await resumePayment(page, fakeDeps({ resume: [succeeded('sub_resumed')] }));
    expect(pendingPurchases()).toMatchObject([{ sub_id: 'sub_resumed', plan: 'monthly_7d_usd' }]);
  });

  it('a decline, a failure or confirming queues nothing', async () => {
    await pay(
      request,
      page,
      fakeDeps({ purchase: async () => ({ kind: 'failed', text: { text: 'x' } }) }),
    );
    const declined: PurchaseOutcome = { kind: 'declined', declineCode: null, text: { text: 'x' } };
    await pay(request, page, fakeDeps({ purchase: async () => declined }));
    expect(pendingPurchases()).toEqual([]);
  });

  it('the tracker takes each purchase once', async () => {
    await pay(request, page, fakeDeps());
    expect(takePendingPurchases()).toHaveLength(1);
    expect(takePendingPurchases()).toEqual([]);
  });

  it('an unreadable stored queue reads as empty and a new purchase still queues', async () => {
    $events.setKey('eventsData', { pendingPurchases: 'garbage', other: 1 });
    expect(pendingPurchases()).toEqual([]);
    await pay(request, page, fakeDeps());
    expect(pendingPurchases()).toHaveLength(1);
    expect($events.get().eventsData.other).toBe(1);
  });
});
