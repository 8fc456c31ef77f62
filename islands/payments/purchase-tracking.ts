import type { PurchaseOutcome } from './purchase-types';

/**
 * SPEC.md §9: outside production the purchase pixel event name gets a `_test` suffix, so test
 * purchases never count as conversions.
 */
export function purchasePixelEvent(name: string, production: boolean): string {
  return production ? name : `${name}_test`;
}

/** SPEC.md §3 Purchase tracking payload, as the analytics tracker sends it to the pixels. */
export interface PurchaseTrackingPayload {
  price: number;
  currency: string;
  plan: string;
  sub_id: string;
  event_id: string | null;
  gclid: string | null;
  pixelName: string;
}

export interface PurchaseTrackingInput {
  outcome: Extract<PurchaseOutcome, { kind: 'succeeded' }>;
  planId: string;
  /** The catalogue price, used when the portal reported no discounted price. */
  cataloguePrice: number;
  currency: string;
  /** The gclid read from the URL (SPEC.md §3 Attribution parameters), if any. */
  gclid: string | null;
  /** The pixel's purchase event, e.g. 'Purchase' or 'CompletePayment' (SPEC.md §7). */
  pixelEvent: string;
  production: boolean;
}

/** The payload of a successful purchase: what was paid (the discounted price when known), for which plan. */
export function purchaseTrackingPayload(input: PurchaseTrackingInput): PurchaseTrackingPayload {
  return {
    price: input.outcome.priceWithDiscount ?? input.cataloguePrice,
    currency: input.currency,
    plan: input.planId,
    sub_id: input.outcome.subscriptionId,
    event_id: input.outcome.eventId,
    gclid: input.gclid,
    pixelName: purchasePixelEvent(input.pixelEvent, input.production),
  };
}
