import {
  type ApiCallName,
  type ChargeReceipt,
  PollingStartResponse,
} from '../../shared/api/contract';
import { describeError, logError, logLine, logWarning } from '../../shared/log';
import { isPlanId, planById } from '../../shared/plans/catalogue';
import {
  completeFromCatalogue,
  type FilledField,
  type Ordered,
} from '../checkout/catalogue-charge';
import { declineOf, declineReportOf, verifiedChargeOf } from '../checkout/charge-call';
import type { AfterCharge } from '../checkout/charge-steps';
import { mainPurchaseKeeper, rememberMainPurchase } from '../checkout/offer';
import type { Bindings } from '../env';
import { experimentStores } from '../experiments/store/experiment-stores';
import type { Outcome } from '../experiments/store/outcomes';
import { recordDeclines } from '../experiments/store/record-outcomes';
import { type ApiRefusal, refusal } from '../http/api-json';
import type { LedgerRef } from '../purchase-ledger/charge-guard';
import { afterAnswer } from '../request/after-answer';
import type { CallVisit } from '../request/visit';
import { manageLinkFor } from '../subscriber-links/manage-link';
import { purchaseLookOf } from './purchase-look';
import { chargeReceiptOf, withReceipt } from './receipt';
import { recordVerifiedPurchase } from './record-purchase';

/** What the browser's charge request was: its attempt, card fingerprint, plan and coupon. */
export interface ChargeRequest {
  attempt: string;
  card: string | null;
  planId: string | null;
  coupon: string | null;
  /** A polling result's memo, as the owner check read it (./charge-owner.ts); else null. */
  polled: PollingCharge | null;
  /** Where a charge POST's attempt is kept (worker/purchase-ledger/), for its polling result. */
  ledger: LedgerRef | null;
}

/** A verified charge completed from the catalogue, and the fields the catalogue filled. */
type Completed = ReturnType<typeof completeFromCatalogue>;

/** What the browser gets for a charge answer: its body, or the worker's refusal. */
export type ChargeReply = { ok: true; body: unknown } | { ok: false; refusal: ApiRefusal };

/**
 * What the worker learns from a charge answer it relays. Before the answer goes (awaited): the
 * memo of a polling id the POST started, so its first poll finds whose it is, that a main plan
 * was bought, so the upsell after it is sold (../checkout/offer.ts mainPurchaseKeeper), and a final success kept as
 * the server-verified purchase (not on a marketer's preview; keptUnlessPreview). When it could be
 * kept nowhere the visitor is told nothing of the charge: 503 `purchase_not_kept`, which the
 * checkout asks again like any 5xx (islands/payments/poll-result.ts), and the next answer keeps
 * it. After the answer is sent (off the visitor's path, worker/request/visit.ts): a decline counts
 * toward the experiments' guardrail (recordDeclineOutcome). The charge pipeline's `record` step
 * (worker/checkout/charge-steps.ts).
 * Returns the body the browser gets: a success's with the receipt (./receipt.ts), else as it was.
 */
export async function afterChargeAnswer(
  visit: CallVisit,
  call: ApiCallName,
  answer: { status: number; body: unknown },
  request: ChargeRequest,
  now: () => number,
): Promise<ChargeReply> {
  const id = visit.requestId;
  const pollingId = call === 'pollingResult' ? (visit.params.pollingId ?? null) : null;
  const answered = verifiedChargeOf(call, answer.status, answer.body);
  const ordered: Ordered | null =
    call === 'directSubscription' ? request : pollingId ? request.polled : null;
  const completed = answered ? completeFromCatalogue(answered, ordered) : null;
  if (answered && isMainPlan(ordered?.planId ?? answered.planId)) {
    await rememberMainPurchase(mainPurchaseKeeper(visit.env, visit.sessionToken, id));
  }
  if (answered && completed && !(await keptUnlessPreview(visit, call, completed, now))) {
    return { ok: false, refusal: refusal('purchase_not_kept') };
  }
  const started = pollingIdStarted(call, answer);
  if (started) {
    await rememberPollingCharge({ namespace: visit.env.RATE_LIMITER, requestId: id }, started, {
      card: request.card,
      planId: request.planId,
      coupon: request.coupon,
      visitorId: visit.visitorId,
      userId: await visit.signedInUser(),
      ledger: request.ledger,
    });
  }
  recordDeclineOutcome(visit, call, answer, request, now);
  const receipt = completed
    ? await withManageLink(
        visit,
        chargeReceiptOf(completed.charge, ordered?.coupon ?? null, now()),
        completed.charge.subscriptionId,
        now,
      )
    : null;
  const body =
    receipt && (call === 'pollingResult' || call === 'directSubscription')
      ? withReceipt(call, answer.body, receipt)
      : answer.body;
  return { ok: true, body };
}

/**
 * A verified charge kept as the purchase (./record-purchase.ts) before the visitor hears of it:
 * false when it could be kept nowhere. A marketer's preview (worker/preview/preview.ts) is no
 * visit: its purchase is neither revenue nor a conversion, so it is not kept and no ad network
 * hears of it.
 */
async function keptUnlessPreview(
  visit: CallVisit,
  call: ApiCallName,
  { charge, filled }: Completed,
  now: () => number,
): Promise<boolean> {
  const id = visit.requestId;
  const fields = { id, sub_id: charge.subscriptionId };
  if (visit.arms.preview) {
    logLine({ ...fields, purchase: 'preview_not_recorded', preview: true });
    return true;
  }
  const kept = await recordVerifiedPurchase(visit, charge, now);
  if (kept === null) return false;
  logLine({ ...fields, purchase: 'verified', kept_in: kept });
  logCatalogueFill(id, call, filled);
  return true;
}

/**
 * The receipt with the subscriber's page for its subscription (a manage link,
 * worker/subscriber-links/manage-link.ts, wearing the purchase's brand and language), for a plan
 * that renews: a one-time purchase has nothing to manage or cancel.
 */
async function withManageLink(
  visit: CallVisit,
  receipt: ChargeReceipt | null,
  subscriptionId: string,
  now: () => number,
): Promise<ChargeReceipt | null> {
  if (receipt === null || receipt.renews_at === null) return receipt;
  const url = await manageLinkFor(
    visit,
    subscriptionId,
    now(),
    purchaseLookOf(visit.request.headers),
  );
  return { ...receipt, manage_url: url };
}

/**
 * A decline the answer reports, recorded after the answer is sent as the experiments' decline
 * guardrail (docs/statistics.md), with its class, for the visitor who started the charge (not on
 * a marketer's preview). The guardrail is the worker's own reading of the provider's answer,
 * never a page's event, so no one can post a decline into an arm. A result polled again counts
 * once: a visitor's flag and class bits are set once. (The card-testing limits count it in the
 * charge pipeline's `limits` step, worker/checkout/charge-steps.ts.)
 */
function recordDeclineOutcome(
  visit: CallVisit,
  call: ApiCallName,
  answer: { status: number; body: unknown },
  request: ChargeRequest,
  now: () => number,
): void {
  const pollingId = call === 'pollingResult' ? (visit.params.pollingId ?? null) : null;
  const decline = declineOf(call, answer.status, answer.body, {
    pollingId,
    attempt: request.attempt,
  });
  if (!decline || visit.arms.preview) return;
  const report = declineReportOf(call, answer.status, answer.body);
  const visitorId = (pollingId ? request.polled?.visitorId : null) ?? visit.visitorId;
  const outcome: Outcome & { event: 'subs_purchase_failed' } = {
    visitorId: visitorId.toLowerCase(),
    event: 'subs_purchase_failed',
    at: now(),
    ...(report ? { declineClass: report.decline_class } : {}),
  };
  afterAnswer(
    visit,
    recordDeclines(experimentStores(visit.env), [outcome]).catch((error) =>
      logError('decline_outcome_failed', {
        id: visit.requestId,
        decline,
        detail: describeError(error),
      }),
    ),
  );
}

/**
 * Puts what a charge answer says on the request's log line: a decline's class and code (the
 * visitor's uuid beside them, so support can find a visitor's declines), and the polling id on
 * the POST that started it and on each poll, so a charge and its polls are found together.
 */
export function noteCharge(
  visit: CallVisit,
  call: ApiCallName,
  answer: { status: number; body: unknown },
): void {
  const pollingId =
    pollingIdStarted(call, answer) ??
    (call === 'pollingResult' ? (visit.params.pollingId ?? null) : null);
  if (pollingId) visit.note('polling_id', pollingId);
  const report = declineReportOf(call, answer.status, answer.body);
  if (!report) return;
  visit.note('decline_class', report.decline_class);
  visit.note('decline_code', report.decline_code);
  visit.note('visitor', visit.visitorId);
}

/** Whether a charge was for a main plan (a subscription the upsells follow), not an upsell. */
function isMainPlan(planId: string | null): boolean {
  return planId !== null && isPlanId(planId) && planById(planId).role === 'main';
}

/** The fields of the answer JSON a charge's fields come from, for the `portal_shape` warning. */
const CHARGE_FIELDS_AT: Partial<Record<ApiCallName, string>> = {
  pollingResult: 'data.result_data',
  directSubscription: 'data',
};

/**
 * One `portal_shape` warning per charge field the answer left out and the catalogue filled, as the
 * lenient contract writes them (worker/api/call-handler.ts), once per recorded purchase however
 * often it is polled: ops see that the product API does not say what it charged, while the
 * purchase still reaches the networks.
 */
function logCatalogueFill(id: string, call: ApiCallName, filled: readonly FilledField[]): void {
  for (const field of filled) {
    logWarning('portal_shape', {
      id,
      call,
      field: `${CHARGE_FIELDS_AT[call]}.${field}`,
      found: 'missing',
      used: 'catalogue',
    });
  }
}

/** The polling id a card POST's 2xx answer names, else null. */
function pollingIdStarted(call: ApiCallName, answer: { status: number; body: unknown }) {
  if (call !== 'pollingSubscription' || answer.status < 200 || answer.status >= 300) return null;
  const started = PollingStartResponse.safeParse(answer.body);
  return started.success ? started.data.data.polling_result_id : null;
}

/** What the checkout's log and record steps do with a charge's answer (worker/checkout/charge-steps.ts). */
export const AFTER_CHARGE: AfterCharge = { note: noteCharge, answer: afterChargeAnswer };

/**
 * What a card gateway's charge POST asked for, kept under the polling id the product API named
 * (SPEC.md §7 polling flow): its result arrives later, on a GET that names neither the card nor
 * the plan. The card feeds the card-testing limits of a decline; the plan and coupon price a
 * success whose answer leaves out what was charged (../checkout/catalogue-charge.ts); the owner says whose
 * charge it is: only the session that started it reads its result (./charge-owner.ts).
 */
export interface PollingCharge {
  /** The card's fingerprint, null for the card on file or one no source knows. */
  card: string | null;
  /** The `:planId` of the POST. */
  planId: string | null;
  /** The request's coupon code (SPEC.md §3 request payload). */
  coupon: string | null;
  /** The visitor uuid of the session that started it; null in a memo of before owners were kept. */
  visitorId: string | null;
  /** The signed-in user (`gf_user`) of that session; null when none or in a memo of before. */
  userId: string | null;
  /**
   * Where the POST's attempt is kept (worker/purchase-ledger/charge-guard.ts), so its result is
   * recorded in its purchase's ledger; null when it was not kept or in a memo of before.
   */
  ledger?: LedgerRef | null;
}

/** Where the memos are kept (RATE_LIMITER), and the request id a failure is logged under. */
export interface PollingStore {
  namespace: Bindings['RATE_LIMITER'];
  requestId: string;
}

/** How long it is kept: a result is long final by then. */
const KEPT_MS = 60 * 60_000;

function stub(namespace: Bindings['RATE_LIMITER'], pollingId: string) {
  // The key's old name: memos written before the plan was kept stay readable (readCharge).
  return namespace.get(namespace.idFromName(`charged_card:${pollingId}`));
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

/** A memo's ledger place, when it has all three parts. */
function ledgerRefOf(value: unknown): LedgerRef | null {
  if (typeof value !== 'object' || value === null) return null;
  const { purchase, attempt, card } = value as Record<string, unknown>;
  const [p, a, c] = [text(purchase), text(attempt), text(card)];
  return p && a && c ? { purchase: p, attempt: a, card: c } : null;
}

/** A memo as stored: JSON, or the bare card fingerprint of the format before it. */
export function readCharge(fact: string | null): PollingCharge | null {
  if (fact === null) return null;
  if (!fact.startsWith('{')) {
    return { card: fact, planId: null, coupon: null, visitorId: null, userId: null, ledger: null };
  }
  try {
    const kept = JSON.parse(fact) as Record<string, unknown>;
    return {
      card: text(kept.card),
      planId: text(kept.planId),
      coupon: text(kept.coupon),
      visitorId: text(kept.visitorId),
      userId: text(kept.userId),
      ledger: ledgerRefOf(kept.ledger),
    };
  } catch {
    return null;
  }
}

/**
 * Keeps what the POST charged, and for whom (`kept`: the request's visitor and signed-in user).
 * Awaited before the POST answers, so the first poll finds it. A failure is tried once more, then
 * logged (`polling_owner_unsaved`): the result cannot be read through the worker then, and the
 * checkout says it is still confirming the payment (docs/payments.md).
 */
async function rememberPollingCharge(
  store: PollingStore,
  pollingId: string,
  kept: PollingCharge,
): Promise<void> {
  let failure: unknown = null;
  for (let tries = 0; tries < 2; tries += 1) {
    try {
      await stub(store.namespace, pollingId).remember(JSON.stringify(kept), KEPT_MS);
      return;
    } catch (error) {
      failure = error;
    }
  }
  logError('polling_owner_unsaved', { id: store.requestId, detail: String(failure) });
}

/** The memo of a polling id, or null when none is kept (unknown, expired) or it cannot be read. */
export async function recallPollingCharge(
  store: PollingStore,
  pollingId: string,
): Promise<PollingCharge | null> {
  try {
    return readCharge(await stub(store.namespace, pollingId).recall());
  } catch (error) {
    logError('rate_limiter_failed', { id: store.requestId, detail: String(error) });
    return null;
  }
}
