import { isPlanId, planById } from '../../shared/plans/catalogue';
import { findChargedSubscription, type SubscriberRow } from './subscriber-actions';

/**
 * The renewing add-ons of a subscription on the `subscriptions` table: the same user's other
 * charged subscriptions whose plan is an upsell that renews (shared/plans/catalogue.ts, role
 * `upsell`), each its own row, as portal/charges.ts charges an upsell. The subscriber's page
 * lists them beside the plan (docs/payments.md, "The subscriber's page").
 */

/** Whether `planId` names a renewing add-on of the catalogue (a guide is paid once: none). */
function isRenewingAddOn(planId: string): boolean {
  if (!isPlanId(planId)) return false;
  const plan = planById(planId);
  return plan.role === 'upsell' && plan.billing.kind === 'recurring';
}

/**
 * The renewing add-ons bought by the user of `subscription`, oldest first; none for an add-on
 * itself (its own link's page shows it alone). Few rows each: the user's charges, by the
 * `subscriptions_by_user_status` index.
 */
export async function findAddOns(
  db: D1Database,
  subscription: Pick<SubscriberRow, 'id' | 'userId' | 'planId'>,
): Promise<SubscriberRow[]> {
  if (isRenewingAddOn(subscription.planId)) return [];
  const { results } = await db
    .prepare(
      `SELECT id, plan_id AS planId FROM subscriptions
       WHERE user_id = ? AND status = 'active' AND id != ?
       ORDER BY created_at, rowid`,
    )
    .bind(subscription.userId, subscription.id)
    .all<{ id: string; planId: string }>();
  const rows = await Promise.all(
    results
      .filter((row) => isRenewingAddOn(row.planId))
      .map((row) => findChargedSubscription(db, row.id)),
  );
  return rows.filter((row): row is SubscriberRow => row !== null);
}
