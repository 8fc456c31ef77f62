import type { LifecycleEventBody, LifecycleEventType } from '../shared/api/lifecycle';
import type { Currency } from '../shared/plans/currency';
import { toMinorUnits } from '../shared/plans/money';
import { type EventOptions, lifecycleEventOf } from './lifecycle-event';
import { renewalTermsFor } from './save-offers';
import { findRenewalDue, markDuePaid, recordRenewalDue } from './store/renewal-dues';
import { cancelSubscription, markChargedBackStatement } from './store/subscriber-actions';
import {
  insertPaymentStatement,
  listPayments,
  type SubscriptionPayment,
  totalsOf,
} from './store/subscription-payments';
import type { StoredSubscription } from './store/subscriptions';

/**
 * What the emulated product API keeps of a lifecycle event it is about to send
 * (`npm run portal -- renew | refund | chargeback | cancel | renewal-failed`, scripts/portal.ts),
 * as a real one has it on its books before it tells anyone: a renewal's, refund's or chargeback's
 * payment row (its id the event's), a renewal that pays an open due as that due's recovery, a
 * cancellation's or a failed renewal's state (its due: the amount the event names). Money back
 * beyond what was paid is refused, as a provider refuses it.
 */

export type Kept = { ok: true; body: LifecycleEventBody } | { ok: false; error: string };

/**
 * A new event of `type` for `subscription`, built as the product API builds it (lifecycle-event.ts)
 * and kept on its books: the body to send, or why the subscription cannot have it. A renewal,
 * failed or not, takes the subscription's renewal terms (portal/save-offers.ts): its coupon, a
 * save offer's discount while it has renewals left, a switch's plan, no renewal in a pause.
 */
export async function newLifecycleEvent(
  db: D1Database,
  subscription: Pick<
    StoredSubscription,
    'id' | 'planId' | 'status' | 'priceWithDiscount' | 'coupon'
  >,
  type: LifecycleEventType,
  options: EventOptions,
): Promise<Kept> {
  const renews = type === 'renewal' || type === 'renewal_failed';
  const renewal = renews ? await renewalTermsFor(db, subscription) : undefined;
  const built = lifecycleEventOf(subscription, type, { ...options, renewal });
  return built.ok ? keepLifecycleEvent(db, subscription, built.body) : built;
}

/** Keeps `body`'s event for `subscription`; answers the body to send (with its try), or why not. */
export async function keepLifecycleEvent(
  db: D1Database,
  subscription: Pick<StoredSubscription, 'id' | 'planId' | 'coupon'>,
  body: LifecycleEventBody,
): Promise<Kept> {
  const at = body.occurred_at;
  switch (body.type) {
    case 'cancellation':
      await cancelSubscription(db, subscription.id, at);
      return { ok: true, body };
    case 'renewal_failed':
      // What the event says is due is what the recovery link's page asks for: one price.
      await recordRenewalDue(db, {
        subscriptionId: subscription.id,
        amount: body.amount ?? 0,
        currency: body.currency ?? '',
        at,
      });
      return { ok: true, body };
    case 'renewal':
      return keepRenewal(db, subscription.id, body);
    case 'refund':
    case 'chargeback':
      return keepMoneyBack(db, subscription.id, body);
  }
}

function paymentOf(
  subscriptionId: string,
  body: LifecycleEventBody,
  kind: SubscriptionPayment['kind'],
  attempt: number | null,
): SubscriptionPayment {
  const currency = body.currency ?? '';
  return {
    id: body.id,
    subscriptionId,
    kind,
    amountMinor: toMinorUnits(body.amount ?? 0, currency as Currency),
    currency,
    attempt,
    cardBrand: body.card_brand ?? null,
    occurredAt: body.occurred_at,
  };
}

/** A renewal: the open due's recovery (the second try), else the period's first try. */
async function keepRenewal(db: D1Database, subscriptionId: string, body: LifecycleEventBody) {
  const due = await findRenewalDue(db, subscriptionId);
  if (due && due.paidAt === null) {
    const payment = paymentOf(subscriptionId, body, 'recovery', 2);
    const paid = { at: body.occurred_at, idempotencyKey: null, paymentMethod: 'renewal' };
    if (await markDuePaid(db, subscriptionId, paid, payment)) {
      return { ok: true as const, body: { ...body, attempt_count: 2 } };
    }
  }
  await insertPaymentStatement(db, paymentOf(subscriptionId, body, 'renewal', 1)).run();
  return { ok: true as const, body: { ...body, attempt_count: 1 } };
}

/** A refund or chargeback, within what the subscription's payments took. */
async function keepMoneyBack(db: D1Database, subscriptionId: string, body: LifecycleEventBody) {
  const kind = body.type === 'refund' ? 'refund' : 'chargeback';
  const payment = paymentOf(subscriptionId, body, kind, null);
  const { chargedMinor, returnedMinor } = totalsOf(await listPayments(db, subscriptionId));
  if (returnedMinor + payment.amountMinor > chargedMinor) {
    return {
      ok: false as const,
      error: `a ${kind} of ${payment.amountMinor} would give back more than the ${chargedMinor - returnedMinor} left of what ${subscriptionId} paid (minor units of ${payment.currency})`,
    };
  }
  const writes = [insertPaymentStatement(db, payment)];
  if (kind === 'chargeback')
    writes.push(markChargedBackStatement(db, subscriptionId, body.occurred_at));
  await db.batch(writes);
  return { ok: true as const, body };
}
