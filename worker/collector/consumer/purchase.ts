import type { CollectedEvent } from '../../../shared/analytics/batch';
import { hashedMatchKey } from '../../attribution/match-keys';

/**
 * SPEC.md §3 Purchase tracking payload, as the ad networks need it: price, currency, plan,
 * sub_id and event_id ride in a purchase event's event_properties.
 */
export interface Purchase {
  value: number;
  /** ISO 4217, upper case. */
  currency: string;
  plan: string | null;
  /**
   * The id the browser pixel sent with the same purchase, so each network counts it once
   * (the portal's event_id; the subscription id when the portal gave none).
   */
  eventId: string;
}

export type PurchaseReading = { ok: true; purchase: Purchase } | { ok: false; missing: string };

function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

export function readPurchase(event: CollectedEvent): PurchaseReading {
  const properties = event.event_properties;
  const { price } = properties;
  if (typeof price !== 'number' || !Number.isFinite(price) || price < 0) {
    return { ok: false, missing: 'price' };
  }
  const currency = text(properties.currency)?.toUpperCase();
  if (currency === undefined || !/^[A-Z]{3}$/.test(currency))
    return { ok: false, missing: 'currency' };
  const eventId = text(properties.event_id) ?? text(properties.sub_id);
  if (eventId === null) return { ok: false, missing: 'event_id and sub_id' };
  return { ok: true, purchase: { value: price, currency, plan: text(properties.plan), eventId } };
}

/** The networks' external_id: SHA-256 (hex) of the visitor uuid, never the uuid itself. */
export function hashedVisitorId(deviceId: string): Promise<string> {
  return hashedMatchKey(deviceId);
}
