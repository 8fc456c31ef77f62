import { hex } from '../../shared/hex';

/**
 * The keys a charge is counted under (docs/payments.md "One charge per purchase"): the card's,
 * for the retry governor, and the purchase's, for its attempt ledger.
 */

async function digest(text: string): Promise<string> {
  const bytes = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return hex(new Uint8Array(bytes)).slice(0, 32);
}

/**
 * The retry governor's key for the card a charge pays with, the same whichever provider charges
 * it: the buyer (the signed-in account, else the visitor) and the card's fingerprint
 * (worker/api/card-fingerprint.ts: one card number, one fingerprint, whatever nonce it was
 * tokenized into), read on the server, never from the browser.
 *
 * It matches one buyer's card across providers wherever one source fingerprints both: the test
 * gateway that stands in for both in development, a deployment whose two providers' cards share
 * a fingerprint source. It cannot match Stripe's `card.fingerprint` with Braintree's
 * `unique_number_identifier` (each provider's own), nor a card the worker cannot fingerprint (a
 * Braintree nonce in production, the card on file): those count under the buyer's one key for
 * unknown cards, all of that buyer's unknown cards together, stricter than the networks. Nor does
 * it match one card across buyers: a card that several accounts pay with gets each account's
 * count (looser than the networks there; the card-testing limits count a card across accounts,
 * worker/rate-limits/), so one visitor's declines never hold back another's card.
 */
export function governorCardKey(buyer: string, fingerprint: string | null): Promise<string> {
  return digest(`${buyer}|${fingerprint === null ? 'unknown card' : `card:${fingerprint}`}`);
}

/**
 * The Durable Object name of a purchase's ledger: the buyer (the signed-in account, else the
 * visitor) and the plan they buy, the main plan or an upsell. A buyer's key, not the visitor's
 * press of Pay, so another tab or a resume link on another browser finds the same ledger.
 */
export async function purchaseKey(buyer: string, planId: string): Promise<string> {
  return `purchase:${await digest(buyer)}:${planId}`;
}
