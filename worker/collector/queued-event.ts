import * as z from 'zod';
import { CollectedEvent } from '../../shared/analytics/batch';
import { PURCHASE_EVENTS } from '../../shared/analytics/catalogue';
import { adToolsAllowed } from '../attribution/consent';
import { DESTINATIONS } from './consumer/outcome';

/**
 * One queue message: one event as the browser sent it to `POST /e`, and what only the server
 * knows about the request that carried it, which the destinations need (Amplitude's ip and
 * country, the ad networks' address, agent, page and click cookies).
 */
export const ServerContext = z.object({
  /** Epoch ms on the collector's clock. */
  received_at: z.number().int().nonnegative(),
  /** `CF-Connecting-IP`. */
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** ISO country code (worker/request/visit-facts.ts), or null. */
  country: z.string().nullable(),
  /** The page that sent the batch (`Referer`). */
  page_url: z.string().nullable(),
  /**
   * The visitor's consent to the ad tools when the batch arrived (worker/attribution/consent.ts:
   * the gf_consent cookie where CONSENT_COUNTRIES requires an answer).
   */
  consent: z.enum(['not_required', 'pending', 'granted', 'denied']),
  /**
   * The visitor uuid of the request's userUuid cookie, when it holds one. An event whose
   * `device_id` is this visitor comes from that visitor's own browser; the split test's results
   * take outcomes only from such events, so a forged one can only mark its sender's own row.
   * Absent on messages queued before it existed.
   */
  visitor_id: z.string().optional(),
  /**
   * SHA-256 of the buyer's email, on a server-verified purchase whose buyer signed up in this
   * browser session, and only where the ad tools may run (worker/session/session-cookie.ts).
   */
  buyer_email_sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  /** The first-party ad cookies of SPEC.md §3 Stored keys; all null unless the ad tools may run. */
  ad_cookies: z.object({
    fbc: z.string().nullable(),
    fbp: z.string().nullable(),
    ttp: z.string().nullable(),
    /**
     * The TikTok click id kept in _gf_ttclid (worker/attribution/ad-cookies.ts). Null on messages
     * queued before it existed.
     */
    ttclid: z.string().nullable().default(null),
  }),
});
export type ServerContext = z.infer<typeof ServerContext>;

/**
 * The destinations a redriven dead letter is sent to (worker/collector/redrive.ts): the ones it
 * never reached, or those the operator named; absent on every other message (all destinations).
 */
const RedriveDestinations = z.array(z.enum(DESTINATIONS)).min(1).optional();

export const QueuedEvent = z.object({
  /** The message format; a consumer acks (and logs) a version it does not know. */
  v: z.literal(1),
  /**
   * Who vouches for the event: 'browser' for everything `POST /e` takes (anyone can post there),
   * 'server' for a purchase the worker saw the product API answer (worker/purchases/). Set by
   * the worker on the message, never read from the event, so a browser cannot claim it. Only
   * server purchases carry revenue. Messages queued before it existed are 'browser'.
   */
  source: z.enum(['browser', 'server']).default('browser'),
  event: CollectedEvent,
  context: ServerContext,
  only: RedriveDestinations,
});
export type QueuedEvent = z.infer<typeof QueuedEvent>;

/**
 * One queue message for one `POST /e` batch: the events it took, in order, and the one context
 * of the request that carried them. A batch's events share that context, so one message instead
 * of one per event costs the queue a fifth to a tenth of the messages; a batch within
 * ANALYTICS_LIMITS.maxBatchBytes is far under the queue's 128 KB per message (enqueue.ts).
 */
export const QueuedBatch = z.object({
  v: z.literal(2),
  source: z.enum(['browser', 'server']),
  events: z.array(CollectedEvent).min(1),
  context: ServerContext,
  only: RedriveDestinations,
});
export type QueuedBatch = z.infer<typeof QueuedBatch>;

/** What EVENTS_QUEUE carries: a batch (`v: 2`), or one event (`v: 1`, server purchases). */
export const QueuedMessage = z.discriminatedUnion('v', [QueuedEvent, QueuedBatch]);
export type QueuedMessage = z.infer<typeof QueuedMessage>;

/** The events of a message, each as the destinations take them. */
export function eventsOf(message: QueuedMessage): QueuedEvent[] {
  if (message.v === 1) return [message];
  const { source, context } = message;
  return message.events.map((event) => ({ v: 1, source, event, context }));
}

/** A purchase the product API answered for, the only kind that counts as revenue. */
export function isVerifiedPurchase(message: Pick<QueuedEvent, 'source' | 'event'>): boolean {
  return message.source === 'server' && PURCHASE_EVENTS.has(message.event.event_type);
}

/**
 * The consent switch (worker/attribution/consent.ts): a purchase reaches an ad network only where
 * the ad tools may run (consent not required, or granted); the funnel events count either way.
 */
export function adNetworksAllowed(context: ServerContext): boolean {
  return adToolsAllowed(context.consent);
}
