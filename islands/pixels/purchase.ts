import type { CollectedEvent } from '../../shared/analytics/batch';
import { PURCHASE_EVENTS } from '../../shared/analytics/catalogue';

/** A purchase as the ad pixels report it (SPEC.md §3 Purchase tracking payload). */
export interface PixelPurchase {
  value: number;
  /** ISO 4217, upper case. */
  currency: string;
  /** The plan id (the pixels' content id). */
  plan: string;
  /** The subscription id: Google's transaction id, and what marks the purchase as reported. */
  subId: string;
  /**
   * The deduplication id Meta and TikTok match against the server-side Conversions / Events API:
   * the same rule as the collector's (worker/collector/consumer/purchase.ts), the portal's
   * event_id, else the subscription id.
   */
  eventId: string;
}

function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** The purchase a tracked event reports, or null for any other event or an unusable payload. */
export function readPixelPurchase(event: CollectedEvent): PixelPurchase | null {
  if (!PURCHASE_EVENTS.has(event.event_type)) return null;
  const properties = event.event_properties;
  const { price } = properties;
  if (typeof price !== 'number' || !Number.isFinite(price) || price < 0) return null;
  const currency = text(properties.currency)?.toUpperCase();
  const subId = text(properties.sub_id);
  if (currency === undefined || !/^[A-Z]{3}$/.test(currency) || subId === null) return null;
  return {
    value: price,
    currency,
    plan: text(properties.plan) ?? '',
    subId,
    eventId: text(properties.event_id) ?? subId,
  };
}

/**
 * SPEC.md §9: outside production a purchase pixel event gets `_test` (Purchase_test,
 * CompletePayment_test, purchase_test, conversion_test), so test purchases never count as the
 * real conversion.
 */
export function pixelEventName(name: string, production: boolean): string {
  return production ? name : `${name}_test`;
}
