import type { Plan } from './catalogue';
import { applyCoupon, type Coupon, couponAppliesTo } from './coupons';
import type { MinorUnits } from './money';
import { regularPrice } from './plan-figures';

export interface OrderSummary {
  /** The first period at the regular price. */
  regular: MinorUnits;
  /** regular - total; 0 when nothing is taken off. */
  discount: MinorUnits;
  /** What is charged today. */
  total: MinorUnits;
}

/**
 * SPEC.md §2 checkout: an order summary with discount and total. The total is the first
 * payment (the intro price when there is one), less a coupon the plan accepts.
 */
export function orderSummary(plan: Plan, coupon: Coupon | null = null): OrderSummary {
  const regular = regularPrice(plan);
  const total =
    coupon && couponAppliesTo(coupon, plan.role)
      ? applyCoupon(plan.periodPrice, coupon)
      : plan.periodPrice;
  return { regular, discount: Math.max(0, regular - total), total };
}
