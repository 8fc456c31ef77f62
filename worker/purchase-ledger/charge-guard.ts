import { API_CALLS, type ApiCallName } from '../../shared/api/contract';
import { apiPath } from '../../shared/api/paths';
import type { ChargeProvider } from '../../shared/charge-outcome';
import { describeError, logError, logWarning } from '../../shared/log';
import { type ApiRefusal, refusal } from '../http/api-error';
import { sessionUserId } from '../middleware/signed-in-user';
import type { CallVisit } from '../middleware/visit';
import { type PortalFetch, sendToPortal } from '../portal-client/portal-call';
import { durableCardAttempts } from '../retry-governor/attempt-store';
import type { GovernorDecision } from '../retry-governor/governor';
import { answerNews, type RelayedAnswer } from './answer-news';
import { governorCardKey, purchaseKey } from './card-key';
import { cardOutcomeOf } from './card-outcome';
import type { LedgerAdmission, LedgerRefusal } from './ledger';

/**
 * The hook on the charge path (docs/payments.md "One charge per purchase"): before a charge call
 * is forwarded, the purchase's ledger and the retry governor are asked; after it, what the
 * answer said is recorded in both. worker/api/call-handler.ts calls `guardCharge` and the
 * guard's `settle`; a polling result's answer is recorded by `settlePolledCharge`.
 */

/** Where an attempt is kept: its purchase's ledger object, its id, its card's governor key. */
export interface LedgerRef {
  purchase: string;
  attempt: string;
  card: string;
}

/** A charge the ledger and the governor let through. */
export interface GuardedCharge {
  /** The id the product API de-duplicates the purchase's subscription on (`purchase_id`). */
  purchaseId: string | null;
  ref: LedgerRef;
  /** Records the product API's answer (null: none came); failures are logged, never thrown. */
  settle(answer: RelayedAnswer): Promise<void>;
}

/** What the charge call pays: its attempt, the card's fingerprint, the plan. */
export interface ChargeToGuard {
  call: ApiCallName;
  attempt: string;
  fingerprint: string | null;
  /** The call's `:planId` (null only for a call that names none, which a charge never is). */
  planId: string | null;
}

/** The card gateway's call is Stripe's flow, the direct one the alternate's (SPEC.md §4). */
const providerOf = (call: ApiCallName): ChargeProvider =>
  call === 'directSubscription' ? 'braintree' : 'stripe';

/** The ledger's and the governor's reasons, as the worker's refusal codes (shared/api). */
const LEDGER_CODES = {
  purchase_charged: 'purchase_charged',
  purchase_confirming: 'purchase_confirming',
  card_stopped: 'card_stopped',
  provider_not_allowed: 'provider_not_allowed',
  purchase_attempts_spent: 'payment_rate_limited',
} as const satisfies Record<LedgerRefusal, string>;

function ledgerObject(visit: CallVisit, purchase: string) {
  const namespace = visit.env.PURCHASE_ATTEMPTS;
  return namespace.get(namespace.idFromName(purchase));
}

/**
 * Asks the product API for the result an unknown attempt's POST was answered with (its polling
 * id), and records it: an attempt that may have charged is reconciled before another is sent.
 */
async function reconcile(
  visit: CallVisit,
  ref: LedgerRef,
  pollingId: string,
  portal?: PortalFetch,
) {
  const call = API_CALLS.pollingResult;
  const sent = await sendToPortal(
    visit,
    {
      name: 'pollingResult',
      call,
      path: apiPath(call.path, { pollingId }),
      body: null,
      bearer: null,
      idempotencyKey: null,
    },
    portal,
  );
  if (!sent.ok || sent.outcome.kind !== 'answered') return;
  let body: unknown = null;
  try {
    body = JSON.parse(sent.outcome.text);
  } catch {
    return;
  }
  await settleAttempt(visit, ref, 'pollingResult', { status: sent.outcome.status, body });
}

/** The ledger's word, after reconciling an unknown attempt that has a polling id once. */
async function admitted(
  visit: CallVisit,
  charge: ChargeToGuard & { buyer: string },
  ref: LedgerRef,
  portal?: PortalFetch,
): Promise<LedgerAdmission & { purchaseId: string }> {
  const { buyer } = charge;
  const proposed = {
    id: charge.attempt,
    provider: providerOf(charge.call),
    card: charge.fingerprint,
    at: Date.now(),
  };
  const first = await ledgerObject(visit, ref.purchase).admit(proposed);
  const unsettled = first.allowed ? null : first.unsettled;
  if (!unsettled?.pollingId) return first;
  const card = await governorCardKey(buyer, unsettled.card);
  await reconcile(visit, { ...ref, attempt: unsettled.id, card }, unsettled.pollingId, portal);
  return ledgerObject(visit, ref.purchase).admit(proposed);
}

function governorRefusal(decision: Extract<GovernorDecision, { allowed: false }>): ApiRefusal {
  if (decision.until === null) return refusal('card_stopped');
  const seconds = Math.max(1, Math.ceil((decision.until - Date.now()) / 1000));
  return { ...refusal('card_retry_limit'), retryAfterSeconds: seconds };
}

/**
 * Whether the charge may be forwarded: the purchase's ledger first (no attempt after a charge,
 * none while one is unknown, the cascade rule for the card), then the governor for the card
 * (the networks' counts). A refusal is logged (`charge_refused`, with its reason or rule) and is
 * the browser's answer; a store that cannot be reached is logged and lets the charge go (the
 * checkout's own idempotency and the product API's purchase id still hold).
 */
export async function guardCharge(
  visit: CallVisit,
  charge: ChargeToGuard,
  portal?: PortalFetch,
): Promise<{ ok: true; guarded: GuardedCharge } | { ok: false; refusal: ApiRefusal }> {
  const buyer = (await sessionUserId(visit.cookies)) ?? visit.vars.visitorId;
  const ref: LedgerRef = {
    purchase: await purchaseKey(buyer, charge.planId ?? 'none'),
    attempt: charge.attempt,
    card: await governorCardKey(buyer, charge.fingerprint),
  };
  const guarded = (purchaseId: string | null): GuardedCharge => ({
    purchaseId,
    ref,
    settle: (answer) => settleAttempt(visit, ref, charge.call, answer),
  });
  const log = { id: visit.requestId, call: charge.call, attempt: charge.attempt };
  try {
    const ledger = await admitted(visit, { ...charge, buyer }, ref, portal);
    if (!ledger.allowed) {
      logWarning('charge_refused', { ...log, reason: ledger.reason, purchase: ledger.purchaseId });
      return { ok: false, refusal: refusal(LEDGER_CODES[ledger.reason]) };
    }
    if (ledger.resend) return { ok: true, guarded: guarded(ledger.purchaseId) };
    const decision = await durableCardAttempts(visit.env.CARD_ATTEMPTS).admit(
      ref.card,
      ref.attempt,
      {
        at: Date.now(),
        network: 'unknown',
        initiator: 'customer',
        provider: providerOf(charge.call),
      },
    );
    if (decision.allowed) return { ok: true, guarded: guarded(ledger.purchaseId) };
    await ledgerObject(visit, ref.purchase).withdraw(ref.attempt);
    logWarning('charge_refused', { ...log, rule: decision.rule, purchase: ledger.purchaseId });
    return { ok: false, refusal: governorRefusal(decision) };
  } catch (error) {
    logError('charge_ledger_failed', { ...log, detail: describeError(error) });
    return { ok: true, guarded: guarded(null) };
  }
}

/**
 * Records what an answer said of the attempt `ref` names, in its purchase's ledger and, once it
 * is known whether it charged, in its card's governor store, with the network's codes when the
 * product API passed them on (a Visa category 1 code or Mastercard advice 03/21 stops the card).
 */
async function settleAttempt(
  visit: CallVisit,
  ref: LedgerRef,
  call: ApiCallName,
  answer: RelayedAnswer,
): Promise<void> {
  const { codes, ...news } = answerNews(call, answer);
  // A 202 of the polling result says nothing new: no request for it.
  if (news.reading === null && !news.pollingId && !news.challenged) return;
  try {
    await ledgerObject(visit, ref.purchase).settle(ref.attempt, news);
    const outcome = news.reading && cardOutcomeOf(news.reading, codes);
    if (outcome)
      await durableCardAttempts(visit.env.CARD_ATTEMPTS).settle(ref.card, ref.attempt, outcome);
  } catch (error) {
    logError('charge_ledger_failed', {
      id: visit.requestId,
      call,
      attempt: ref.attempt,
      detail: describeError(error),
    });
  }
}

/** Records a polling result's answer against the attempt whose POST it answered. */
export function settlePolledCharge(
  visit: CallVisit,
  ref: LedgerRef,
  answer: RelayedAnswer,
): Promise<void> {
  return settleAttempt(visit, ref, 'pollingResult', answer);
}
