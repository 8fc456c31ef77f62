import { ATTEMPT_CLOSE_CALL, AttemptCloseResponse } from '../../shared/api/attempt-close';
import { API_CALLS, type ApiCallName, type SubscriptionRequest } from '../../shared/api/contract';
import { apiPath } from '../../shared/api/paths';
import type { CardNetwork } from '../../shared/card-network';
import type { ChargeProvider } from '../../shared/charge-outcome';
import type { ChargeResult, ChargeStep, ChargeSteps } from '../charge-pipeline/charge-pipeline';
import type { ApiRefusal } from '../http/api-json';
import { type PortalFetch, sendToPortal } from '../portal-client/portal-call';
import { checkoutProviderStep, type StuckAttemptPort } from '../provider-routing/checkout-provider';
import type { RelayedCharge } from '../provider-routing/provider-pin';
import type { CloseAnswer } from '../provider-routing/stuck-attempt';
import {
  guardSteps,
  keptAttempt,
  type LedgerRef,
  settleClosedUnpaid,
  settledSteps,
} from '../purchase-ledger/charge-guard';
import { answerNews, purchaseKey } from '../purchase-ledger/ledger';
import type {
  afterChargeAnswer,
  ChargeReply,
  noteCharge,
  PollingCharge,
} from '../purchases/after-charge';
import { rateLimitRefusal, recordDecline } from '../rate-limits/rate-limit-gate';
import { afterAnswer } from '../request/after-answer';
import type { CallVisit } from '../request/visit';
import { declineOf, declineReportOf, isChargeCall, withPurchaseId } from './charge-call';

/**
 * The checkout's adapters of the charge pipeline's steps (worker/charge-pipeline/): the charge
 * POSTs of SPEC.md §7 (the card gateway's polling route and the direct one) run them all; the
 * polling result of such a POST settles the same steps with its answer, from what the POST kept.
 */

/** What the product API answered a relayed call, or the refusal that stands for no answer. */
export type Exchanged =
  | { ok: true; answer: { status: number; body: unknown } }
  | { ok: false; refusal: ApiRefusal };

/** What the call charges: its attempt, the card's fingerprint and network, the plan and coupon. */
export interface ChargeOfCall {
  attempt: string;
  card: string | null;
  network: CardNetwork;
  /** A test-mode card, counted per payer by the retry governor. */
  testCard: boolean;
  order: { planId: string | null; coupon: string | null };
  /** A polling result's memo, as the owner check read it (worker/purchases/charge-owner.ts). */
  polled: PollingCharge | null;
}

/** The checkout's steps of one call, and what they leave for the answer. */
export interface CheckoutCharge {
  steps: ChargeSteps<Exchanged>;
  classify: (exchanged: Exchanged) => ChargeResult;
  /**
   * The charge's body as it goes to the product API: the priced body (withChargedPrice) with its
   * purchase id and provider.
   */
  outgoing: (body: unknown) => unknown;
  /** The browser's answer once `record` ran: a success's body with its receipt, or a refusal. */
  reply: () => ChargeReply | null;
}

/**
 * What follows a charge's answer, which the purchases room does (worker/purchases/after-charge.ts
 * AFTER_CHARGE): the log step's note of it, and the record step's purchase and reply. Handed in by
 * the call (worker/api/call-handler.ts), as the purchases room reads the checkout's, not the
 * other way round: the charge's rooms are entered in the pipeline's order, the record last.
 */
export interface AfterCharge {
  note: typeof noteCharge;
  answer: typeof afterChargeAnswer;
}

/** The card gateway's call is Stripe's flow, the direct one the alternate's (SPEC.md §4). */
const providerOf = (call: ApiCallName): ChargeProvider =>
  call === 'directSubscription' ? 'braintree' : 'stripe';

const relayedOf = (exchanged: Exchanged) =>
  exchanged.ok ? exchanged.answer : { status: exchanged.refusal.status, body: null };

/** What a checkout answer came to (shared/charge-outcome.ts, shared/decline-class.ts). */
function classifyOf(call: ApiCallName) {
  return function classifyCheckout(exchanged: Exchanged): ChargeResult {
    const relayed = relayedOf(exchanged);
    const { reading, challenged, pollingId, codes } = answerNews(call, relayed);
    const report = exchanged.ok ? declineReportOf(call, relayed.status, relayed.body) : null;
    return {
      reading,
      challenged: challenged === true,
      pollingId: pollingId ?? null,
      ...codes,
      declineCode: report?.decline_code ?? null,
      declineClass: report?.decline_class ?? null,
    };
  };
}

/**
 * The card-testing limits: checked before a charge (per visitor, address and card,
 * worker/rate-limits/rate-limit-gate.ts), and a decline counted after the answer is sent, against
 * the card the charge was started with, named so that reading it again counts it once.
 */
function limitsStep(visit: CallVisit, name: ApiCallName, charge: ChargeOfCall) {
  const pollingId = name === 'pollingResult' ? (visit.params.pollingId ?? null) : null;
  return {
    admit: () => rateLimitRefusal(visit.asker, name, { phone: null, card: charge.card }),
    async settle(exchanged: Exchanged) {
      if (!exchanged.ok) return;
      const { status, body } = exchanged.answer;
      const decline = declineOf(name, status, body, { pollingId, attempt: charge.attempt });
      if (!decline) return;
      const card = pollingId ? (charge.polled?.card ?? null) : charge.card;
      afterAnswer(visit, recordDecline(visit.asker, decline, card));
    },
  } satisfies ChargeStep<Exchanged>;
}

/** The provider's health and the visitor's pin (worker/provider-routing/checkout-provider.ts). */
function providerStepOf(
  visit: CallVisit,
  name: ApiCallName,
  now: number,
  stuck: StuckAttemptPort | undefined,
) {
  let step: Awaited<ReturnType<typeof checkoutProviderStep>> | null = null;
  const ready = async () => {
    step ??= await checkoutProviderStep(visit, name, now, stuck);
    return step;
  };
  return {
    step: {
      async admit() {
        const provider = await ready();
        return provider.ok ? null : provider.refusal;
      },
      async settle(exchanged: Exchanged) {
        const provider = await ready();
        if (!provider.ok) return;
        const relayed: RelayedCharge = exchanged.ok
          ? { answered: true, status: exchanged.answer.status, body: exchanged.answer.body }
          : { answered: false, refusal: exchanged.refusal.code };
        await provider.after(relayed);
      },
    } satisfies ChargeStep<Exchanged>,
    outgoing: (body: unknown) => (step?.ok ? step.outgoing(body) : body),
  };
}

/**
 * Asks the product API for the result an unknown attempt's POST was answered with (its polling
 * id), and records it: an attempt that may have charged is reconciled before another is sent.
 */
function reconcilerOf(visit: CallVisit, portal?: PortalFetch) {
  return async function reconcile(ref: LedgerRef, pollingId: string) {
    const call = API_CALLS.pollingResult;
    const path = apiPath(call.path, { pollingId });
    const sent = await sendToPortal(
      visit,
      { name: 'pollingResult', call, path, body: null, bearer: null, idempotencyKey: null },
      portal,
    );
    if (!sent.ok || sent.outcome.kind !== 'answered') return;
    let body: unknown = null;
    try {
      body = JSON.parse(sent.outcome.text);
    } catch {
      return;
    }
    const answer: Exchanged = { ok: true, answer: { status: sent.outcome.status, body } };
    const steps = settledSteps(visit.env, ref, { id: visit.requestId, call: 'pollingResult' });
    const result = classifyOf('pollingResult')(answer);
    await steps.ledger.settle?.(answer, result);
    await steps.governor.settle?.(answer, result);
  };
}

/**
 * Asks the product API to close the attempt `ref` names, under its own Idempotency-Key and the
 * visitor's token (shared/api/attempt-close.ts); closed, the ledger and the governor keep it
 * unpaid. Anything but a readable answer is 'unknown': the attempt stays as it was.
 */
function closerOf(
  visit: CallVisit,
  refOf: () => Promise<LedgerRef>,
  sending: { bearer: string | null; portal?: PortalFetch },
) {
  return async function closeAttempt(): Promise<CloseAnswer> {
    if (sending.bearer === null) return 'unknown';
    const ref = await refOf();
    const sent = await sendToPortal(
      visit,
      {
        name: 'attemptClose',
        call: ATTEMPT_CLOSE_CALL,
        path: ATTEMPT_CLOSE_CALL.path,
        body: null,
        bearer: sending.bearer,
        idempotencyKey: ref.attempt,
      },
      sending.portal,
    );
    if (!sent.ok || sent.outcome.kind !== 'answered' || sent.outcome.status !== 200) {
      return 'unknown';
    }
    let parsed: ReturnType<typeof AttemptCloseResponse.safeParse>;
    try {
      parsed = AttemptCloseResponse.safeParse(JSON.parse(sent.outcome.text));
    } catch {
      return 'unknown';
    }
    if (!parsed.success) return 'unknown';
    if (!parsed.data.data.closed) return 'charged';
    await settleClosedUnpaid(visit.env, ref, { id: visit.requestId, call: 'attemptClose' });
    return 'closed';
  };
}

/** The resent attempt of a charge POST and its close (../provider-routing/stuck-attempt.ts). */
function stuckAttemptOf(
  visit: CallVisit,
  refOf: () => Promise<LedgerRef>,
  sending: { bearer: string | null; portal?: PortalFetch },
): StuckAttemptPort {
  return {
    async kept() {
      try {
        const attempt = await keptAttempt(visit.env, await refOf());
        // The ledger stamps an attempt with the worker's own clock (charge-guard.ts).
        return attempt && { ...attempt, waitedMs: Date.now() - attempt.at };
      } catch {
        // Unread, the attempt is not closed here: the ledger's own step refuses or lets it on.
        return null;
      }
    },
    close: closerOf(visit, refOf, sending),
  };
}

/** The ledger's and the governor's steps: a charge's own, or a polling result's from its POST. */
async function guardOf(
  visit: CallVisit,
  name: ApiCallName,
  charge: ChargeOfCall,
  portal?: PortalFetch,
) {
  if (isChargeCall(name)) {
    const payer = (await visit.signedInUser()) ?? visit.visitorId;
    return guardSteps({
      env: visit.env,
      requestId: visit.requestId,
      call: name,
      purchase: await purchaseKey(payer, charge.order.planId ?? 'none'),
      payer,
      attempt: charge.attempt,
      fingerprint: charge.card,
      testCard: charge.testCard,
      provider: providerOf(name),
      network: charge.network,
      initiator: 'customer',
      reconcile: reconcilerOf(visit, portal),
    });
  }
  const ref = charge.polled?.ledger ?? null;
  const log = { id: visit.requestId, call: name };
  return { ...(ref ? settledSteps(visit.env, ref, log) : { ledger: {}, governor: {} }), ref };
}

type Guard = Awaited<ReturnType<typeof guardOf>>;

/** A step whose adapter is made when the pipeline first comes to it. */
function stepWhenMade(made: () => Promise<ChargeStep<Exchanged>>): ChargeStep<Exchanged> {
  return {
    admit: async () => (await made()).admit?.() ?? null,
    withdraw: async () => (await made()).withdraw?.(),
    settle: async (exchanged, result) => (await made()).settle?.(exchanged, result),
  };
}

/**
 * The checkout's steps for a charge POST or a polling result. A charge, priced from the
 * catalogue by its caller, goes out with its purchase id and its provider (docs/payments.md,
 * docs/product-api.md).
 */
export async function checkoutCharge(
  visit: CallVisit,
  name: ApiCallName,
  charge: ChargeOfCall,
  deps: {
    now: () => number;
    portalFetch?: PortalFetch;
    bearer?: string | null;
    afterCharge: AfterCharge;
  },
): Promise<CheckoutCharge> {
  const { afterCharge } = deps;
  // Made when a step first needs it (the provider's look at a stuck attempt, or the ledger's
  // admission): a charge the limits refuse costs no key, and the ledger is read in its turn.
  let made: Guard | undefined;
  let making: Promise<Guard> | undefined;
  const guard = () =>
    (making ??= guardOf(visit, name, charge, deps.portalFetch).then((kept) => (made = kept)));
  const sending = { bearer: deps.bearer ?? null, portal: deps.portalFetch };
  const stuck = isChargeCall(name)
    ? stuckAttemptOf(visit, async () => (await guard()).ref as LedgerRef, sending)
    : undefined;
  const provider = providerStepOf(visit, name, deps.now(), stuck);
  const purchaseId = () => (made && 'purchaseId' in made ? made.purchaseId() : null);
  let reply: ChargeReply | null = null;
  const steps: ChargeSteps<Exchanged> = {
    limits: limitsStep(visit, name, charge),
    provider: provider.step,
    ledger: stepWhenMade(async () => (await guard()).ledger),
    governor: stepWhenMade(async () => (await guard()).governor),
    log: {
      async settle(exchanged) {
        if (exchanged.ok) afterCharge.note(visit, name, exchanged.answer);
      },
    },
    record: {
      async settle(exchanged) {
        if (!exchanged.ok) return;
        const { attempt, card, polled, order } = charge;
        const ledger = made && 'purchaseId' in made ? made.ref : null;
        const request = { attempt, card, polled, ...order, ledger };
        reply = await afterCharge.answer(visit, name, exchanged.answer, request, deps.now);
      },
    },
  };
  return {
    steps,
    classify: classifyOf(name),
    outgoing: (body) =>
      provider.outgoing(withPurchaseId(body as SubscriptionRequest, purchaseId())),
    reply: () => reply,
  };
}
