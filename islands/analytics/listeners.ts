import type { CollectedEvent } from '../../shared/analytics/batch';

export type EventListener = (event: CollectedEvent) => void;

/** How many of this page's events a late listener can catch up on. */
const HEARD_MAX = 200;

/**
 * Who else hears the tracker's events: the ad pixels (SPEC.md §7: a purchase goes to Meta's
 * Purchase, TikTok's CompletePayment, Google's conversion) subscribe here. A listener that throws
 * is logged and the others still hear the event.
 */
export function createEventHub() {
  const listeners = new Set<EventListener>();
  const heard: CollectedEvent[] = [];
  const call = (listener: EventListener, event: CollectedEvent) => {
    try {
      listener(event);
    } catch (error) {
      console.warn('[analytics] an event listener failed', error);
    }
  };
  return {
    /**
     * Calls `listener` with each event tracked from now on; with `replay`, first with those this
     * page has tracked already (a pixel loaded after the purchase was drained still hears it).
     * Returns the unsubscribe.
     */
    subscribe(listener: EventListener, options: { replay?: boolean } = {}): () => void {
      if (options.replay) for (const event of [...heard]) call(listener, event);
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify(event: CollectedEvent): void {
      heard.push(event);
      if (heard.length > HEARD_MAX) heard.shift();
      for (const listener of [...listeners]) call(listener, event);
    },
  };
}

const hub = createEventHub();

/** Hear the tracker's events on this page (see createEventHub). */
export const subscribe = hub.subscribe;
export const notifyListeners = hub.notify;
