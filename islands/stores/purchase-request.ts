import type { ProviderChoice } from '../payments/providers';
import type { PurchaseRequest } from '../payments/purchase-types';

/** The plan as PlanChoice kept it in $plans.planDetails (SPEC.md §3 Plans state). */
export interface ChosenPlanDetails {
  coupon?: string | null;
  [field: string]: unknown;
}

/**
 * SPEC.md §3 Request payload: the plan's id, the provider's gateway and route, its coupon, and
 * the plan data merged with the visitor's own data as `user_data`.
 */
export function purchaseRequestFor(input: {
  planId: string;
  details: ChosenPlanDetails | null;
  choice: ProviderChoice;
  visitor: { email: string; uuid: string };
  method: PurchaseRequest['method'];
  renewalConsent?: PurchaseRequest['renewalConsent'];
}): PurchaseRequest {
  const details = input.details ?? {};
  return {
    planId: input.planId,
    route: input.choice.route,
    gateway: input.choice.id,
    coupon: typeof details.coupon === 'string' ? details.coupon : null,
    userData: { ...details, email: input.visitor.email, user_uuid: input.visitor.uuid },
    method: input.method,
    renewalConsent: input.renewalConsent ?? null,
  };
}
