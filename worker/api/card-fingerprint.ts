import { describeError, logError } from '../../shared/log';
import type { Bindings } from '../env';
import { type CardNetwork, cardNetworkOf } from '../retry-governor/governor';

/**
 * The fingerprint of the card behind a payment method nonce, for the per-card charge limit
 * (worker/rate-limits/rate-limits.ts): the same card number gives the same fingerprint whatever
 * nonce it was tokenized into. Null when no source knows it; the charge is then limited per visitor
 * and address only. Never read from the browser: a card-testing bot would send a fresh one each
 * time.
 */
export type CardFingerprintSource = (nonce: string, env: Bindings) => Promise<CardIdentity | null>;

/**
 * The card behind a nonce, as the provider's own answer names it: its fingerprint (one card
 * number, one fingerprint) and its network, whose retry rules the governor applies.
 */
export interface CardIdentity {
  fingerprint: string;
  network: CardNetwork;
  /**
   * A test-mode card (Stripe's `livemode: false`, the test gateway's): a number everyone who tests
   * types, which the retry governor counts per payer (worker/purchase-ledger/card-key.ts).
   */
  testCard: boolean;
}

/** Stripe's PaymentMethod ids (pm_…, and the older card_… sources). */
const STRIPE_PAYMENT_METHOD = /^(pm|card)_[A-Za-z0-9]{8,64}$/;

const STRIPE_API = 'https://api.stripe.com/v1/payment_methods/';

/** The lookup is on the charge's path: past this the charge goes on without the card's count. */
const FINGERPRINT_TIMEOUT_MS = 1_500;

function identityOf(json: unknown): CardIdentity | null {
  if (typeof json !== 'object' || json === null) return null;
  const card = (json as { card?: unknown }).card;
  if (typeof card !== 'object' || card === null) return null;
  const { fingerprint, brand } = card as { fingerprint?: unknown; brand?: unknown };
  const testCard = (json as { livemode?: unknown }).livemode === false;
  return typeof fingerprint === 'string' && /^[A-Za-z0-9]{1,64}$/.test(fingerprint)
    ? { fingerprint, network: cardNetworkOf(brand), testCard }
    : null;
}

/**
 * Stripe: `GET /v1/payment_methods/{id}` answers `card.fingerprint` (and `card.brand`, the
 * network) to a secret or restricted
 * key only (Stripe leaves it out of what a publishable key sees, so the page cannot know it).
 * STRIPE_FINGERPRINT_KEY is a restricted key with the single permission "PaymentMethods: Read";
 * unset, Stripe cards are not fingerprinted. A lookup that fails is logged and answers null:
 * the limits guard at the margin and must not stop a paying visitor.
 */
export function stripeCardFingerprint(fetchImpl: typeof fetch = fetch): CardFingerprintSource {
  return async function stripeFingerprint(nonce, env) {
    const key = env.STRIPE_FINGERPRINT_KEY?.trim();
    if (!key || !STRIPE_PAYMENT_METHOD.test(nonce)) return null;
    try {
      const response = await fetchImpl(`${STRIPE_API}${nonce}`, {
        headers: { authorization: `Bearer ${key}` },
        signal: AbortSignal.timeout(FINGERPRINT_TIMEOUT_MS),
      });
      if (!response.ok) {
        logError('card_fingerprint_failed', { status: response.status });
        return null;
      }
      return identityOf(await response.json());
    } catch (error) {
      logError('card_fingerprint_failed', {
        detail: describeError(error),
      });
      return null;
    }
  };
}

/** The first source that knows the nonce's card. */
export function firstFingerprint(
  ...sources: (CardFingerprintSource | undefined)[]
): CardFingerprintSource {
  const known = sources.filter((source) => source !== undefined);
  return async function cardFingerprint(nonce, env) {
    for (const source of known) {
      const identity = await source(nonce, env);
      if (identity !== null) return identity;
    }
    return null;
  };
}
