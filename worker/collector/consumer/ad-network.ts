import { type LogFields, logError } from '../../../shared/log';
import { adNetworksAllowed, isVerifiedPurchase, type QueuedEvent } from '../queued-event';
import type { Destination } from './destination';
import { type DestinationName, failedForNow, type NoteFailure, type Outcome } from './outcome';
import { hashedVisitorId, type Purchase, readPurchase } from './purchase';

/** One purchase as an ad network's server API needs it. */
export interface PurchaseSend {
  message: QueuedEvent;
  purchase: Purchase;
  /** SHA-256 hex of the visitor uuid. */
  externalId: string;
  /** Where a failure worth another try says why (./outcome.ts failedForNow). */
  noted?: NoteFailure;
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
    deliver: (messages, noted) =>
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
          return sendPurchase({ message, purchase: reading.purchase, externalId, noted });
        }),
      ),
  };
}

/**
 * A network refused the call itself, not the event: a token that expired or was revoked, a
 * permission taken away, an API version it no longer serves. Every purchase would meet the same
 * refusal until an operator fixes the configuration, so the event is kept: retried with the
 * queue's backoff (outcome.ts) and, if nobody fixes it in time, kept in the dead letters. One
 * `ad_network_auth` error line per try, the same code for every network, for ops to alert on.
 */
export function configurationRefused(
  destination: Extract<DestinationName, 'meta' | 'tiktok'>,
  fields: LogFields,
  noted: NoteFailure | undefined,
): Outcome {
  return failedForNow('ad_network_auth', { destination, ...fields }, noted);
}

/** The object without its null and undefined fields (the APIs want absent, not null). */
export function present<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== null && value !== undefined),
  ) as Partial<T>;
}
