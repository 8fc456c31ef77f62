import { afterEach, describe, expect, it, vi } from 'vitest';
import { payWithCard, payWithCardOnFile } from '../../../islands/payments/pay-due';
import { ProviderError } from '../../../islands/payments/provider';
import { fakeProvider } from './fakes';

/**
 * The recovery page's Pay (islands/payments/pay-due.ts, docs/payments.md "Pay what is due"): the
 * card to the worker's pay-due route, 3-D Secure when asked, and what the page shows after.
 */

const PROPS = {
  payPath: '/subscription/recover.x/pay-due',
  settings: { paymentProvider: 'test', stripe: null, btToken: '', threeDS: 1 },
  copy: {
    noAnswer: 'An error has occurred (look at console)',
    refusals: {
      payment_rate_limited: 'Too many declined payments. For your security, please wait an hour.',
      card_stopped:
        "This card can't be charged again for this purchase. Please pay with another card.",
      payment_guard_unavailable: 'Payments are paused for a moment and nothing was charged.',
    },
    nothingDue: 'Nothing is due any more.',
    problems: {
      card_form_unavailable: 'The card form could not load.',
      card_form_not_ready: 'Not ready.',
      payment_not_authenticated: 'We could not authenticate your payment method.',
      payment_error: 'Payment error',
    },
  },
};

/** The worker, answering each post in turn; the posts it got. */
function worker(...answers: [number, unknown][]) {
  const posts: { body: Record<string, string>; key: string | null }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_path: string, init: RequestInit) => {
      const headers = new Headers(init.headers);
      posts.push({ body: JSON.parse(String(init.body)), key: headers.get('idempotency-key') });
      const [status, body] = answers.shift() ?? [503, { error: 'unavailable' }];
      return Response.json(body, { status });
    }),
  );
  return posts;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('paying what is due', () => {
  it('runs the 3-D Secure challenge and posts again with the intent, under the same key', async () => {
    const posts = worker(
      [200, { status: 'requires_action', payment_intent_secret: 'pi_1_secret_x' }],
      [200, { status: 'paid', amount: '$39.99', card: 'Visa •••• 3184' }],
    );
    const provider = fakeProvider();
    const outcome = await payWithCard(provider, PROPS, 'Ann');
    expect(outcome).toEqual({ status: 'paid', amount: '$39.99', card: 'Visa •••• 3184' });
    expect(provider.confirmCardPayment).toHaveBeenCalledWith('pi_1_secret_x');
    expect(posts.map((post) => post.body)).toEqual([
      { gateway: 'test', payment_method_nonce: 'pm_card' },
      { gateway: 'test', payment_method_nonce: 'pm_card', payment_intent_id: 'pi_3ds' },
    ]);
    expect(posts[0]?.key).toBe(posts[1]?.key);
  });

  it('a decline is its class, for the advice; a worker that cannot answer is §8’s text', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    worker([
      402,
      {
        status: 'declined',
        decline_code: 'insufficient_funds',
        decline_class: 'insufficient_funds',
      },
    ]);
    expect(await payWithCard(fakeProvider(), PROPS, '')).toEqual({
      status: 'declined',
      decline_code: 'insufficient_funds',
      decline_class: 'insufficient_funds',
    });
    worker([503, { error: 'unavailable' }]);
    expect(await payWithCard(fakeProvider(), PROPS, '')).toEqual({
      status: 'error',
      message: PROPS.copy.noAnswer,
    });
  });

  it('a card the card-testing limit refuses says to wait, not that the worker failed', async () => {
    const posts = worker([429, { error: 'payment_rate_limited' }]);
    expect(await payWithCard(fakeProvider(), PROPS, '')).toEqual({
      status: 'error',
      message: PROPS.copy.refusals.payment_rate_limited,
    });
    expect(posts).toHaveLength(1);
  });

  it.each([
    [402, 'card_stopped'],
    [503, 'payment_guard_unavailable'],
  ] as const)(
    'a %i %s from the charge pipeline is said in its own words',
    async (status, error) => {
      worker([status, { error }]);
      expect(await payWithCard(fakeProvider(), PROPS, '')).toEqual({
        status: 'error',
        message: PROPS.copy.refusals[error],
      });
    },
  );

  it('a failed challenge says so and posts nothing more', async () => {
    const posts = worker([200, { status: 'requires_action', payment_intent_secret: 's' }]);
    const provider = fakeProvider({
      confirmCardPayment: vi.fn(async () => {
        throw ProviderError.of('payment_not_authenticated');
      }),
    });
    expect(await payWithCard(provider, PROPS, '')).toEqual({
      status: 'error',
      message: PROPS.copy.problems.payment_not_authenticated,
    });
    expect(posts).toHaveLength(1);
  });

  it('paid meanwhile: the worker’s nothing_due is said as such, not as a failure', async () => {
    worker([409, { error: 'nothing_due' }]);
    expect(await payWithCard(fakeProvider(), PROPS, '')).toEqual({
      status: 'error',
      message: PROPS.copy.nothingDue,
    });
  });
});

describe('paying what is due with the card on file', () => {
  it('asks for the card on file, no nonce made, through the challenge under one key', async () => {
    const posts = worker(
      [200, { status: 'requires_action', payment_intent_secret: 'pi_2_secret_x' }],
      [200, { status: 'paid', amount: '$39.99', card: 'Visa •••• 3184', renews: 'Dec 28' }],
    );
    const provider = fakeProvider();
    expect(await payWithCardOnFile(provider, PROPS)).toMatchObject({ status: 'paid' });
    expect(provider.createPaymentMethod).not.toHaveBeenCalled();
    expect(posts.map((post) => post.body)).toEqual([
      { gateway: 'test', card_on_file: true },
      { gateway: 'test', card_on_file: true, payment_intent_id: 'pi_3ds' },
    ]);
    expect(posts[0]?.key).toBe(posts[1]?.key);
  });
});
