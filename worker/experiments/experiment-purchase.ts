import type { VerifiedCharge } from '../purchases/charge-answers';

/** An amount in a currency's minor units (cents for USD and EUR, yen for JPY). */
interface MinorAmount {
  amountMinor: number;
  currency: string;
}

/**
 * The charge's amount in its currency's minor units, or null when the product API named no
 * amount or no currency, or a code Intl does not know. Sums of integers stay exact where sums of
 * 6.99s would not.
 */
export function minorAmountOf(amount: number | null, currency: string | null): MinorAmount | null {
  if (amount === null || currency === null) return null;
  let digits: number;
  try {
    digits =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2;
  } catch {
    return null;
  }
  return { amountMinor: Math.round(amount * 10 ** digits), currency };
}

/**
 * The statement that counts a server-verified purchase in the split test's results: the purchase
 * joins the row of the visitor who bought it, if that visitor was exposed, in their phase and
 * variant, once per subscription id (EVENTS_DB experiment_purchases; its trigger sets the
 * visitor's `purchased` and the arm's revenue). Run in one batch with the purchase's claim in
 * verified_purchases, and only when that claim is this call's (`claimId`, the claim's insert
 * id): a later poll of the same result by someone else attributes nothing to them.
 */
export function experimentPurchaseStatement(
  db: D1Database,
  purchase: { charge: VerifiedCharge; visitorId: string; claimId: string; at: number },
): D1PreparedStatement {
  const { charge } = purchase;
  const minor = minorAmountOf(charge.amount, charge.currency);
  return db
    .prepare(
      `INSERT OR IGNORE INTO experiment_purchases
         (subscription_id, visitor_id, phase, variant, amount_minor, currency, recorded_at)
       SELECT ?1, visitor_id, phase, variant, ?3, ?4, ?5 FROM exposures
       WHERE visitor_id = ?2 AND EXISTS (
         SELECT 1 FROM verified_purchases WHERE subscription_id = ?1 AND insert_id = ?6
       )`,
    )
    .bind(
      charge.subscriptionId,
      purchase.visitorId,
      minor?.amountMinor ?? null,
      minor?.currency ?? null,
      purchase.at,
      purchase.claimId,
    );
}
