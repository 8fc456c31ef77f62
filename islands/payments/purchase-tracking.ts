import type { PurchaseOutcome } from './purchase-types';

/**
 * The social pixel's purchase event (SPEC.md §7 lists Purchase for it, CompletePayment for the
 * short-video pixel); the tracker maps it to each pixel's own name.
 */
export const PURCHASE_PIXEL_EVENT = 'Purchase';

/**
 * SPEC.md §9: outside production the purchase pixel event name gets a `_test` suffix, so test
 * purchases never count as conversions.
 */
export function purchasePixelEvent(name: string, production: boolean): string {
  return production ? name : `${name}_test`;
}

/**
 * SPEC.md §3 Purchase tracking payload, as the analytics tracker sends it to the pixels. It waits
 * in localStorage for the tracker, which checks what comes back field by field
 * (islands/stores/events.ts).
 */
export type PurchaseTrackingPayload = {
  price: number;
  currency: string;
  plan: string;
  sub_id: string;
  event_id: string | null;
  gclid: string | null;
  pixelName: string;
};

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

/** The gclid of a page's path and query (SPEC.md §3 Attribution parameters), or null. */
export function gclidOf(pathAndQuery: string): string | null {
  const query = pathAndQuery.indexOf('?');
  if (query === -1) return null;
  return new URLSearchParams(pathAndQuery.slice(query + 1)).get('gclid') || null;
}

/**
 * What a plan costs at the catalogue and in which currency, from the plan data a purchase sent as
 * `user_data` (PlanChoice's details: `periodPrice` is what the first charge takes, coupon
 * included). A plan without readable figures prices at 0 rather than losing the conversion.
 */
export function cataloguePriceOf(userData: Record<string, unknown>): {
  price: number;
  currency: string;
} {
  const price = Number.parseFloat(String(userData.periodPrice ?? userData.price ?? ''));
  return {
    price: Number.isFinite(price) ? price : 0,
    currency: typeof userData.currency === 'string' ? userData.currency : '',
  };
}
