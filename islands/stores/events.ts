import { PurchaseTrackingPayload } from '../payments/purchase-tracking';
import { persistedSlice } from './persisted-slice';

/** SPEC.md §3 Events state: eventsData and analyticsData, both merged objects. */
export const $events = persistedSlice<{
  eventsData: Record<string, unknown>;
  analyticsData: Record<string, unknown>;
}>('events', { eventsData: {}, analyticsData: {} });

/**
 * Hand-off from the payment to analytics: a successful purchase puts its SPEC.md §3 tracking
 * payload in `eventsData.pendingPurchases` (persisted, because the page navigates away at once),
 * and issue 6's tracker drains the queue with takePendingPurchases on whichever page loads next,
 * sending each to the pixels exactly once.
 */
const PENDING_PURCHASES = 'pendingPurchases';

const PendingPurchases = PurchaseTrackingPayload.array();

/** The purchases not yet handed to the pixels; an unreadable stored queue reads as empty. */
export function pendingPurchases(): PurchaseTrackingPayload[] {
  const parsed = PendingPurchases.safeParse($events.get().eventsData[PENDING_PURCHASES]);
  return parsed.success ? parsed.data : [];
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
