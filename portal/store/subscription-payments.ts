import { isPlanId, planById } from '../../shared/plans/catalogue';
import type { Currency } from '../../shared/plans/currency';
import { toMinorUnits } from '../../shared/plans/money';

/**
 * The `subscription_payments` table (migration 0013): each payment of a subscription after its
 * first charge, and each amount given back, one row each, never replaced; with the first charges
 * (the subscriptions' own rows), every payment the emulated product API took or gave back.
 */

/** What a payment was: the first charge, a renewal, a recovery of a failed one, or money back. */
export type PaymentKind = 'charge' | 'renewal' | 'recovery' | 'refund' | 'chargeback';

/** A payment after the first charge, as stored. */
export interface SubscriptionPayment {
  /** The lifecycle event id sent for it. */
  id: string;
  subscriptionId: string;
  kind: Exclude<PaymentKind, 'charge'>;
  /** Positive, minor units of `currency` (a refund's too). */
  amountMinor: number;
  currency: string;
  attempt: number | null;
  cardBrand: string | null;
  /** ISO 8601. */
  occurredAt: string;
}

/**
 * Inserts `payment`, or only where `guard` holds (a condition over ?1 the payment's id, ?2 its
 * subscription and ?8 its time): in a batch, a payment kept exactly when the statement before it
 * changed what it pays.
 */
export function insertPaymentStatement(
  db: D1Database,
  payment: SubscriptionPayment,
  guard = 'true',
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO subscription_payments
         (id, subscription_id, kind, amount_minor, currency, attempt, card_brand, occurred_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8 WHERE ${guard}`,
    )
    .bind(
      payment.id,
      payment.subscriptionId,
      payment.kind,
      payment.amountMinor,
      payment.currency,
      payment.attempt,
      payment.cardBrand,
      payment.occurredAt,
    );
}

/** One payment as `npm run portal -- payments` lists it and the reconciliation reads it. */
export interface PaymentListing {
  subscription_id: string;
  kind: PaymentKind;
  /** Positive, minor units. */
  amount_minor: number;
  currency: string;
  attempt: number | null;
  card_brand: string | null;
  occurred_at: string;
  /** The purchase's event id for a first charge, the lifecycle event's for any other. */
  event_id: string | null;
}

interface FirstChargeRow {
  subscription_id: string;
  plan_id: string;
  currency: string | null;
  price_with_discount: number | null;
  occurred_at: string;
  event_id: string | null;
}

/** The first charge in minor units of its currency; none when the plan's currency is unknown. */
function firstChargeOf(row: FirstChargeRow): PaymentListing[] {
  const currency = row.currency ?? (isPlanId(row.plan_id) ? planById(row.plan_id).currency : null);
  if (currency === null || row.price_with_discount === null) return [];
  return [
    {
      subscription_id: row.subscription_id,
      kind: 'charge',
      amount_minor: toMinorUnits(row.price_with_discount, currency as Currency),
      currency,
      attempt: 1,
      card_brand: null,
      occurred_at: row.occurred_at,
      event_id: row.event_id,
    },
  ];
}

/**
 * Every payment, oldest first, of `subscriptionId` or of all subscriptions: each charged
 * subscription's first charge, then every later row. A developer's listing, never paged.
 */
export async function listPayments(
  db: D1Database,
  subscriptionId: string | null = null,
): Promise<PaymentListing[]> {
  const [first, later] = await db.batch<FirstChargeRow | PaymentListing>([
    db
      .prepare(
        `SELECT id AS subscription_id, plan_id, currency, price_with_discount,
           created_at AS occurred_at, event_id
         FROM subscriptions WHERE status = 'active' AND (?1 IS NULL OR id = ?1)`,
      )
      .bind(subscriptionId),
    db
      .prepare(
        `SELECT subscription_id, kind, amount_minor, currency, attempt, card_brand, occurred_at,
           id AS event_id
         FROM subscription_payments WHERE ?1 IS NULL OR subscription_id = ?1`,
      )
      .bind(subscriptionId),
  ]);
  const payments = [
    ...((first?.results ?? []) as FirstChargeRow[]).flatMap(firstChargeOf),
    ...((later?.results ?? []) as PaymentListing[]),
  ];
  return payments.sort(
    (a, b) =>
      a.occurred_at.localeCompare(b.occurred_at) ||
      a.subscription_id.localeCompare(b.subscription_id),
  );
}

/** What a subscription's payments come to: taken and given back, minor units. */
export interface PaymentTotals {
  chargedMinor: number;
  returnedMinor: number;
}

export function totalsOf(payments: readonly PaymentListing[]): PaymentTotals {
  let chargedMinor = 0;
  let returnedMinor = 0;
  for (const payment of payments) {
    if (payment.kind === 'refund' || payment.kind === 'chargeback') {
      returnedMinor += payment.amount_minor;
    } else chargedMinor += payment.amount_minor;
  }
  return { chargedMinor, returnedMinor };
}
