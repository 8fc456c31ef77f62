import {
  type ApiCallName,
  ApiErrorBody,
  PollingResultResponse,
  PollingStartResponse,
} from '../../shared/api/contract';
import { type ChargeAttempt, nextChargeStep } from '../../shared/charge-next-step';
import {
  type ChargeAnswer,
  type ChargeOutcome,
  type ChargeProvider,
  type ChargeReading,
  chargeOutcomeOf,
} from '../../shared/charge-outcome';
import { sha256Hex } from '../../shared/hex';

/**
 * The attempt ledger of one purchase (docs/payments.md "One charge per purchase"): every attempt
 * to pay for it, on either card provider, with what it came to, and the rule that lets a next
 * attempt go to the product API only when no earlier one can have charged. Pure: the store and
 * its wiring are ./charge-guard.ts (PurchaseAttempts), and the simulation of 100,000 purchases
 * runs these same functions (test/unit/payments/one-charge-simulation.test.ts).
 *
 * A purchase is one buyer's buying of one plan: the visitor's main plan, or one upsell.
 */

/** At most this many attempts per purchase: a ledger never grows past it. */
export const MAX_ATTEMPTS_PER_PURCHASE = 24;

/** One attempt of the purchase, as the ledger keeps it. */
export interface LedgerAttempt {
  /** The attempt's id: its Idempotency-Key without the 3-D Secure suffix (../checkout/charge-call.ts). */
  id: string;
  provider: ChargeProvider;
  /**
   * The card's key (governorCardKey, below), or null when the worker cannot tell the card (a Braintree
   * nonce in production, the card on file): such an attempt is no other attempt's card, so only
   * the purchase's own rules hold for it (and the governor's count of the buyer's unknown cards).
   */
  card: string | null;
  /** Epoch ms of its first call. */
  at: number;
  /** What it came to; null while its answer is not known (sent, not answered yet). */
  outcome: ChargeOutcome | null;
  advised: boolean;
  /** A 3-D Secure challenge was asked for in this attempt. */
  challenged: boolean;
  /** The polling id the product API answered its POST with: its result is asked by it. */
  pollingId: string | null;
}

/** One purchase's ledger: its id, which the product API de-duplicates on, and its attempts. */
export interface PurchaseLedger {
  purchaseId: string;
  attempts: LedgerAttempt[];
}

/** Why a next attempt of the purchase is refused (the worker's refusal code says the same). */
export type LedgerRefusal =
  /** An attempt charged: the purchase is paid. */
  | 'purchase_charged'
  /** An attempt may have charged and its answer is not known yet: it is reconciled first. */
  | 'purchase_confirming'
  /** This card had a hard decline or a fraud block in this purchase: never again, on any provider. */
  | 'card_stopped'
  /** This card may go on, but not on this provider (one cross-provider attempt, none after 3-D Secure). */
  | 'provider_not_allowed'
  /** The purchase has had MAX_ATTEMPTS_PER_PURCHASE attempts. */
  | 'purchase_attempts_spent';

/** A next attempt, as the charge call asks for it. */
export interface ProposedCharge {
  id: string;
  provider: ChargeProvider;
  card: string | null;
  at: number;
}

export type LedgerAdmission =
  | { allowed: true; ledger: PurchaseLedger; resend: boolean }
  | {
      allowed: false;
      reason: LedgerRefusal;
      /** purchase_confirming: the attempt to reconcile first. */
      unsettled?: LedgerAttempt;
    };

const charged = (attempt: LedgerAttempt) => attempt.outcome === 'APPROVED';
/** Sent and not known: pending, or answered with a timeout or 5xx (TECH_UNKNOWN). */
const unsettled = (attempt: LedgerAttempt) =>
  attempt.outcome === null || attempt.outcome === 'TECH_UNKNOWN';

/** Two attempts are of the same card when both cards are known and are the same. */
const sameCard = (card: string | null, other: string | null) => card !== null && card === other;

/** What charge-next-step.ts reads of a settled attempt. */
function chargeAttemptOf(attempt: LedgerAttempt): ChargeAttempt {
  return {
    provider: attempt.provider,
    outcome: attempt.outcome ?? 'TECH_UNKNOWN',
    advised: attempt.advised,
    challenged: attempt.challenged,
  };
}

/**
 * Whether this card may go on to `provider` after its earlier attempts in the purchase (the
 * cascade rule, shared/charge-next-step.ts, for a visitor paying now): never after a hard
 * decline or a fraud block; to the other provider once, and not after 3-D Secure; on the same
 * provider again (a new press of Pay) while the card may pass later.
 */
function cardRefusal(earlier: LedgerAttempt[], provider: ChargeProvider): LedgerRefusal | null {
  const [first, ...rest] = earlier.map(chargeAttemptOf);
  if (!first) return null;
  const step = nextChargeStep([first, ...rest], {
    initiator: 'customer',
    providers: ['stripe', 'braintree'],
  });
  const last = earlier.at(-1) as LedgerAttempt;
  switch (step.step) {
    case 'stop':
      return 'card_stopped';
    case 'other_provider':
      return provider === step.provider || provider === last.provider
        ? null
        : 'provider_not_allowed';
    case 'step_up':
    case 'later':
    case 'reconcile':
      return provider === step.provider ? null : 'provider_not_allowed';
    case 'done':
      return 'purchase_charged';
  }
}

/**
 * Whether the purchase may send `proposed` to the product API, and the ledger with it counted
 * as pending when it may. Over the whole purchase first: the same attempt again is a resend
 * (allowed, counted once: the product API answers its key with the first charge); no attempt
 * after one that charged; none while one may have charged (it is reconciled first); then the
 * card's own attempts decide (cardRefusal). A resend of an attempt that asked for 3-D Secure
 * (the call after the challenge) is in flight again: it may charge, so it is pending until
 * answered.
 */
export function admitToLedger(ledger: PurchaseLedger, proposed: ProposedCharge): LedgerAdmission {
  const same = ledger.attempts.find((attempt) => attempt.id === proposed.id);
  if (same) {
    if (same.provider !== proposed.provider) {
      return { allowed: false, reason: 'provider_not_allowed' };
    }
    if (same.outcome !== 'AUTH_REQUIRED') return { allowed: true, ledger, resend: true };
    const attempts = ledger.attempts.map((each) =>
      each === same ? { ...each, outcome: null } : each,
    );
    return { allowed: true, ledger: { ...ledger, attempts }, resend: true };
  }
  if (ledger.attempts.some(charged)) return { allowed: false, reason: 'purchase_charged' };
  const pending = ledger.attempts.find(unsettled);
  if (pending) return { allowed: false, reason: 'purchase_confirming', unsettled: pending };
  if (ledger.attempts.length >= MAX_ATTEMPTS_PER_PURCHASE) {
    return { allowed: false, reason: 'purchase_attempts_spent' };
  }
  const earlier = ledger.attempts.filter((attempt) => sameCard(proposed.card, attempt.card));
  const refused = cardRefusal(earlier, proposed.provider);
  if (refused) return { allowed: false, reason: refused };
  const attempt: LedgerAttempt = {
    ...proposed,
    outcome: null,
    advised: false,
    challenged: false,
    pollingId: null,
  };
  return {
    allowed: true,
    ledger: { ...ledger, attempts: [...ledger.attempts, attempt] },
    resend: false,
  };
}

/** What an answer about an attempt says: its reading, and what it names for later. */
export interface AttemptNews {
  /** Null when the answer says nothing final (a polling start, a 202): the outcome stays. */
  reading: ChargeReading | null;
  /** The answer asked for 3-D Secure. */
  challenged?: boolean;
  pollingId?: string | null;
}

/**
 * The ledger once `news` about attempt `id` is known; unchanged when it has no such attempt. An
 * approval is never undone (a resend's late timeout does not turn money taken into a decline),
 * and a decline is not turned back into TECH_UNKNOWN by a resend that timed out (the product API
 * answers a resent key with its first charge), except while 3-D Secure was asked for: the call
 * after the challenge can charge.
 */
export function settleInLedger(
  ledger: PurchaseLedger,
  id: string,
  news: AttemptNews,
): PurchaseLedger {
  const attempts = ledger.attempts.map((attempt) => {
    if (attempt.id !== id) return attempt;
    const reading = news.reading;
    const keep =
      reading === null ||
      attempt.outcome === 'APPROVED' ||
      (reading.outcome === 'TECH_UNKNOWN' &&
        attempt.outcome !== null &&
        attempt.outcome !== 'AUTH_REQUIRED');
    return {
      ...attempt,
      outcome: keep ? attempt.outcome : reading.outcome,
      advised: keep ? attempt.advised : reading.advised,
      challenged: attempt.challenged || news.challenged === true,
      pollingId: news.pollingId ?? attempt.pollingId,
    };
  });
  return { ...ledger, attempts };
}

/**
 * The ledger without the attempt `id` when it is still pending: an attempt admitted and then
 * refused before anything was sent (the retry governor said no), so it never charged.
 */
export function withdrawFromLedger(ledger: PurchaseLedger, id: string): PurchaseLedger {
  const attempts = ledger.attempts.filter(
    (attempt) => attempt.id !== id || attempt.outcome !== null || attempt.pollingId !== null,
  );
  return { ...ledger, attempts };
}

/**
 * What the product API's answer to a charge call says of its attempt, for the purchase's ledger
 * and the retry governor (docs/payments.md "One charge per purchase"): read with the charge
 * outcome's tables (shared/charge-outcome.ts), from the decline code and processor response the
 * product API passes on (SPEC.md §3, §7), and the network's own codes when it passes those on
 * too (ours, the contract's NetworkCodes). Pure.
 */

/** An answer as the worker relays it; null when none came (a timeout, the portal unreachable). */
export type RelayedAnswer = { status: number; body: unknown } | null;

/** The network's codes of a decline, as the product API passed them on (or null). */
export interface NetworkCodes {
  responseCode: string | null;
  adviceCode: string | null;
}

/** What an answer says of its attempt, and the network's codes for the retry governor. */
export type AnswerNews = AttemptNews & { codes: NetworkCodes };

const NO_CODES: NetworkCodes = { responseCode: null, adviceCode: null };
const reading = (outcome: ChargeReading['outcome']): ChargeReading => ({ outcome, advised: false });
const UNKNOWN: AnswerNews = { reading: reading('TECH_UNKNOWN'), codes: NO_CODES };
const NOT_SENT: AnswerNews = { reading: reading('TECH_NOT_SENT'), codes: NO_CODES };
const AUTHENTICATE: AnswerNews = {
  reading: reading('AUTH_REQUIRED'),
  challenged: true,
  codes: NO_CODES,
};

/** The network codes of a decline's fields (the contract's `network_decline_code`, `…advice_code`). */
function codesOf(fields: {
  network_decline_code?: string | null;
  network_advice_code?: string | null;
}): NetworkCodes {
  return {
    responseCode: fields.network_decline_code ?? null,
    adviceCode: fields.network_advice_code ?? null,
  };
}

/** A decline's news: its outcome read with the network's codes first, and the codes. */
export function declineNews(
  code: string | null,
  processorResponse: string | null,
  codes: NetworkCodes,
) {
  const answer = declineAnswerOf(code, processorResponse, codes);
  return { reading: chargeOutcomeOf(answer), codes };
}

/**
 * A decline as the provider would have answered it: a Braintree processor response code (four
 * digits, also at the start of `processor_response`, "2001 Insufficient Funds"), else Stripe's
 * decline code, which the test gateway also speaks.
 */
function declineAnswerOf(
  code: string | null,
  processorResponse: string | null,
  codes: NetworkCodes,
): ChargeAnswer {
  const processor = (code ?? processorResponse ?? '').trim().match(/^\d{4}\b/)?.[0];
  if (processor) {
    return {
      kind: 'braintree',
      status: 'processor_declined',
      processorResponseCode: processor,
      networkResponseCode: codes.responseCode,
      merchantAdviceCode: codes.adviceCode,
    };
  }
  return {
    kind: 'stripe',
    status: 'requires_payment_method',
    error: {
      type: 'card_error',
      decline_code: code,
      message: processorResponse,
      network_decline_code: codes.responseCode,
      network_advice_code: codes.adviceCode,
    },
  };
}

function pollingResultNews(status: number, body: unknown): AnswerNews {
  if (status === 202) return { reading: null, codes: NO_CODES };
  const parsed = PollingResultResponse.safeParse(body);
  const result = parsed.success ? parsed.data.data.result_data : null;
  if (status !== 200 || result === null) return { reading: null, codes: NO_CODES };
  switch (result.status) {
    case 'succeeded':
      return { reading: reading('APPROVED'), codes: NO_CODES };
    case 'failed':
      return declineNews(
        result.decline_code ?? null,
        result.processor_response ?? null,
        codesOf(result),
      );
    case 'requires_action':
      return AUTHENTICATE;
    default:
      return UNKNOWN;
  }
}

function directNews(status: number, body: unknown): AnswerNews {
  if (status < 300) {
    const charged = (body as { data?: { subscription_id?: unknown } } | null)?.data;
    return charged?.subscription_id ? { reading: reading('APPROVED'), codes: NO_CODES } : UNKNOWN;
  }
  const refusal = ApiErrorBody.safeParse(body);
  if (refusal.success && refusal.data.data?.payment_method_nonce) return AUTHENTICATE;
  if (refusal.success && refusal.data.decline_code) {
    return declineNews(refusal.data.decline_code, null, codesOf(refusal.data));
  }
  return NOT_SENT;
}

/**
 * The news of one answer about an attempt. No answer, or a 5xx, may have charged (TECH_UNKNOWN);
 * a 4xx that is no decline was refused before any charge (TECH_NOT_SENT); a polling start names
 * where the result will be, and a 202 says nothing yet.
 */
export function answerNews(call: ApiCallName, answer: RelayedAnswer): AnswerNews {
  if (answer === null || answer.status >= 500) return UNKNOWN;
  const { status, body } = answer;
  if (call === 'pollingResult') return pollingResultNews(status, body);
  if (call === 'directSubscription') return directNews(status, body);
  if (status >= 300) return NOT_SENT;
  const started = PollingStartResponse.safeParse(body);
  return started.success
    ? { reading: null, pollingId: started.data.data.polling_result_id, codes: NO_CODES }
    : UNKNOWN;
}

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
