import type { PayDueAnswer, PayDueCall } from '../shared/api/subscriber-calls';
import { isPlanId, planById } from '../shared/plans/catalogue';
import { couponByCode } from '../shared/plans/coupons';
import type { Currency } from '../shared/plans/currency';
import { toMajorUnits, toMinorUnits } from '../shared/plans/money';
import { addUtcMonths, renewalAmount } from '../shared/plans/renewal';
import { type Authentication, decideCharge } from './gateway';
import { PortalError } from './portal-error';
import {
  awaitDueChallenge,
  findRenewalDue,
  markDuePaid,
  type RenewalDue,
  recordRenewalDue,
} from './store/renewal-dues';
import type { SubscriberRow } from './store/subscriber-actions';
import type { SubscriptionPayment } from './store/subscription-payments';
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
import { prefixedId } from './tokens';

/**
 * A failed renewal and its payment through the recovery link's page (docs/product-api.md
 * "Pay what is due"): the emulator's gateway decides the payment as it
 * decides a charge (portal/gateway.ts: the test cards, 3-D Secure by payment intent), and a due
 * is paid once, whatever is pressed twice.
 */

/**
 * Records that the renewal of `subscription` failed now, leaving its renewal price due (the
 * plan's recurring price less a coupon that keeps applying), for the tests that start from a
 * failed renewal. It knows no save offer: `npm run portal -- renewal-failed <subscription>`
 * records the due its event names, priced by the renewal terms after the save offers taken
 * (portal/lifecycle-record.ts, portal/renewal-terms.ts). Throws for a subscription that never
 * renews.
 */
export async function recordFailedRenewal(
  db: D1Database,
  subscription: { id: string; planId: string; coupon: string | null },
  at: Date,
): Promise<RenewalDue> {
  const plan = isPlanId(subscription.planId) ? planById(subscription.planId) : null;
  const minor = plan ? renewalAmount(plan, couponByCode(subscription.coupon)) : null;
  if (!plan || minor === null) {
    throw new Error(`subscription ${subscription.id} does not renew: nothing can be due`);
  }
  const due = {
    subscriptionId: subscription.id,
    amount: toMajorUnits(minor, plan.currency),
    currency: plan.currency,
    at: at.toISOString(),
  };
  await recordRenewalDue(db, due);
  return (await findRenewalDue(db, subscription.id)) as RenewalDue;
}

/** What a pay-due call came to: paid now (send the `renewal` event), or answered as before. */
export type PayDueOutcome =
  | { kind: 'paid'; answer: PayDueAnswer; due: RenewalDue; payment: SubscriptionPayment }
  | { kind: 'answered'; answer: PayDueAnswer };

/**
 * The next renewal of a subscription whose failed renewal was paid at `paidAt`: the paid period
 * starts at the payment, a whole period of the plan long, as Primer and FunnelFox move the cycle
 * after a successful retry (the subscriber gets every day they paid for; a renewal a week late
 * renews a month after it was paid, not three weeks after). Null for a plan that never renews.
 */
export function renewalAfterPaidDue(planId: string, paidAt: string): string | null {
  const plan = isPlanId(planId) ? planById(planId) : null;
  if (plan?.billing.kind !== 'recurring') return null;
  return new Date(addUtcMonths(Date.parse(paidAt), plan.billing.months)).toISOString();
}

function paidAnswer(due: RenewalDue, card: TestPaymentMethod | null, planId: string): PayDueAnswer {
  return {
    data: {
      status: 'succeeded',
      amount: due.amount,
      currency: due.currency,
      card_brand: card?.brand ?? null,
      card_last4: card?.last4 ?? null,
      payment_intent_secret: null,
      renews_at: due.paidAt === null ? null : renewalAfterPaidDue(planId, due.paidAt),
    },
  };
}

function nothingDue(): PortalError {
  return new PortalError(409, 'nothing_due', 'Nothing is due on this subscription.');
}

/** The due already paid: the same key answers its payment again; another key finds nothing due. */
async function paidBefore(db: D1Database, due: RenewalDue, key: string | null, planId: string) {
  if (key === null || due.idempotencyKey !== key) throw nothingDue();
  const card = due.paymentMethod ? await findTestPaymentMethod(db, due.paymentMethod) : null;
  return { kind: 'answered' as const, answer: paidAnswer(due, card, planId) };
}

/**
 * The card a subscriber's call names (a pay-due, a card update; or the card on file, for a
 * pay-due that asks for it), and how far its 3-D Secure got: `waitingIntent` is the challenge
 * the call's payment or update waits on, the only one that may decide it.
 */
export async function cardOf(
  db: D1Database,
  row: SubscriberRow,
  waitingIntent: string | null,
  request: PayDueCall,
): Promise<{ nonce: string; test: TestPaymentMethod | null; authentication: Authentication }> {
  if (request.payment_intent_id) {
    // Only the challenge this call waits on decides it: no other intent of the gateway's.
    const intent = await findTestPaymentIntent(db, request.payment_intent_id);
    if (!intent || intent.id !== waitingIntent || intent.subscriptionId !== row.id) {
      throw new PortalError(404, 'not_found', 'This payment intent is not known.');
    }
    const test = await findTestPaymentMethod(db, intent.paymentMethodId);
    const authentication = intent.status === 'requires_action' ? 'pending' : intent.status;
    return { nonce: intent.paymentMethodId, test, authentication };
  }
  const nonce = 'card_on_file' in request ? row.paymentMethod : request.payment_method_nonce;
  if (nonce === null) {
    throw new PortalError(422, 'no_payment_method', 'No payment method on file.');
  }
  if (!isTestGatewayCharge(nonce)) return { nonce, test: null, authentication: 'none' };
  const test = await findTestPaymentMethod(db, nonce);
  if (!test) {
    throw new PortalError(422, 'unknown_payment_method', 'This payment method is not known.');
  }
  return { nonce, test, authentication: 'none' };
}

/** A declined card as the direct charge answers it: 422 with the gateway's `decline_code`. */
export function declinedError(
  decision: Extract<ReturnType<typeof decideCharge>, { kind: 'declined' }>,
): PortalError {
  return new PortalError(
    422,
    'payment_declined',
    decision.processorResponse,
    undefined,
    decision.declineCode,
  );
}

/**
 * POST /subscriptions/{id}/pay-due: charges what the failed renewal left due, at most once. A
 * decline is 422 `payment_declined` with the gateway's `decline_code`; a card that needs 3-D
 * Secure answers `requires_action` with the challenge's secret, and the call repeated with its
 * `payment_intent_id` decides it. Once paid, the same Idempotency-Key answers that payment and
 * any other call finds nothing due (409).
 */
export async function payDue(
  db: D1Database,
  row: SubscriberRow,
  request: PayDueCall,
  idempotencyKey: string | null,
): Promise<PayDueOutcome> {
  const due = await findRenewalDue(db, row.id);
  if (!due) throw nothingDue();
  if (due.paidAt !== null) return paidBefore(db, due, idempotencyKey, row.planId);
  const card = await cardOf(db, row, due.paymentIntentId, request);
  const decision = decideCharge(card.test?.behaviour ?? 'succeeds', card.authentication);
  if (decision.kind === 'declined') throw declinedError(decision);
  if (decision.kind === 'requires_authentication') {
    const intentId = newPaymentIntentId();
    const secret = intentSecretOf(intentId);
    await insertTestPaymentIntentStatement(db, {
      id: intentId,
      secret,
      purpose: 'payment',
      paymentMethodId: card.nonce,
      userId: row.userId,
      planId: row.planId,
      subscriptionId: row.id,
      status: 'requires_action',
      createdAt: new Date().toISOString(),
    }).run();
    await awaitDueChallenge(db, row.id, intentId);
    const answer: PayDueAnswer = {
      data: {
        ...paidAnswer(due, null, row.planId).data,
        status: 'requires_action',
        payment_intent_secret: secret,
      },
    };
    return { kind: 'answered', answer };
  }
  const at = new Date().toISOString();
  const payment = recoveryOf(row.id, due, card.test, at);
  // The card that paid is the one the renewals use from now on: it is the card that works.
  const paid = await markDuePaid(
    db,
    row.id,
    { at, idempotencyKey, paymentMethod: card.nonce, keepCard: true },
    payment,
  );
  const after = (await findRenewalDue(db, row.id)) as RenewalDue;
  // Another call paid it a moment before: its payment stands; this one answers as a replay.
  if (!paid) return paidBefore(db, after, idempotencyKey, row.planId);
  return { kind: 'paid', answer: paidAnswer(after, card.test, row.planId), due: after, payment };
}

/**
 * The payment of a failed renewal's due: a recovery, on the second try of its period (the
 * renewal's own charge was the first), with the card's brand when the test gateway knows it.
 */
function recoveryOf(
  subscriptionId: string,
  due: RenewalDue,
  card: TestPaymentMethod | null,
  at: string,
): SubscriptionPayment {
  return {
    id: prefixedId('evt'),
    subscriptionId,
    kind: 'recovery',
    amountMinor: toMinorUnits(due.amount, due.currency as Currency),
    currency: due.currency,
    attempt: RECOVERY_ATTEMPT,
    cardBrand: card?.brand.toLowerCase() ?? null,
    occurredAt: at,
  };
}

/** The try a recovery is: the renewal's own charge failed on the first. */
const RECOVERY_ATTEMPT = 2;
