import type { SubscriptionRequest } from '../../shared/api/contract';
import { isPlanId, planById } from '../../shared/plans/catalogue';

/**
 * The charge request as the product API gets it: with the currency and price id of the catalogue
 * plan the offer gate let through (`:planId`), as top-level `currency` and `price_id`, and the
 * same `currency` in `user_data`. The page's own `user_data.currency` is replaced, not trusted:
 * the visitor's currency is the worker's to say (worker/funnel/locale.ts), and the
 * offer gate already refused a plan of another one. A body that names no catalogue plan is sent
 * as it came.
 */
export function withChargedPrice(
  body: SubscriptionRequest,
  planId: string | null,
): SubscriptionRequest {
  if (planId === null || !isPlanId(planId)) return body;
  const plan = planById(planId);
  return {
    ...body,
    currency: plan.currency,
    price_id: plan.id,
    user_data: { ...body.user_data, currency: plan.currency, price_id: plan.id },
  };
}

/**
 * The charge request with the purchase's id from its attempt ledger
 * (worker/purchase-ledger/charge-guard.ts), the one the product API de-duplicates the
 * subscription on; without one (the ledger could not be reached) none is sent. Whatever the
 * browser put there is never passed on: a visitor cannot name another's purchase.
 */
export function withPurchaseId(
  body: SubscriptionRequest,
  purchaseId: string | null,
): SubscriptionRequest {
  const { purchase_id: _sent, ...rest } = body;
  return purchaseId === null ? rest : { ...rest, purchase_id: purchaseId };
}
