import type { PurchaseTrackingPayload } from '../payments/purchase-tracking';
import { persistedSlice } from './persisted-slice';

/** SPEC.md §3 Events state: eventsData and analyticsData, both merged objects. */
export const $events = persistedSlice<{
  eventsData: Record<string, unknown>;
  analyticsData: Record<string, unknown>;
}>('events', { eventsData: {}, analyticsData: {} });

/**
 * Hand-off from the payment to analytics: a successful purchase puts its SPEC.md §3 tracking
 * payload in `eventsData.pendingPurchases` (persisted, because the page navigates away at once),
 * and the tracker (islands/analytics/tracker.ts) drains the queue with takePendingPurchases on
 * whichever page sees it first, turning each into one purchase event.
 */
const PENDING_PURCHASES = 'pendingPurchases';

const isString = (value: unknown) => typeof value === 'string';
const isStringOrNull = (value: unknown) => value === null || typeof value === 'string';

/**
 * What comes back from localStorage is checked field by field. Not with the payload's zod schema:
 * the tracker reads this store on every page, and zod is not on the landings' bundle. The mapped
 * type makes a field added to PurchaseTrackingPayload fail to compile here until it is checked.
 */
const PAYLOAD_FIELDS: { [Field in keyof PurchaseTrackingPayload]-?: (value: unknown) => boolean } =
  {
    price: (value) => typeof value === 'number' && Number.isFinite(value),
    currency: isString,
    plan: isString,
    sub_id: isString,
    event_id: isStringOrNull,
    gclid: isStringOrNull,
    pixelName: isString,
  };

/** The payload's own fields (others dropped, as a schema would), or null when one is off. */
function readPayload(value: unknown): PurchaseTrackingPayload | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const fields = Object.entries(PAYLOAD_FIELDS);
  if (!fields.every(([field, valid]) => valid(record[field]))) return null;
  return Object.fromEntries(
    fields.map(([field]) => [field, record[field]]),
  ) as PurchaseTrackingPayload;
}

/** The purchases not yet handed to analytics; an unreadable stored queue reads as empty. */
export function pendingPurchases(): PurchaseTrackingPayload[] {
  const stored = $events.get().eventsData[PENDING_PURCHASES];
  if (!Array.isArray(stored)) return [];
  const payloads = stored.map(readPayload);
  return payloads.every((payload): payload is PurchaseTrackingPayload => payload !== null)
    ? payloads
    : [];
}

function setPending(purchases: PurchaseTrackingPayload[]): void {
  $events.setKey('eventsData', { ...$events.get().eventsData, [PENDING_PURCHASES]: purchases });
}

/** Queues a purchase for the tracker; the same subscription is queued once (a conversion counts once). */
export function queuePurchase(payload: PurchaseTrackingPayload): void {
  const pending = pendingPurchases();
  if (pending.some((queued) => queued.sub_id === payload.sub_id)) return;
  setPending([...pending, payload]);
}

/** For the tracker: the queued purchases, removed from the queue. */
export function takePendingPurchases(): PurchaseTrackingPayload[] {
  const pending = pendingPurchases();
  if (pending.length > 0) setPending([]);
  return pending;
}

/** The analytics user id set at sign-up (SPEC.md §4 Signup), or null before. */
export function analyticsUserId(): string | null {
  const userId = $events.get().analyticsData.user_id;
  return typeof userId === 'string' && userId !== '' ? userId : null;
}
