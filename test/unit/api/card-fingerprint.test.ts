import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cardNetworkOf } from '../../../shared/card-network';
import { firstFingerprint, stripeCardFingerprint } from '../../../worker/checkout/charge-call';
import type { Bindings } from '../../../worker/env';

/**
 * The per-card charge limit's Stripe source: `GET /v1/payment_methods/{id}` with a
 * restricted key answers the card's fingerprint, which a publishable key never sees. Stripe is
 * not reachable here: the fake answers in the shape of Stripe's PaymentMethod object.
 */

const env = { STRIPE_FINGERPRINT_KEY: 'rk_test_readonly' } as Bindings;

/** Stripe's PaymentMethod object, trimmed to what the lookup reads. */
const paymentMethod = (fingerprint: unknown, brand = 'visa') => ({
  id: 'pm_1Q0PsIJvEtkwdCNYMSaVuRz6',
  object: 'payment_method',
  type: 'card',
  card: { brand, last4: '4242', fingerprint },
});

function fakeStripe(answer: () => Response | Promise<Response>) {
  const seen: { url: string; authorization: string | null }[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push({
      url: String(input),
      authorization: new Headers(init?.headers).get('authorization'),
    });
    return answer();
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, seen };
}

let errors: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  errors = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe('stripeCardFingerprint', () => {
  it('reads card.fingerprint and the network with the restricted key', async () => {
    const stripe = fakeStripe(() => Response.json(paymentMethod('Xt5EWLLDS7FJjR1c')));
    const lookup = stripeCardFingerprint(stripe.fetch);
    expect(await lookup('pm_1Q0PsIJvEtkwdCNYMSaVuRz6', env)).toEqual({
      fingerprint: 'Xt5EWLLDS7FJjR1c',
      network: 'visa',
      testCard: false,
    });
    expect(stripe.seen).toEqual([
      {
        url: 'https://api.stripe.com/v1/payment_methods/pm_1Q0PsIJvEtkwdCNYMSaVuRz6',
        authorization: 'Bearer rk_test_readonly',
      },
    ]);
  });

  it('asks nothing without a key, or for a nonce that is not a Stripe payment method', async () => {
    const stripe = fakeStripe(() => Response.json(paymentMethod('x')));
    const lookup = stripeCardFingerprint(stripe.fetch);
    expect(await lookup('pm_1Q0PsIJvEtkwdCNYMSaVuRz6', {} as Bindings)).toBeNull();
    expect(await lookup('tpm_abc', env)).toBeNull();
    expect(await lookup('pm_../../v1/charges', env)).toBeNull();
    expect(stripe.fetch).not.toHaveBeenCalled();
  });

  it.each<[string, () => Response | Promise<Response>]>([
    ['a refusal (wrong key)', () => Response.json({ error: {} }, { status: 401 })],
    ['Stripe down', () => Promise.reject(new TypeError('fetch failed'))],
    ['an answer without a card', () => Response.json({ id: 'pm_x', type: 'card' })],
    ['a fingerprint that is not one', () => Response.json(paymentMethod('<script>'))],
  ])('%s answers null: the charge goes on, limited per visitor and address', async (_, answer) => {
    const lookup = stripeCardFingerprint(fakeStripe(answer).fetch);
    expect(await lookup('pm_1Q0PsIJvEtkwdCNYMSaVuRz6', env)).toBeNull();
  });

  it('logs a failed lookup, without the key', async () => {
    const lookup = stripeCardFingerprint(
      fakeStripe(() => Response.json({}, { status: 500 })).fetch,
    );
    await lookup('pm_1Q0PsIJvEtkwdCNYMSaVuRz6', env);
    const line = String(errors.mock.calls[0]?.[0]);
    expect(JSON.parse(line)).toMatchObject({ error: 'card_fingerprint_failed', status: 500 });
    expect(line).not.toContain('rk_test_readonly');
  });
});

describe('cardNetworkOf', () => {
  it.each([
    ['visa', 'visa'],
    ['Visa', 'visa'],
    ['mastercard', 'mastercard'],
    ['MasterCard', 'mastercard'],
    ['Master Card', 'mastercard'],
    ['amex', 'unknown'],
    [null, 'unknown'],
  ])('reads %s as %s', (brand, network) => {
    expect(cardNetworkOf(brand)).toBe(network);
  });

  it('a test-mode payment method is a test card', async () => {
    const stripe = fakeStripe(() =>
      Response.json({ ...paymentMethod('Tt5EWLLDS7FJjR1c'), livemode: false }),
    );
    const identity = await stripeCardFingerprint(stripe.fetch)('pm_1Q0PsIJvEtkwdCNYMSaVuRz6', env);
    expect(identity?.testCard).toBe(true);
  });

  it('a Mastercard from Stripe is read as one', async () => {
    const stripe = fakeStripe(() => Response.json(paymentMethod('Mc5EWLLDS7FJjR1c', 'mastercard')));
    const identity = await stripeCardFingerprint(stripe.fetch)('pm_1Q0PsIJvEtkwdCNYMSaVuRz6', env);
    expect(identity?.network).toBe('mastercard');
  });
});

describe('firstFingerprint', () => {
  it('answers the first source that knows the card', async () => {
    const none = async () => null;
    const card = { fingerprint: 'fp_2', network: 'visa' as const, testCard: false };
    const known = async () => card;
    expect(await firstFingerprint(undefined, none, known)('n', env)).toBe(card);
    expect(await firstFingerprint(undefined, none)('n', env)).toBeNull();
  });
});
