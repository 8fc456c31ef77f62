import { type AnchorTerms, chargedFirst, realAnchor } from './anchors';
import type { Plan } from './catalogue';
import type { MinorUnits } from './money';

export interface OrderSummary {
  /** What the first payment buys at the real price it is struck from, else the total. */
  regular: MinorUnits;
  /** regular - total; 0 when nothing is really taken off. */
  discount: MinorUnits;
  /** What is charged today. */
  total: MinorUnits;
}

/**
 * SPEC.md §2 checkout: an order summary with discount and total. The total is the first
 * payment (the intro price when there is one), less a coupon the plan accepts. A discount is
 * shown only against a real price (./anchors.ts): a trial has none.
 */
export function orderSummary(plan: Plan, terms: AnchorTerms): OrderSummary {
  const total = chargedFirst(plan, terms.coupon);
  const regular = realAnchor(plan, terms) ?? total;
  return { regular, discount: regular - total, total };
}
