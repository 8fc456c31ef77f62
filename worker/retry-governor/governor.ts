import type { CardNetwork } from '../../shared/card-network';
import {
  MASTERCARD_ATTEMPTS_PER_24_HOURS,
  MASTERCARD_ATTEMPTS_PER_30_DAYS,
  MASTERCARD_STOP_ADVICE,
  networkCode,
  VISA_CATEGORY_1_CODES,
  VISA_REATTEMPTS_PER_30_DAYS,
  WINDOW_24_HOURS_MS,
  WINDOW_30_DAYS_MS,
} from './network-rules';

/**
 * The retry governor: before any charge of a card (a first try, a cascade to the other provider,
 * a renewal retry) it says whether the card networks' rules allow one more, counting the card's
 * attempts on both providers (docs/payments.md "The retry governor"). Pure: the store of a
 * card's attempts is ./card-attempts.ts.
 */

/**
 * Who starts the charge: the visitor paying on the page (`customer`, a CIT) or the merchant
 * without them (`merchant`, an MIT: a renewal, a retry of one). Visa counts them apart.
 */
export type Initiator = 'customer' | 'merchant';

/**
 * How an attempt ended, with the network's own codes of a decline: Visa's response code and
 * Mastercard's merchant advice code, each null when the provider gave none. `pending` is an
 * attempt admitted whose answer is not known yet: it counts as a decline until it is settled.
 */
export type AttemptOutcome =
  | { result: 'approved' }
  | { result: 'declined'; responseCode: string | null; adviceCode: string | null }
  | { result: 'pending' };

/** A charge about to be sent: when, on which card network, by whom, through which provider. */
export interface ProposedAttempt {
  /** Epoch milliseconds. */
  at: number;
  network: CardNetwork;
  initiator: Initiator;
  /** The card provider that would send it (`stripe`, `braintree`): kept for the log. */
  provider: string;
}

/** One attempt on the card, either provider's, as the store keeps it. */
export interface CardAttempt extends ProposedAttempt {
  /** The attempt's own id (its idempotency key): the same attempt asked again counts once. */
  id: string;
  outcome: AttemptOutcome;
}

/** The rule that refuses an attempt, as the log and the declined page name it. */
export type GovernorRule =
  /** Visa: a category 1 decline on this card ("issuer will never approve"). */
  | 'visa_category_1'
  /** Visa: 20 customer-initiated reattempts within 30 days. */
  | 'visa_customer_reattempts'
  /** Visa: 20 merchant-initiated reattempts within 30 days. */
  | 'visa_merchant_reattempts'
  /** Mastercard: merchant advice 03 or 21 on this card. */
  | 'mastercard_stop_advice'
  /** Mastercard: 10 attempts within 24 hours. */
  | 'mastercard_24_hours'
  /** Mastercard: 35 attempts within 30 days. */
  | 'mastercard_30_days';

/**
 * The governor's answer. A refusal names its rule and when it lapses (epoch ms: the oldest
 * counted decline leaves its window); `until` is null for a stop, which no wait lifts: the
 * visitor needs another card.
 */
export type GovernorDecision =
  | { allowed: true }
  | { allowed: false; rule: GovernorRule; until: number | null };

type Refusal = Extract<GovernorDecision, { allowed: false }>;

/**
 * The card's attempts of the last 30 days at `now` (rolling: one exactly 30 days old has left)
 * and when its latest approval among them was (-Infinity without one): the chain of reattempts
 * starts there.
 */
function recentChain(history: readonly CardAttempt[], now: number) {
  const recent = history.filter((attempt) => now - attempt.at < WINDOW_30_DAYS_MS);
  const approvals = recent.filter((attempt) => attempt.outcome.result === 'approved');
  return { recent, start: Math.max(-Infinity, ...approvals.map((attempt) => attempt.at)) };
}

/**
 * The attempts that count against the next one: of the last 30 days, after the card's latest
 * approval (an approval ends the chain), declined or still pending. Only these are reattempts.
 */
function countedAttempts(history: readonly CardAttempt[], now: number): CardAttempt[] {
  const { recent, start } = recentChain(history, now);
  return recent.filter((attempt) => attempt.outcome.result !== 'approved' && attempt.at >= start);
}

/**
 * What a card's store keeps at `now`: the attempts any rule may still count later, so the
 * governor decides the same with them as with the whole history. Of the last 30 days only, and
 * before the latest approval none (it ends the chain) but an attempt still pending, which its
 * answer settles. About 41 at most: Visa's 20 and 20, or Mastercard's 35, and the approval.
 */
export function keptAttempts(attempts: readonly CardAttempt[], now: number): CardAttempt[] {
  const { recent, start } = recentChain(attempts, now);
  return recent.filter((attempt) => attempt.at >= start || attempt.outcome.result === 'pending');
}

/**
 * Refuses when `limit` counted attempts are inside the window ending now; it lapses when the
 * one that makes the limit leaves it.
 */
function windowRefusal(
  attempts: readonly CardAttempt[],
  now: number,
  rule: { name: GovernorRule; limit: number; windowMs: number },
): Refusal | null {
  const times = attempts
    .map((attempt) => attempt.at)
    .filter((at) => now - at < rule.windowMs)
    .sort((a, b) => a - b);
  if (times.length < rule.limit) return null;
  const making = times[times.length - rule.limit] as number;
  return { allowed: false, rule: rule.name, until: making + rule.windowMs };
}

function declinedWith(
  attempts: readonly CardAttempt[],
  code: (outcome: Extract<AttemptOutcome, { result: 'declined' }>) => string | null,
  stops: ReadonlySet<string>,
): boolean {
  return attempts.some((attempt) => {
    if (attempt.outcome.result !== 'declined') return false;
    const written = networkCode(code(attempt.outcome));
    return written !== null && stops.has(written);
  });
}

function visaRefusals(counted: readonly CardAttempt[], proposed: ProposedAttempt): Refusal[] {
  if (declinedWith(counted, (outcome) => outcome.responseCode, VISA_CATEGORY_1_CODES)) {
    return [{ allowed: false, rule: 'visa_category_1', until: null }];
  }
  const sameInitiator = counted.filter((attempt) => attempt.initiator === proposed.initiator);
  const refusal = windowRefusal(sameInitiator, proposed.at, {
    name:
      proposed.initiator === 'customer' ? 'visa_customer_reattempts' : 'visa_merchant_reattempts',
    limit: VISA_REATTEMPTS_PER_30_DAYS,
    windowMs: WINDOW_30_DAYS_MS,
  });
  return refusal ? [refusal] : [];
}

function mastercardRefusals(counted: readonly CardAttempt[], now: number): Refusal[] {
  if (declinedWith(counted, (outcome) => outcome.adviceCode, MASTERCARD_STOP_ADVICE)) {
    return [{ allowed: false, rule: 'mastercard_stop_advice', until: null }];
  }
  const refusals = [
    windowRefusal(counted, now, {
      name: 'mastercard_24_hours',
      limit: MASTERCARD_ATTEMPTS_PER_24_HOURS,
      windowMs: WINDOW_24_HOURS_MS,
    }),
    windowRefusal(counted, now, {
      name: 'mastercard_30_days',
      limit: MASTERCARD_ATTEMPTS_PER_30_DAYS,
      windowMs: WINDOW_30_DAYS_MS,
    }),
  ];
  return refusals.filter((refusal) => refusal !== null);
}

/**
 * Whether the networks allow `proposed` on a card with this history (any order, either
 * provider, attempts of other ids than the proposed one's). A card of unknown network gets both
 * networks' rules. Of several refusals the one that lasts longest is given: a stop first, then
 * the latest `until`.
 */
export function governAttempt(
  history: readonly CardAttempt[],
  proposed: ProposedAttempt,
): GovernorDecision {
  const counted = countedAttempts(history, proposed.at);
  const refusals = [
    ...(proposed.network === 'mastercard' ? [] : visaRefusals(counted, proposed)),
    ...(proposed.network === 'visa' ? [] : mastercardRefusals(counted, proposed.at)),
  ];
  const stop = refusals.find((refusal) => refusal.until === null);
  if (stop) return stop;
  const [longest] = refusals.sort((a, b) => (b.until ?? 0) - (a.until ?? 0));
  return longest ?? { allowed: true };
}

/** The card's kept attempts after one more is asked for, and the governor's word on it. */
export interface CardAdmission {
  decision: GovernorDecision;
  /** What the card keeps now: unchanged on a refusal or a resend. */
  attempts: CardAttempt[];
  /** The attempt was counted now: the store writes `attempts`. */
  counted: boolean;
}

/**
 * Asks the governor about the attempt `id` over the card's `attempts` and, when it is allowed,
 * counts it at once as pending, so two attempts asked at the same time cannot both take the
 * last free place. The same id asked again is the same attempt (a resend after a timeout, the
 * call after 3-D Secure): allowed, counted once. The store (./card-attempts.ts) and the
 * simulations run this one function.
 */
export function admitCardAttempt(
  attempts: readonly CardAttempt[],
  id: string,
  proposed: ProposedAttempt,
): CardAdmission {
  if (attempts.some((attempt) => attempt.id === id)) {
    return { decision: { allowed: true }, attempts: [...attempts], counted: false };
  }
  const decision = governAttempt(attempts, proposed);
  if (!decision.allowed) return { decision, attempts: [...attempts], counted: false };
  const counted = [...attempts, { ...proposed, id, outcome: { result: 'pending' } as const }];
  return { decision, attempts: keptAttempts(counted, proposed.at), counted: true };
}

/**
 * The card's attempts once the attempt `id` has ended with `outcome`; null when the card has no
 * such attempt (never admitted, or older than 30 days). An approval stays one: a late answer
 * about the same attempt (a resend's timeout) cannot turn money taken into a decline.
 */
export function settleCardAttempt(
  attempts: readonly CardAttempt[],
  id: string,
  outcome: Exclude<AttemptOutcome, { result: 'pending' }>,
): CardAttempt[] | null {
  const attempt = attempts.find((each) => each.id === id);
  if (!attempt) return null;
  if (attempt.outcome.result === 'approved') return [...attempts];
  const settled = attempts.map((each) => (each === attempt ? { ...each, outcome } : each));
  return keptAttempts(settled, Math.max(...attempts.map((each) => each.at)));
}

/**
 * The card's attempts with one more that was sent elsewhere and has ended (a renewal the product
 * API charged on its own schedule, a merchant-initiated attempt): kept whatever the governor
 * would have said of it, since it happened, so the charges the worker asks for next count it.
 * The same id again is the same attempt, counted once.
 */
export function recordEndedAttempt(
  attempts: readonly CardAttempt[],
  id: string,
  ended: ProposedAttempt & { outcome: Exclude<AttemptOutcome, { result: 'pending' }> },
): CardAttempt[] | null {
  if (attempts.some((attempt) => attempt.id === id)) return null;
  return keptAttempts([...attempts, { ...ended, id }], ended.at);
}
