import { describe, expect, it, vi } from 'vitest';
import { POLLING } from '../../../islands/payments/poll-result';
import { ProviderError } from '../../../islands/payments/provider';
import { createBraintreeProvider } from '../../../islands/payments/providers/braintree';
import { purchase, resumePurchase } from '../../../islands/payments/purchase';
import {
  braintreeRequest,
  cardRequest,
  final,
  httpFailure,
  networkFailure,
  pending,
  type Storage,
  succeeded,
  world,
} from './fakes';
import { fakeBraintree, verified } from './providers/fake-braintree';

const SUCCESS = {
  kind: 'succeeded',
  subscriptionId: 'sub_1',
  eventId: 'evt_1',
  priceWithDiscount: 6.99,
  // What the answer says was taken, for the receipt and the upsell.
  currency: 'USD',
  paidWith: { kind: 'card', brand: 'visa', last4: '4242' },
  // The fake product API is no worker: it adds no receipt.
  receipt: null,
};

describe('the polling route (SPEC.md §4 Payment, §7)', () => {
  it('creates the card payment method, posts it, and succeeds on the first poll', async () => {
    const { deps, portal, provider, attempts } = world();
    expect(await purchase(cardRequest(), deps)).toEqual(SUCCESS);
    expect(provider.createPaymentMethod).toHaveBeenCalledWith({ cardholderName: 'Anna Example' });
    expect(portal.posts).toEqual([
      {
        route: 'polling',
        planId: 'monthly_7d_usd',
        key: expect.any(String),
        body: {
          gateway: 'test',
          payment_method_nonce: 'pm_card',
          coupon: null,
          payment_intent_id: null,
          user_data: { plan: 'monthly_7d_usd' },
        },
      },
    ]);
    expect(portal.polls).toEqual(['poll_1']);
    expect(attempts.storage.attempt).toBeNull();
  });

  it('polls while 202, doubling the pause up to its cap, then succeeds', async () => {
    const { deps, portal, clock } = world({
      script: { poll: async (_id, n) => (n < 6 ? pending : final(succeeded())) },
    });
    expect(await purchase(cardRequest(), deps)).toEqual(SUCCESS);
    expect(portal.polls).toHaveLength(7);
    expect(clock.sleeps).toEqual([500, 1000, 2000, 3000, 3000, 3000]);
  });

  it('uses a supplied nonce, and sends none for the method on file', async () => {
    const wallet = world();
    await purchase(cardRequest({ method: { kind: 'nonce', nonce: 'pm_wallet' } }), wallet.deps);
    expect(wallet.provider.createPaymentMethod).not.toHaveBeenCalled();
    expect(wallet.portal.posts[0]?.body.payment_method_nonce).toBe('pm_wallet');

    const upsell = world();
    await purchase(cardRequest({ method: { kind: 'on-file' } }), upsell.deps);
    expect(upsell.portal.posts[0]?.body.payment_method_nonce).toBeNull();
  });

  it('past the deadline answers confirming and keeps the attempt; resuming polls the same id, never posting again', async () => {
    let ready = false;
    const { deps, portal, clock, attempts } = world({
      script: { poll: async () => (ready ? final(succeeded()) : pending) },
    });
    expect(await purchase(cardRequest(), deps)).toEqual({
      kind: 'confirming',
      pollingId: 'poll_1',
    });
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(POLLING.deadlineMs);
    expect(attempts.storage.attempt).toMatchObject({ pollingId: 'poll_1' });

    ready = true;
    expect(await resumePurchase(deps)).toEqual(SUCCESS);
    expect(portal.posts).toHaveLength(1);
    expect(new Set(portal.polls)).toEqual(new Set(['poll_1']));
    expect(attempts.storage.attempt).toBeNull();
  });

  it('a Pay press while an attempt is confirming follows that attempt instead of charging again', async () => {
    let ready = false;
    const { deps, portal, provider } = world({
      script: { poll: async () => (ready ? final(succeeded()) : pending) },
    });
    await purchase(cardRequest(), deps);
    ready = true;
    expect(await purchase(cardRequest(), deps)).toEqual(SUCCESS);
    expect(portal.posts).toHaveLength(1);
    expect(provider.createPaymentMethod).toHaveBeenCalledTimes(1);
  });

  it('polls through a moment without network, within the deadline', async () => {
    const { deps, portal } = world({
      script: {
        poll: async (_id, n) => {
          if (n === 0) throw networkFailure();
          return final(succeeded());
        },
      },
    });
    expect(await purchase(cardRequest(), deps)).toEqual(SUCCESS);
    expect(portal.polls).toHaveLength(2);
  });

  it("200 with no result_data is 'Unknown error. Please try again'", async () => {
    const { deps, attempts } = world({ script: { poll: async () => final(null) } });
    expect(await purchase(cardRequest(), deps)).toEqual({
      kind: 'failed',
      text: { key: 'payment_no_result' },
    });
    expect(attempts.storage.attempt).toBeNull();
  });

  it('a final failed result with a decline code is declined, with the processor’s words', async () => {
    const { deps, attempts } = world({
      script: {
        poll: async () =>
          final({
            status: 'failed',
            decline_code: 'insufficient_funds',
            processor_response: 'Your card has insufficient funds.',
          }),
      },
    });
    expect(await purchase(cardRequest(), deps)).toEqual({
      kind: 'declined',
      declineCode: 'insufficient_funds',
      text: { text: 'Your card has insufficient funds.' },
      processorResponse: 'Your card has insufficient funds.',
    });
    expect(attempts.storage.attempt).toBeNull();
  });

  it("a final failed result without a decline code or words is 'Payment error'", async () => {
    const { deps } = world({ script: { poll: async () => final({ status: 'failed' }) } });
    expect(await purchase(cardRequest(), deps)).toEqual({
      kind: 'failed',
      text: { key: 'payment_error' },
    });
  });
});

describe('3-D Secure on the polling route (SPEC.md §4 Payment step 4)', () => {
  const requiresAction = final({
    status: 'requires_action',
    payment_intent_secret: 'pi_3ds_secret',
    payment_intent_id: 'pi_3ds',
  });

  it('confirms with the provider, repeats the call with the intent id under the derived key, and succeeds', async () => {
    const { deps, portal, provider } = world({
      script: {
        poll: async (id) => (id === 'poll_1' ? requiresAction : final(succeeded('sub_3ds'))),
      },
    });
    expect(await purchase(cardRequest(), deps)).toMatchObject({
      kind: 'succeeded',
      subscriptionId: 'sub_3ds',
    });
    expect(provider.confirmCardPayment).toHaveBeenCalledWith('pi_3ds_secret');
    const [first, repeat] = portal.posts;
    expect(repeat?.key).toBe(`${first?.key}:3ds`);
    expect(repeat?.body).toMatchObject({
      payment_intent_id: 'pi_3ds',
      payment_method_nonce: 'pm_card',
    });
    expect(portal.polls).toEqual(['poll_1', 'poll_2']);
  });

  it('declined after authentication', async () => {
    const { deps, attempts } = world({
      script: {
        poll: async (id) =>
          id === 'poll_1'
            ? requiresAction
            : final({
                status: 'failed',
                decline_code: 'card_declined',
                processor_response: 'Your card was declined.',
              }),
      },
    });
    expect(await purchase(cardRequest(), deps)).toEqual({
      kind: 'declined',
      declineCode: 'card_declined',
      text: { text: 'Your card was declined.' },
      processorResponse: 'Your card was declined.',
    });
    expect(attempts.storage.attempt).toBeNull();
  });

  it('a challenge failed or closed fails the payment with the provider’s report, and posts nothing more', async () => {
    const failedChallenge = world({
      script: { poll: async () => requiresAction },
      provider: {
        confirmCardPayment: async () => {
          throw new ProviderError('Authentication failed.', 'authentication_required', null);
        },
      },
    });
    expect(await purchase(cardRequest(), failedChallenge.deps)).toEqual({
      kind: 'declined',
      declineCode: 'authentication_required',
      text: { text: 'Authentication failed.' },
      processorResponse: null,
    });
    expect(failedChallenge.portal.posts).toHaveLength(1);
    expect(failedChallenge.attempts.storage.attempt).toBeNull();

    const closed = world({
      script: { poll: async () => requiresAction },
      provider: {
        confirmCardPayment: async () => {
          throw new ProviderError('The authentication window was closed.');
        },
      },
    });
    expect(await purchase(cardRequest(), closed.deps)).toEqual({
      kind: 'failed',
      text: { text: 'The authentication window was closed.' },
    });
    expect(closed.portal.posts).toHaveLength(1);
  });

  it('a second requires_action after authentication is refused, not challenged again', async () => {
    const { deps, provider, portal } = world({ script: { poll: async () => requiresAction } });
    expect(await purchase(cardRequest(), deps)).toMatchObject({ kind: 'failed' });
    expect(provider.confirmCardPayment).toHaveBeenCalledTimes(1);
    expect(portal.posts).toHaveLength(2);
  });
});

describe('payment failures and their SPEC.md §8 texts', () => {
  it('a card payment-method creation error shows its message; nothing is posted or stored', async () => {
    const { deps, portal, attempts } = world({
      provider: {
        createPaymentMethod: async () => {
          throw new ProviderError('Your card number is incomplete.');
        },
      },
    });
    expect(await purchase(cardRequest(), deps)).toEqual({
      kind: 'failed',
      text: { text: 'Your card number is incomplete.' },
    });
    expect(portal.posts).toEqual([]);
    expect(attempts.storage.attempt).toBeNull();
  });

  it("a provider error without text is 'Payment error'", async () => {
    const { deps } = world({
      provider: {
        createPaymentMethod: async () => {
          throw new ProviderError('');
        },
      },
    });
    expect(await purchase(cardRequest(), deps)).toEqual({
      kind: 'failed',
      text: { key: 'payment_error' },
    });
  });

  it('no answer to the POST is asked again under the same key until answered; the attempt is kept meanwhile', async () => {
    const { deps, portal, report } = world({
      script: {
        start: async (_call, index) => {
          if (index < 2) throw networkFailure();
          return { data: { polling_result_id: 'poll_1' } };
        },
      },
    });
    expect(await purchase(cardRequest(), deps)).toEqual(SUCCESS);
    expect(new Set(portal.posts.map((post) => post.key)).size).toBe(1);
    expect(portal.posts).toHaveLength(3);
    expect(report).toHaveBeenCalledWith(networkFailure());
  });

  it("the portal refusing with a 4xx is 'An error has occurred', with or without messages", async () => {
    const bare = world({
      script: {
        start: async () => {
          throw httpFailure(422, { errors: { messages: [] } });
        },
      },
    });
    expect(await purchase(cardRequest(), bare.deps)).toEqual({
      kind: 'failed',
      text: { key: 'payment_failed' },
    });
    expect(bare.attempts.storage.attempt).toBeNull();

    const worded = world({
      script: {
        start: async () => {
          throw httpFailure(422, { errors: { messages: ['The plan is not available.', 'x'] } });
        },
      },
    });
    expect(await purchase(cardRequest(), worded.deps)).toEqual({
      kind: 'failed',
      text: { key: 'payment_failed' },
    });
  });

  it("a polling id the portal does not know fails with 'An error has occurred'", async () => {
    const { deps, attempts } = world({
      script: {
        poll: async () => {
          throw httpFailure(404, {
            errors: { messages: ['This polling result is not known.'] },
          });
        },
      },
    });
    expect(await purchase(cardRequest(), deps)).toEqual({
      kind: 'failed',
      text: { key: 'payment_failed' },
    });
    expect(attempts.storage.attempt).toBeNull();
  });
});

describe('idempotency keys (one per attempt)', () => {
  it('every POST of one attempt carries its key, a retry after no answer reuses it, the next attempt gets a new one', async () => {
    let offline = true;
    const { deps, portal } = world({
      script: {
        start: async () => {
          if (offline) throw networkFailure();
          return { data: { polling_result_id: 'poll_1' } };
        },
        poll: async () => final({ status: 'failed', decline_code: 'generic_decline' }),
      },
    });
    expect(await purchase(cardRequest(), deps)).toEqual({ kind: 'confirming', pollingId: null });
    offline = false;
    expect(await purchase(cardRequest(), deps)).toMatchObject({ kind: 'declined' });
    await purchase(cardRequest(), deps);
    const keys = [...new Set(portal.posts.map((post) => post.key))];
    expect(keys).toHaveLength(2);
    expect(portal.posts.at(-1)?.key).toBe(keys[1]);
  });

  it('a press for another plan first follows the unanswered attempt to its end, under its key', async () => {
    let offline = true;
    const { deps, portal, provider } = world({
      script: {
        start: async () => {
          if (offline) throw networkFailure();
          return { data: { polling_result_id: 'poll_1' } };
        },
      },
    });
    await purchase(cardRequest(), deps);
    offline = false;
    expect(await purchase(cardRequest({ planId: 'quarterly_usd' }), deps)).toEqual(SUCCESS);
    expect(new Set(portal.posts.map((post) => [post.key, post.planId].join()))).toEqual(
      new Set([`${portal.posts[0]?.key},monthly_7d_usd`]),
    );
    expect(provider.createPaymentMethod).toHaveBeenCalledTimes(1);
  });

  it('resumePurchase with nothing stored answers null and calls nothing', async () => {
    const { deps, portal } = world();
    expect(await resumePurchase(deps)).toBeNull();
    expect(portal.posts).toEqual([]);
  });

  it('an attempt older than a day is forgotten, not resumed', async () => {
    const { deps, portal, clock, attempts } = world({ script: { poll: async () => pending } });
    await purchase(cardRequest(), deps);
    clock.advance(25 * 60 * 60 * 1000);
    expect(await resumePurchase(deps)).toBeNull();
    expect(attempts.storage.attempt).toBeNull();
    expect(portal.posts).toHaveLength(1);
  });
});

describe('the direct route: Braintree with 3-D Secure (SPEC.md §4 Alternate provider)', () => {
  const userActionRequired = () =>
    httpFailure(422, {
      errors: { messages: ['User action required'] },
      data: { payment_method_nonce: 'nonce_to_verify', validation_amount: 6.99 },
    });

  it('succeeds at once', async () => {
    const { deps, portal } = world();
    expect(await purchase(braintreeRequest(), deps)).toEqual({
      kind: 'succeeded',
      subscriptionId: 'sub_bt',
      eventId: 'evt_bt',
      priceWithDiscount: 39.99,
      // An answer that names neither currency nor card: the receipt takes the plan's.
      currency: null,
      paidWith: null,
      receipt: null,
    });
    expect(portal.posts).toMatchObject([{ route: 'direct', body: { gateway: 'braintree' } }]);
  });

  it("'User action required' → verifyCard → the retry carries the verified nonce under the derived key", async () => {
    const { deps, portal, provider, attempts } = world({
      script: {
        direct: async (_call, index) => {
          if (index === 0) throw userActionRequired();
          return {
            data: { subscription_id: 'sub_bt_3ds', event_id: 'evt', price_with_discount: 6.99 },
          };
        },
      },
    });
    expect(await purchase(braintreeRequest(), deps)).toMatchObject({
      kind: 'succeeded',
      subscriptionId: 'sub_bt_3ds',
    });
    expect(provider.verifyCard).toHaveBeenCalledWith({
      nonce: 'nonce_to_verify',
      amount: '6.99',
      email: 'anna@example.com',
      bin: null,
    });
    const [first, retry] = portal.posts;
    expect(retry?.key).toBe(`${first?.key}:3ds`);
    expect(retry?.body.payment_method_nonce).toBe('nonce_verified');
    expect(attempts.storage.attempt).toBeNull();
  });

  it('an attempt a reload interrupted is verified with the BIN of the card it tokenized', async () => {
    const storage: Storage = { attempt: null };
    const before = world({
      storage,
      // The page reloads while the first POST is under way.
      script: { direct: () => new Promise(() => {}) },
      provider: { createPaymentMethod: async () => ({ nonce: 'card-nonce', bin: '411111' }) },
    });
    void purchase(braintreeRequest(), before.deps);
    await vi.waitFor(() => expect(before.portal.posts).toHaveLength(1));

    // The reloaded page: a fresh Braintree provider that tokenized nothing.
    const braintree = fakeBraintree();
    braintree.threeDSecure.verifyCard.mockResolvedValue(
      verified(
        'nonce_verified',
        { liabilityShifted: true, liabilityShiftPossible: true },
        'authenticate_successful',
      ),
    );
    const after = world({
      storage,
      script: {
        direct: async (_call, index) => {
          if (index === 0) throw userActionRequired();
          return {
            data: { subscription_id: 'sub_bt_3ds', event_id: 'evt', price_with_discount: 6.99 },
          };
        },
      },
    });
    const provider = createBraintreeProvider(
      { clientToken: 'bt-token', threeDSecure: true },
      braintree.deps,
    );
    expect(await resumePurchase({ ...after.deps, provider })).toMatchObject({
      kind: 'succeeded',
      subscriptionId: 'sub_bt_3ds',
    });
    expect(braintree.deps.hostedFields).not.toHaveBeenCalled();
    expect(braintree.threeDSecure.verifyCard).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({ nonce: 'nonce_to_verify', amount: '6.99', bin: '411111' }),
    );
    expect(after.portal.posts[1]?.body.payment_method_nonce).toBe('nonce_verified');
  });

  it('a verify error goes to the error path; nothing more is posted', async () => {
    const { deps, portal, attempts } = world({
      script: {
        direct: async () => {
          throw userActionRequired();
        },
      },
      provider: {
        verifyCard: async () => {
          throw new ProviderError('3-D Secure verification failed.');
        },
      },
    });
    expect(await purchase(braintreeRequest(), deps)).toEqual({
      kind: 'failed',
      text: { text: '3-D Secure verification failed.' },
    });
    expect(portal.posts).toHaveLength(1);
    expect(attempts.storage.attempt).toBeNull();
  });

  it("'User action required' again after verification fails the payment, not verified again", async () => {
    const { deps, provider } = world({
      script: {
        direct: async () => {
          throw userActionRequired();
        },
      },
    });
    expect(await purchase(braintreeRequest(), deps)).toEqual({
      kind: 'failed',
      text: { key: 'payment_failed' },
    });
    expect(provider.verifyCard).toHaveBeenCalledTimes(1);
  });

  it('a declined direct charge is a decline: its code recorded, no message taken as text', async () => {
    const { deps, attempts } = world({
      script: {
        direct: async () => {
          throw httpFailure(422, {
            errors: { messages: ['Payment declined'] },
            code: 'payment_declined',
            decline_code: 'insufficient_funds',
          });
        },
      },
    });
    expect(await purchase(braintreeRequest(), deps)).toEqual({
      kind: 'declined',
      declineCode: 'insufficient_funds',
      text: { key: 'payment_error' },
    });
    expect(attempts.storage.attempt).toBeNull();
  });

  it('email-taken messages read as the translated "email exists"', async () => {
    const { deps } = world({
      script: {
        direct: async () => {
          throw httpFailure(422, { errors: { messages: ['The email has already been taken.'] } });
        },
      },
    });
    expect(await purchase(braintreeRequest(), deps)).toEqual({
      kind: 'failed',
      text: { key: 'email_exists' },
    });
  });
});
