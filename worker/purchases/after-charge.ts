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
import { mainPurchaseKeeper, rememberMainPurchase } from '../checkout/main-purchase';
import { experimentStores } from '../experiments/store/experiment-stores';
import type { Outcome } from '../experiments/store/outcomes';
import { recordDeclines } from '../experiments/store/record-outcomes';
import { type ApiRefusal, refusal } from '../http/api-json';
import type { LedgerRef } from '../purchase-ledger/charge-guard';
import { afterAnswer } from '../request/after-answer';
import type { CallVisit } from '../request/visit';
import { manageLinkFor } from '../subscriber-links/manage-link';
import { type PollingCharge, rememberPollingCharge } from './polling-charge';
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
 * was bought, so the upsell after it is sold (../checkout/main-purchase.ts), and a final success kept as
 * the server-verified purchase (not on a marketer's preview; keptUnlessPreview). When it could be
 * kept nowhere the visitor is told nothing of the charge: 503 `purchase_not_kept`, which the
 * checkout asks again like any 5xx (islands/payments/poll-result.ts), and the next answer keeps
 * it. After the answer is sent (off the visitor's path, worker/request/after-answer.ts): a decline counts
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
