import type { PlanRole } from './catalogue';
import type { MinorUnits } from './money';

/** A code sent with a subscription (SPEC.md §3 request payload `coupon`) and what it takes off. */
export interface Coupon {
  code: string;
  percentOff: number;
  /** The kinds of plan the code is accepted for. */
  appliesTo: readonly PlanRole[];
}

/** SPEC.md §1, §9: the anonymous mode and private chat upsell is sold at 30% off. */
export const COUPONS = {
  upsell_30: { code: 'upsell_30', percentOff: 30, appliesTo: ['upsell'] },
} as const satisfies Record<string, Coupon>;

/** The coupon a request's code names, or null for a code we do not sell with. */
export function couponByCode(code: string | null): Coupon | null {
  if (code === null) return null;
  return Object.values(COUPONS).find((coupon) => coupon.code === code) ?? null;
}

/** The amount after the coupon, rounded to the nearest cent (9.99 at 30% off is 6.99). */
export function applyCoupon(amount: MinorUnits, coupon: Coupon): MinorUnits {
  return amount - Math.round((amount * coupon.percentOff) / 100);
}

export function couponAppliesTo(coupon: Coupon, role: PlanRole): boolean {
  return coupon.appliesTo.includes(role);
}
