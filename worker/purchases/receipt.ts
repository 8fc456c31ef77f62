import type { ChargeReceipt } from '../../shared/api/contract';
import { isPlanId, type Plan, planById } from '../../shared/plans/catalogue';
import { applyCoupon, couponAppliesTo, couponByCode } from '../../shared/plans/coupons';
import { toMinorUnits } from '../../shared/plans/money';
import type { VerifiedCharge } from './charge-answers';

/**
 * What a verified charge took and when it renews, in the worker's words: the page shows these
 * amounts and dates as they are and never works them out itself. `charge` is the
 * answer completed from the catalogue (./catalogue-charge.ts). The amount is the charge's; what
 * renews, when and at what price is the catalogue plan's: after an intro's days, else after one
 * period, at the recurring price less the coupon the charge was asked with, as the plan's
 * disclosure on the page states it (screens/plans/plan-copy.ts: a coupon the plan accepts takes
 * its share of every payment). Null when the charge names no catalogue plan or no amount in its
 * currency: the page then shows what the answer itself said, and no renewal.
 */
export function chargeReceiptOf(
  charge: VerifiedCharge,
  couponCode: string | null,
  chargedAt: number,
): ChargeReceipt | null {
  const { planId, amount, currency } = charge;
  if (planId === null || !isPlanId(planId) || amount === null || currency === null) return null;
  const plan = planById(planId);
  if (plan.currency !== currency) return null;
  const coupon = couponByCode(couponCode);
  const recurring =
    coupon && couponAppliesTo(coupon, plan.role) ? applyCoupon(plan.price, coupon) : plan.price;
  return {
    plan_id: plan.id,
    amount: toMinorUnits(amount, plan.currency),
    currency,
    charged_at: new Date(chargedAt).toISOString(),
    renews_at: renewalOf(plan, chargedAt),
    renewal_amount: plan.billing.kind === 'recurring' ? recurring : null,
  };
}

/**
 * The first renewal of a plan charged at `chargedAt`: the intro's days later, else its period's
 * months later, in calendar months of UTC (31 January + 1 month is 28 or 29 February, as the
 * card networks' billing cycles count it, not 3 March).
 */
function renewalOf(plan: Plan, chargedAt: number): string | null {
  if (plan.billing.kind === 'one_time') return null;
  const { intro, months } = plan.billing;
  if (intro) return new Date(chargedAt + intro.days * 86_400_000).toISOString();
  const at = new Date(chargedAt);
  const day = at.getUTCDate();
  at.setUTCDate(1);
  at.setUTCMonth(at.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 0)).getUTCDate();
  at.setUTCDate(Math.min(day, lastDay));
  return at.toISOString();
}

/**
 * The browser's answer to a charge with the receipt beside the charge's fields: in
 * `data.result_data` of a polling result, in `data` of a direct charge (SPEC.md §7's shapes).
 */
export function withReceipt(
  call: 'pollingResult' | 'directSubscription',
  body: unknown,
  receipt: ChargeReceipt,
): unknown {
  if (!isRecord(body) || !isRecord(body.data)) return body;
  const { data } = body;
  if (call === 'directSubscription') return { ...body, data: { ...data, receipt } };
  if (!isRecord(data.result_data)) return body;
  return { ...body, data: { ...data, result_data: { ...data.result_data, receipt } } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
