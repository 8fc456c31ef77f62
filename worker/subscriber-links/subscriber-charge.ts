import type { PayDueCall } from '../../shared/api/subscriber-calls';
import type { ChargeProvider, ChargeReading } from '../../shared/charge-outcome';
import { declineClassOf } from '../../shared/decline-class';
import { logLine } from '../../shared/log';
import {
  type ChargeResult,
  type ChargeStepWatch,
  type ChargeWay,
  NO_CHARGE_RESULT,
  runCharge,
} from '../charge-pipeline/charge-pipeline';
import {
  type CardFingerprintSource,
  type CardIdentity,
  chargeAttemptOf,
} from '../checkout/charge-call';
import type { ApiRefusal } from '../http/api-json';
import { recordProviderCall } from '../provider-health/provider-health';
import { guardSteps } from '../purchase-ledger/charge-guard';
import { declineNews, purchaseKey } from '../purchase-ledger/ledger';
import {
  DECLINE_RULES,
  limitRefusal,
  type RateAsker,
  recordDecline,
} from '../rate-limits/rate-limit-gate';
import { afterAnswer, type RunsInRequest } from '../request/after-answer';
import type { SubscriberEnv } from '../request/envs';
import type { SubscriberLink } from './link-token';
import type { SubscriberFacts } from './page-facts';
import type { SubscriberCallResult } from './subscriber-portal';

/**
 * The subscriber page's card posts through the charge pipeline (worker/charge-pipeline/,
 * docs/payments.md "One charge pipeline"): a recovery link's Pay (what a failed renewal left
 * due) and a manage link's Update card take any card, so a bought subscription's link would
 * otherwise be an open card form for running stolen numbers through. Each post passes the
 * checkout's own steps:
 * - `limits`: the checkout's decline limits (worker/rate-limits/rate-limit-gate.ts DECLINE_RULES), per
 *   address and per card, shared with the checkout, so moving from one form to the other gains a
 *   card tester nothing; and per subscription where the checkout counts per visitor, since the
 *   page has no visitor and a link can be opened from any browser. A decline is counted under the
 *   key the worker sends the product API (the link and the card), never under a header the
 *   browser chose;
 * - `provider`: the answer counts toward its provider's health;
 * - `ledger`: one ledger per due, named by the subscription and the due the product API's read
 *   names (whichever link pays it: the recovery link, or the manage link's Pay or its Pay now
 *   with the card just saved), or per card update, so neither a second press nor a second link
 *   ever pays one due twice;
 * - `governor`: the networks' retry rules for the card;
 * - `log` and `record`: the charge's log line, and what the caller keeps of a success.
 */

/** A card post's request, once its link was checked. */
export interface SubscriberCardPost {
  /** The handler's context, for work after the answer is sent. */
  runs: RunsInRequest;
  env: SubscriberEnv['Bindings'];
  facts: SubscriberFacts;
  request: Request;
  link: SubscriberLink;
}

/** What a success leaves behind, as the route keeps it (a due paid marks its link done). */
export type RecordSuccess<T> = (value: T) => Promise<void>;

/** The way a link's card post moves money, and the product API's name of its call. */
const CALLS = { pay_due: 'payDue', card_update: 'cardUpdate' } as const;

/** The card provider a page's `gateway` names; the test gateway stands in for Stripe. */
const providerOf = (gateway: string): ChargeProvider =>
  gateway === 'braintree' ? 'braintree' : 'stripe';

/** The subscription, in the limits' payer slot: a link has no visitor of its own. */
function askerOf({ env, facts, request, link }: SubscriberCardPost): RateAsker {
  return {
    env,
    visitorId: `subscription:${link.subscriptionId}`,
    connectingIp: request.headers.get('cf-connecting-ip') ?? undefined,
    requestId: facts.requestId,
    note: facts.note,
  };
}

const read = (outcome: ChargeReading['outcome']): ChargeReading => ({ outcome, advised: false });

/** What a subscriber call's result came to, as every step after the product API reads it. */
function classify<T extends { status: string }>(result: SubscriberCallResult<T>): ChargeResult {
  if (result.ok) {
    const challenged = result.value.status === 'requires_action';
    return {
      ...NO_CHARGE_RESULT,
      reading: read(challenged ? 'AUTH_REQUIRED' : 'APPROVED'),
      challenged,
    };
  }
  if (result.reason === 'refused' && (result.declineCode || result.code === 'payment_declined')) {
    const news = declineNews(result.declineCode, null, { responseCode: null, adviceCode: null });
    return {
      ...NO_CHARGE_RESULT,
      reading: news.reading,
      declineCode: result.declineCode,
      declineClass: declineClassOf({ declineCode: result.declineCode }),
    };
  }
  // No answer or a 5xx may have charged; any other refusal was made before a charge.
  const outcome = result.reason === 'unavailable' ? 'TECH_UNKNOWN' : 'TECH_NOT_SENT';
  return { ...NO_CHARGE_RESULT, reading: read(outcome) };
}

/** The nonce of the card a post names; null for the card on file. */
const nonceOfCall = (payment: PayDueCall): string | null =>
  'card_on_file' in payment ? null : payment.payment_method_nonce;

/**
 * The attempt ledger's purchase for a post: a due's is named by the due the product API's read
 * names (else the subscription's one open due), so every link and way that pays it shares one
 * ledger; a card update's is its attempt's own.
 */
function ledgerPurchaseOf(
  payer: string,
  charge: { way: ChargeWay; due?: { dueId: string | null } },
  attemptId: string,
): Promise<string> {
  return purchaseKey(
    payer,
    charge.way === 'pay_due' ? `due:${charge.due?.dueId ?? 'open'}` : attemptId,
  );
}

/**
 * The ledger and governor steps of a link's post (worker/purchase-ledger/charge-guard.ts): the
 * subscription is the payer, the card as its fingerprint names it, every attempt the customer's.
 */
async function linkGuard(
  post: SubscriberCardPost,
  charge: {
    way: Extract<ChargeWay, 'pay_due' | 'card_update'>;
    payment: PayDueCall;
    due?: { dueId: string | null };
  },
  attemptId: string,
  identity: CardIdentity | null,
) {
  const payer = `subscription:${post.link.subscriptionId}`;
  return guardSteps({
    env: post.env,
    requestId: post.facts.requestId,
    call: CALLS[charge.way],
    purchase: await ledgerPurchaseOf(payer, charge, attemptId),
    payer,
    attempt: attemptId,
    fingerprint: identity?.fingerprint ?? null,
    testCard: identity?.testCard ?? false,
    provider: providerOf(charge.payment.gateway),
    network: identity?.network ?? 'unknown',
    initiator: 'customer',
  });
}

/**
 * Runs a link's card post through the charge pipeline: `send` asks the product API with the
 * worker's own Idempotency-Key for the attempt (the link and the card: a second press of one card
 * is one request, another card another; the card on file is a card of its own). A refusal of a
 * step is answered as the page's JSON. `due` names the due a `pay_due` pays (./pay-due-route.ts,
 * from the product API's read), so its ledger is the same whichever link pays it.
 */
export async function chargeFromLink<T extends { status: string }>(
  post: SubscriberCardPost,
  charge: {
    way: Extract<ChargeWay, 'pay_due' | 'card_update'>;
    payment: PayDueCall;
    due?: { dueId: string | null };
    fingerprint: CardFingerprintSource | undefined;
    now: number;
    watch?: ChargeStepWatch;
  },
  send: (key: string) => Promise<SubscriberCallResult<T>>,
  recordSuccess: RecordSuccess<T>,
): Promise<{ refused: ApiRefusal } | { result: SubscriberCallResult<T> }> {
  const { env, facts, link } = post;
  const { way, payment } = charge;
  const call = CALLS[way];
  const nonce = nonceOfCall(payment);
  const attempt = await chargeAttemptOf(facts.requestId, `${call}:${link.linkId}`, nonce);
  const identity = charge.fingerprint && nonce ? await charge.fingerprint(nonce, env) : null;
  const card = identity?.fingerprint ?? null;
  const asker = askerOf(post);
  const provider = providerOf(payment.gateway);
  const guard = await linkGuard(post, charge, attempt.id, identity);
  const run = await runCharge<SubscriberCallResult<T>, SubscriberCallResult<T>>(
    {
      limits: {
        admit: () => limitRefusal(asker, 'subscriberCard', DECLINE_RULES, { phone: null, card }),
        async settle(_result, classified) {
          if (classified.declineClass !== null) await recordDecline(asker, attempt.id, card);
        },
      },
      provider: {
        async settle(result, classified) {
          if (!result.ok && result.reason !== 'unavailable' && classified.declineClass === null) {
            return;
          }
          const sample = { failed: !result.ok && result.reason === 'unavailable', source: call };
          const request = { now: charge.now, requestId: facts.requestId };
          afterAnswer(post.runs, recordProviderCall(env, provider, sample, request));
        },
      },
      ledger: guard.ledger,
      governor: guard.governor,
      log: {
        async settle(_result, classified) {
          logLine({
            event: 'charge',
            id: facts.requestId,
            way,
            attempt: attempt.id,
            provider,
            outcome: classified.reading?.outcome ?? null,
            decline_class: classified.declineClass,
          });
        },
      },
      record: {
        async settle(result) {
          if (result.ok) await recordSuccess(result.value);
        },
      },
    },
    classify,
    () => send(attempt.key ?? attempt.id),
    charge.watch,
  );
  return run.ok ? { result: run.answer } : { refused: run.refusal };
}
