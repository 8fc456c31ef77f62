import type { ChargeReceipt } from '../../shared/api/contract';
import { isPlanId, planById } from '../../shared/plans/catalogue';
import { couponByCode } from '../../shared/plans/coupons';
import { toMinorUnits } from '../../shared/plans/money';
import { firstRenewalAt, renewalAmount } from '../../shared/plans/renewal';
import type { VerifiedCharge } from '../checkout/charge-call';

/**
 * What a verified charge took and when it renews, in the worker's words: the page shows these
 * amounts and dates as they are and never works them out itself. `charge` is the
 * answer completed from the catalogue (../checkout/catalogue-charge.ts). The amount is the charge's; what
 * renews, when and at what price is the catalogue plan's: after an intro's days, else after one
 * period, at the recurring price less the coupon the charge was asked with: the rules of
 * shared/plans/renewal.ts, which the pay button's terms on the page read too. Null when the charge names no catalogue plan or no amount in its
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
  const renewsAt = firstRenewalAt(plan, chargedAt);
  return {
    plan_id: plan.id,
    amount: toMinorUnits(amount, plan.currency),
    currency,
    charged_at: new Date(chargedAt).toISOString(),
    renews_at: renewsAt === null ? null : new Date(renewsAt).toISOString(),
    renewal_amount: renewalAmount(plan, couponByCode(couponCode)),
  };
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
