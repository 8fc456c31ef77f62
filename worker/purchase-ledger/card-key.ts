import { sha256Hex } from '../../shared/hex';

/**
 * The keys a charge is counted under (docs/payments.md "One charge per purchase"): the card's,
 * for the retry governor, and the purchase's, for its attempt ledger: each
 * the first 32 hex digits of a SHA-256 (shared/hex.ts).
 */

/**
 * The retry governor's key for the card a charge pays with: the card's fingerprint
 * (worker/checkout/charge-call.ts: one card number, one fingerprint, whatever nonce it was
 * tokenized into and whoever pays with it), read on the server, never from the browser. The
 * networks count a card's reattempts whoever sends them, so the governor does too: a card tried
 * by many accounts is one card, on either provider wherever one source fingerprints both (the
 * test gateway that stands in for both in development, a deployment whose two providers' cards
 * share a fingerprint source).
 *
 * It cannot match Stripe's `card.fingerprint` with Braintree's `unique_number_identifier` (each
 * provider's own), nor a card the worker cannot fingerprint (a Braintree nonce in production, the
 * card on file): those count under the payer's one key for unknown cards (`payer`: the signed-in
 * account, else the visitor, or the subscription a link names), all of that payer's unknown
 * cards together, stricter than the networks.
 *
 * A test card (`testCard`: the test gateway's, a Stripe test-mode payment method) counts per
 * payer: its number is printed in the providers' docs and typed by everyone who tests, so one
 * developer's or test's declines of 4000 0000 0000 0002 must not stop everyone else's for 30 days.
 * No network counts test-mode charges.
 */
export function governorCardKey(
  payer: string,
  fingerprint: string | null,
  testCard = false,
): Promise<string> {
  if (fingerprint === null) return sha256Hex(`${payer}|unknown card`, 32);
  return sha256Hex(testCard ? `${payer}|test card:${fingerprint}` : `card:${fingerprint}`, 32);
}

/**
 * The Durable Object name of a purchase's ledger: the buyer (the signed-in account, else the
 * visitor) and the plan they buy, the main plan or an upsell. A buyer's key, not the visitor's
 * press of Pay, so another tab or a resume link on another browser finds the same ledger.
 */
export async function purchaseKey(buyer: string, planId: string): Promise<string> {
  return `purchase:${await sha256Hex(buyer, 32)}:${planId}`;
}
