import { logError } from '../../../shared/log';
import { adNetworksAllowed, isVerifiedPurchase, type QueuedEvent } from '../queued-event';
import type { Destination } from './destination';
import type { DestinationName, Outcome } from './outcome';
import { hashedVisitorId, type Purchase, readPurchase } from './purchase';

/** One purchase as an ad network's server API needs it. */
export interface PurchaseSend {
  message: QueuedEvent;
  purchase: Purchase;
  /** SHA-256 hex of the visitor uuid. */
  externalId: string;
}

/**
 * An ad network's server API (Meta Conversions API, TikTok Events API): server-verified purchases
 * only (a purchase the browser reports is anyone's to forge, and its pixel already
 * sends it with the same event id), never for a visitor who denied consent, one request per purchase so that one refused event
 * cannot take others down with it. A purchase without price, currency or an id to de-duplicate
 * with is dropped and logged: without the id the network would count it twice (pixel + server).
 */
export function adNetworkDestination(
  name: Extract<DestinationName, 'meta' | 'tiktok'>,
  sendPurchase: (send: PurchaseSend) => Promise<Outcome>,
): Destination {
  return {
    name,
    takes: (message) => isVerifiedPurchase(message) && adNetworksAllowed(message.context),
    deliver: (messages) =>
      Promise.all(
        messages.map(async (message) => {
          const reading = readPurchase(message.event);
          if (!reading.ok) {
            logError('purchase_incomplete', {
              destination: name,
              insert_id: message.event.insert_id,
              missing: reading.missing,
            });
            return 'dropped';
          }
          const externalId = await hashedVisitorId(message.event.device_id);
          return sendPurchase({ message, purchase: reading.purchase, externalId });
        }),
      ),
  };
}

/** The object without its null and undefined fields (the APIs want absent, not null). */
export function present<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== null && value !== undefined),
  ) as Partial<T>;
}
