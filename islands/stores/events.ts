import { shownPage } from '../analytics/emit';
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
 * whichever page sees it first, turning each into one purchase event. Each entry is the payload's
 * fields plus when and where the purchase happened (PurchasePlace), so the event keeps its own
 * time and screen however late it is recorded.
 */
const PENDING_PURCHASES = 'pendingPurchases';

const isString = (value: unknown) => typeof value === 'string';
const isStringOrNull = (value: unknown) => value === null || typeof value === 'string';

/**
 * What comes back from localStorage is checked field by field, not with a schema library: the
 * tracker reads this store on every page, and zod/mini would add about 6 KB (brotli) to each
 * landing's 10 KB of tracker. The mapped type makes a field added to PurchaseTrackingPayload fail
 * to compile here until it is checked.
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

/** When and where a purchase happened; each field absent from entries queued before it was kept. */
export interface PurchasePlace {
  /** Epoch ms of the purchase. */
  time?: number;
  /** The page it was made on (its PageState's fields of the same names, and location.pathname). */
  screen?: string;
  path?: string;
  variant?: string;
  flow?: string;
  configVersion?: string;
}

export interface QueuedPurchase {
  payload: PurchaseTrackingPayload;
  place: PurchasePlace;
}

const PLACE_FIELDS: { [Field in keyof PurchasePlace]-?: (value: unknown) => boolean } = {
  time: (value) => typeof value === 'number' && Number.isFinite(value),
  screen: isString,
  path: isString,
  variant: isString,
  flow: isString,
  configVersion: isString,
};

/** The place's fields that read right; the others are left out (the tracker uses its own). */
function readPlace(value: unknown): PurchasePlace {
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(PLACE_FIELDS)
      .filter(([field, valid]) => valid(record[field]))
      .map(([field]) => [field, record[field]]),
  );
}

/** The stored queue, each entry read; an unreadable stored queue reads as empty. */
function queued(): QueuedPurchase[] {
  const stored = $events.get().eventsData[PENDING_PURCHASES];
  if (!Array.isArray(stored)) return [];
  const entries = stored.map((value) => {
    const payload = readPayload(value);
    return payload ? { payload, place: readPlace(value) } : null;
  });
  return entries.every((entry): entry is QueuedPurchase => entry !== null) ? entries : [];
}

/** The purchases not yet handed to analytics; an unreadable stored queue reads as empty. */
export function pendingPurchases(): PurchaseTrackingPayload[] {
  return queued().map((entry) => entry.payload);
}

function setPending(purchases: QueuedPurchase[]): void {
  const stored = purchases.map(({ payload, place }) => ({ ...payload, ...place }));
  $events.setKey('eventsData', { ...$events.get().eventsData, [PENDING_PURCHASES]: stored });
}

/** Where the visitor is now: the page boot started analytics on (emit.ts shownPage), if any. */
function placeNow(): PurchasePlace {
  const page = shownPage;
  const time = Date.now();
  if (!page) return { time };
  const { screen, variant, flow, configVersion } = page;
  return { time, screen, path: location.pathname, variant, flow, configVersion };
}

/**
 * Queues a purchase for the tracker, with when and where it happens (now, on this page); the
 * same subscription is queued once (a conversion counts once).
 */
export function queuePurchase(payload: PurchaseTrackingPayload): void {
  const pending = queued();
  if (pending.some((entry) => entry.payload.sub_id === payload.sub_id)) return;
  setPending([...pending, { payload, place: placeNow() }]);
}

/** For the tracker: the queued purchases with their time and page, removed from the queue. */
export function takePendingPurchases(): QueuedPurchase[] {
  const pending = queued();
  if (pending.length > 0) setPending([]);
  return pending;
}

/** The analytics user id set at sign-up (SPEC.md §4 Signup), or null before. */
export function analyticsUserId(): string | null {
  const userId = $events.get().analyticsData.user_id;
  return typeof userId === 'string' && userId !== '' ? userId : null;
}
