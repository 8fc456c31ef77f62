import { parseIdempotencyKey, type SubscriptionRequest } from '../shared/api/contract';
import { type Plan, type PlanId, planById } from '../shared/plans/catalogue';
import {
  type Authentication,
  type ChargeDecision,
  decideCharge,
  firstChargeOf,
  validationAmountOf,
} from './gateway';
import { PortalError } from './portal-error';
import { isAttemptClosedError } from './store/closed-attempts';
import { insertRenewalConsentStatement } from './store/renewal-consents';
import {
  findChargedPurchase,
  findPaymentMethodOnFile,
  findSubscription,
  findSubscriptionByIdempotencyKey,
  insertSubscriptionStatement,
  isIdempotencyKeyTakenError,
  type StoredSubscription,
  type SubscriptionStatus,
  settleSubscription,
} from './store/subscriptions';
import {
  findTestPaymentIntent,
  insertTestPaymentIntentStatement,
} from './store/test-payment-intents';
import { findTestPaymentMethod, type TestPaymentMethod } from './store/test-payment-methods';
import {
  intentSecretOf,
  isTestGatewayCharge,
  newPaymentIntentId,
} from './test-gateway/payment-ids';
import type { CardBehaviour } from './test-gateway/test-cards';
import { prefixedId } from './tokens';

export interface ChargeRequest {
  userId: string;
  /** A plan of the catalogue: what it costs is the catalogue's to say (portal/gateway.ts). */
  planId: PlanId;
  request: SubscriptionRequest;
  /** The client's Idempotency-Key header, when it sent one. */
  idempotencyKey: string | null;
}

/**
 * How a card that needs 3-D Secure is handled (SPEC.md §4): the card gateway's polling call
 * answers `requires_action` with a payment intent to confirm, then takes the repeated call with
 * the intent id; the alternate gateway's direct call refuses with 'User action required' until
 * the nonce has been verified.
 */
export type ThreeDSecureFlow = 'payment_intent' | 'verified_nonce';

export interface Charge {
  subscription: StoredSubscription;
  /** The payment intent secret of a `requires_action` charge, else null. */
  intentSecret: string | null;
  /** True when the Idempotency-Key had been used before: the first charge, nothing new. */
  replayedKey: boolean;
  /** The test gateway's card charged (brand and last four), as the answer names it; else null. */
  card: ChargedCard | null;
}

export type ChargedCard = Pick<TestPaymentMethod, 'brand' | 'last4'>;

/** The card a charge names: only the test gateway's own cards are known to the emulator. */
function chargedCardOf(method: TestPaymentMethod | null): ChargedCard | null {
  return method ? { brand: method.brand, last4: method.last4 } : null;
}

/** Rows written with a charge (its polling result), in the same batch as the charge's own. */
export type AlsoWrite = (charge: Omit<Charge, 'replayedKey'>) => D1PreparedStatement[];

/**
 * The currency and price id the request names (SPEC.md §7, ours), null where it names none. A
 * product API charges a price in its plan's currency only: a request that says otherwise is a
 * client's mistake (or a forgery), refused, never charged in the plan's money.
 */
function chargedCurrencyOf(plan: Plan, request: SubscriptionRequest) {
  if (request.currency && request.currency !== plan.currency) {
    throw new PortalError(422, 'currency_mismatch', `Plan ${plan.id} is sold in ${plan.currency}`);
  }
  return { currency: request.currency ?? null, priceId: request.price_id ?? null };
}

/**
 * Charges a subscription at most once (no double charge):
 * - per Idempotency-Key: a repeated POST (a retry after a timeout, a double click) answers the
 *   first charge instead of charging the card again;
 * - per payment intent: the repeated call with `payment_intent_id` (SPEC.md §4 Payment step 4)
 *   settles the subscription that waited for 3-D Secure exactly once, whatever key it carries.
 * `alsoWrite` adds rows that must exist exactly when the charge does (the polling result).
 */
export async function chargeOnce(
  db: D1Database,
  charge: ChargeRequest,
  flow: ThreeDSecureFlow,
  alsoWrite: AlsoWrite = () => [],
): Promise<Charge> {
  const settling = charge.request.payment_intent_id;
  if (settling) return settleIntent(db, charge, settling, alsoWrite);

  const earlier = await earlierCharge(db, charge);
  if (earlier) return earlier;
  const paid = await chargedPurchase(db, charge, alsoWrite);
  if (paid) return paid;

  const plan = planById(charge.planId);
  const { currency, priceId } = chargedCurrencyOf(plan, charge.request);
  const method = await paymentMethodOf(db, charge);
  // The plan's own price, never the client's `user_data.price`: a forged one would set the amount.
  const price = firstChargeOf(plan, charge.request.coupon);
  const decision = decideCharge(
    method.behaviour,
    authenticationOf(method.test, flow),
    // The provider the worker names (docs/product-api.md `payment_provider`), else the route's.
    charge.request.payment_provider ?? (flow === 'verified_nonce' ? 'braintree' : 'stripe'),
  );
  if (decision.kind === 'requires_authentication' && flow === 'verified_nonce') {
    throw new PortalError(422, 'user_action_required', 'User action required', {
      payment_method_nonce: method.nonce,
      validation_amount: validationAmountOf(price),
    });
  }
  const now = new Date().toISOString();
  const intentId = decision.kind === 'requires_authentication' ? newPaymentIntentId() : null;
  const subscription: StoredSubscription = {
    id: prefixedId('sub'),
    planId: charge.planId,
    gateway: charge.request.gateway,
    status: STATUS_OF[decision.kind],
    priceWithDiscount: price,
    coupon: charge.request.coupon ?? null,
    eventId: decision.kind === 'charged' ? prefixedId('evt') : null,
    declineCode: decision.kind === 'declined' ? decision.declineCode : null,
    processorResponse: decision.kind === 'declined' ? decision.processorResponse : null,
    paymentMethod: method.nonce,
    paymentIntentId: intentId,
    currency,
    priceId,
    purchaseId: charge.request.purchase_id ?? null,
  };
  const intentSecret = intentId ? intentSecretOf(intentId) : null;
  const card = chargedCardOf(method.test);
  const writes = chargeStatements(db, charge, { subscription, method, intentSecret, now });
  try {
    await db.batch([...writes, ...alsoWrite({ subscription, intentSecret, card })]);
  } catch (error) {
    // A concurrent request with the same key won the insert: answer its charge.
    const winner = isIdempotencyKeyTakenError(error) ? await earlierCharge(db, charge) : null;
    if (winner) return winner;
    // The worker closed this attempt unpaid (routes/subscriptions.ts): it must stay so.
    if (isAttemptClosedError(error)) {
      throw new PortalError(422, 'attempt_closed', 'This charge attempt was closed unpaid.');
    }
    throw error;
  }
  return { subscription, intentSecret, replayedKey: false, card };
}

/** The rows of a new charge: its subscription, the renewal consent it carries, its waiting intent. */
function chargeStatements(
  db: D1Database,
  charge: ChargeRequest,
  {
    subscription,
    method,
    intentSecret,
    now,
  }: {
    subscription: StoredSubscription;
    method: { nonce: string };
    intentSecret: string | null;
    now: string;
  },
): D1PreparedStatement[] {
  const intentId = subscription.paymentIntentId;
  const writes = [
    insertSubscriptionStatement(db, {
      ...subscription,
      userId: charge.userId,
      idempotencyKey: charge.idempotencyKey,
      createdAt: now,
    }),
  ];
  const consent = charge.request.renewal_consent;
  if (consent) writes.push(insertRenewalConsentStatement(db, subscription.id, consent, now));
  if (intentId && intentSecret) {
    writes.push(
      insertTestPaymentIntentStatement(db, {
        id: intentId,
        secret: intentSecret,
        purpose: 'payment',
        paymentMethodId: method.nonce,
        userId: charge.userId,
        planId: charge.planId,
        subscriptionId: subscription.id,
        status: 'requires_action',
        createdAt: now,
      }),
    );
  }
  return writes;
}

/**
 * The repeated call after 3-D Secure: decides the waiting subscription from the challenge's
 * outcome, once. A repeat of it answers the same decision and charges nothing; an intent never
 * authenticated (challenge closed or failed) declines with 'authentication_required'.
 */
async function settleIntent(
  db: D1Database,
  charge: ChargeRequest,
  intentId: string,
  alsoWrite: AlsoWrite,
): Promise<Charge> {
  const intent = await findTestPaymentIntent(db, intentId);
  if (intent?.purpose !== 'payment' || intent.userId !== charge.userId) {
    throw new PortalError(404, 'not_found', 'This payment intent is not known.');
  }
  if (intent.planId !== charge.planId || !intent.subscriptionId) {
    throw new PortalError(
      422,
      'idempotency_conflict',
      'This payment intent belongs to another plan.',
    );
  }
  let subscription = await findSubscription(db, intent.subscriptionId);
  const method = await findTestPaymentMethod(db, intent.paymentMethodId);
  if (!subscription || !method) throw new Error(`payment intent ${intent.id} lost its rows`);
  if (subscription.status === 'requires_action') {
    const authentication: Authentication =
      intent.status === 'requires_action' ? 'pending' : intent.status;
    const decision = decideCharge(method.behaviour, authentication);
    const settled = await settleSubscription(db, subscription.id, {
      status: decision.kind === 'charged' ? 'active' : 'declined',
      eventId: decision.kind === 'charged' ? prefixedId('evt') : null,
      declineCode: decision.kind === 'declined' ? decision.declineCode : null,
      processorResponse: decision.kind === 'declined' ? decision.processorResponse : null,
    });
    // Null: a concurrent repeat settled it first; its decision is the one that stands.
    subscription = settled ?? (await findSubscription(db, subscription.id)) ?? subscription;
  }
  const settledCharge = { subscription, intentSecret: null, card: chargedCardOf(method) };
  const writes = alsoWrite(settledCharge);
  if (writes.length) await db.batch(writes);
  return { ...settledCharge, replayedKey: false };
}

/**
 * The purchase's subscription when one of its attempts already charged (the request's
 * `purchase_id`, docs/product-api.md): answered with the rows a new charge would write (its
 * polling result), and nothing is charged. The subscription is created once, whichever attempt
 * won. A plan other than the one charged is a conflict, as for a reused key.
 */
async function chargedPurchase(
  db: D1Database,
  charge: ChargeRequest,
  alsoWrite: AlsoWrite,
): Promise<Charge | null> {
  const purchaseId = charge.request.purchase_id;
  if (!purchaseId) return null;
  const subscription = await findChargedPurchase(db, charge.userId, purchaseId);
  if (!subscription) return null;
  if (subscription.planId !== charge.planId) throw idempotencyConflict();
  const method =
    subscription.paymentMethod && isTestGatewayCharge(subscription.paymentMethod)
      ? await findTestPaymentMethod(db, subscription.paymentMethod)
      : null;
  const paid = { subscription, intentSecret: null, card: chargedCardOf(method) };
  const writes = alsoWrite(paid);
  if (writes.length) await db.batch(writes);
  return { ...paid, replayedKey: false };
}

async function earlierCharge(db: D1Database, charge: ChargeRequest): Promise<Charge | null> {
  if (charge.idempotencyKey === null) return null;
  const subscription = await findSubscriptionByIdempotencyKey(
    db,
    charge.userId,
    charge.idempotencyKey,
  );
  if (!subscription) return null;
  if (subscription.planId !== charge.planId) throw idempotencyConflict();
  const intent = subscription.paymentIntentId
    ? await findTestPaymentIntent(db, subscription.paymentIntentId)
    : null;
  const method =
    subscription.paymentMethod && isTestGatewayCharge(subscription.paymentMethod)
      ? await findTestPaymentMethod(db, subscription.paymentMethod)
      : null;
  return {
    subscription,
    intentSecret: intent?.secret ?? null,
    replayedKey: true,
    card: chargedCardOf(method),
  };
}

const STATUS_OF = {
  charged: 'active',
  declined: 'declined',
  requires_authentication: 'requires_action',
} as const satisfies Record<ChargeDecision['kind'], SubscriptionStatus>;

interface ChargedMethod {
  nonce: string;
  behaviour: CardBehaviour;
  /** The test gateway's card, when the nonce is one of its (`tpm_…`). */
  test: TestPaymentMethod | null;
}

/**
 * The nonce the request names, or, for a one-click upsell without one, the payment
 * method of the user's last charged subscription. Another gateway's nonce behaves as a card that
 * succeeds; the test gateway's carries its card's behaviour.
 */
async function paymentMethodOf(db: D1Database, charge: ChargeRequest): Promise<ChargedMethod> {
  const nonce =
    charge.request.payment_method_nonce || (await findPaymentMethodOnFile(db, charge.userId));
  if (!nonce) throw new PortalError(422, 'no_payment_method', 'No payment method on file.');
  if (!isTestGatewayCharge(nonce)) {
    return { nonce, behaviour: 'succeeds', test: null };
  }
  const test = await findTestPaymentMethod(db, nonce);
  if (!test) {
    throw new PortalError(422, 'unknown_payment_method', 'This payment method is not known.');
  }
  return { nonce, behaviour: test.behaviour, test };
}

/** A first charge has had no challenge, unless its nonce went through Braintree-style verify. */
function authenticationOf(test: TestPaymentMethod | null, flow: ThreeDSecureFlow): Authentication {
  // A verification started and not finished is no verification: 'User action required' again.
  if (flow === 'payment_intent' || !test?.verification) return 'none';
  return test.verification === 'requires_action' ? 'none' : test.verification;
}

/** A key reused for a different request is the client's bug; charging either way would be wrong. */
export function idempotencyConflict(): PortalError {
  return new PortalError(
    422,
    'idempotency_conflict',
    'The Idempotency-Key was already used for another request.',
  );
}

/**
 * The Idempotency-Key header of a call that cannot be made safely without one (the contract
 * page's declarations and link asks): a missing one throws 400 too.
 */
export function requiredIdempotencyKey(header: string | undefined): string {
  const key = idempotencyKeyOrRefuse(header);
  if (key === null) {
    throw new PortalError(400, 'invalid_body', 'An Idempotency-Key header is required.');
  }
  return key;
}

/** The Idempotency-Key header by the contract's rule, or null; a malformed one throws 400. */
export function idempotencyKeyOrRefuse(header: string | undefined): string | null {
  const parsed = parseIdempotencyKey(header);
  if (parsed.ok) return parsed.key;
  throw new PortalError(
    400,
    'invalid_body',
    'The Idempotency-Key header must be 1 to 255 printable characters.',
  );
}
