import type { CollectedEvent } from '../../shared/analytics/batch';
import { MONEY_EVENT_NAMES, type MoneyKind } from '../../shared/analytics/money-events';
import { hex } from '../../shared/hex';
import { describeError, logError } from '../../shared/log';
import { minorDigits } from '../../shared/minor-units';
import type { QueuedEvent, ServerContext } from '../collector/queued-event';
import type { Bindings } from '../env';
import type { RevenueEvent } from '../experiments/store/revenue-events';
import { lifecycleKey } from '../portal-client/lifecycle-key';
import { keepForTheSweep } from '../purchases/purchase-outbox';
import type { SubscriptionEvent } from './apply';

/**
 * A lifecycle event the ledger claimed, as the event archive and Amplitude record it: a typed
 * event (shared/analytics/money-events.ts) queued on EVENTS_QUEUE with `source: 'server'`, the
 * path and the fallback a first purchase takes (worker/purchases/record-purchase.ts): the queue,
 * else EVENTS_DB's outbox for the sweep (purchase-outbox.ts), else a failure the caller answers
 * with a retry. The consumer's archive destination is its only writer to R2.
 *
 * Once each: the ledger claims an event id once (ledger.ts), and every queueing of one event id
 * (a release and the product API's retry, a takeover of a dead claim, a held event passed on
 * again) carries the same insert id, which every reader and destination takes once, as it does a
 * purchase's repeat. The id is keyed with the lifecycle secret, so no browser posting to `/e` can
 * learn it in advance and shadow the event.
 *
 * What it costs a subscriber: one queue message (about 650 bytes) and one archive line (about
 * 1 KB before gzip) per payment, refund or change of state after the first; no D1 statement
 * while the queue takes it, one when it refuses; the ledger call is the one the event already
 * made (docs/performance.md, "Money events").
 */

export type MoneyEvent = SubscriptionEvent & Pick<RevenueEvent, 'visitorId' | 'recovered'>;

/** No visitor's request is behind a lifecycle event: nothing of one is made up. */
function serverOnlyContext(receivedAt: number): ServerContext {
  return {
    received_at: receivedAt,
    ip: null,
    user_agent: null,
    country: null,
    page_url: null,
    // No visitor answered anything here; the ad networks take purchases only, never these.
    consent: 'pending',
    ad_cookies: { fbc: null, fbp: null, ttp: null, ttclid: null },
  };
}

/** The money event's kind: a renewal that paid an open failure is a recovery. */
function moneyKindOf(event: Pick<MoneyEvent, 'kind' | 'recovered'>): MoneyKind {
  return event.kind === 'renewal' && event.recovered === true ? 'recovery' : event.kind;
}

/** The amount in major units, positive (a refund's too), as the product API sent it. */
function majorAmount(event: MoneyEvent): number | null {
  const minor = event.failure ? event.failure.dueMinor : Math.abs(event.amountMinor);
  if (event.currency === null || event.kind === 'cancellation') return null;
  const digits = minorDigits(event.currency) ?? 2;
  return minor / 10 ** digits;
}

/** `srv_m_` and 32 hex digits of HMAC-SHA256(secret, event id): the same for every queueing. */
export async function moneyInsertId(secret: string, eventId: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`money:${eventId}`));
  return `srv_m_${hex(new Uint8Array(mac)).slice(0, 32)}`;
}

/**
 * The event as the collector's destinations take it: its buyer as the device, no session, when
 * it happened (`occurred_at`) as its time; the subscription, kind, amount, currency, try, card
 * brand and the product API's event id as properties.
 */
export function moneyEventOf(event: MoneyEvent, insertId: string): CollectedEvent {
  const kind = moneyKindOf(event);
  return {
    event_type: MONEY_EVENT_NAMES[kind],
    insert_id: insertId,
    time: event.at,
    session_id: 0,
    device_id: event.visitorId,
    user_id: null,
    event_properties: {
      screen_name: 'server',
      sub_id: event.subscriptionId,
      money_kind: kind,
      amount: majorAmount(event),
      currency: event.kind === 'cancellation' ? null : event.currency,
      attempt: event.failure?.attempt ?? event.payment?.attempt ?? null,
      card_brand: event.payment?.cardBrand ?? null,
      decline_code: event.failure?.declineCode ?? null,
      lifecycle_event_id: event.eventId,
    },
  };
}

/** The outbox row's key: one per event, beside the purchases' rows keyed by subscription. */
export function moneyOutboxKey(event: Pick<MoneyEvent, 'subscriptionId' | 'eventId'>): string {
  return `${event.subscriptionId}#${event.eventId}`;
}

/**
 * Queues the events' messages in one batch at `now`, else keeps each in EVENTS_DB's outbox for
 * the sweep; throws when neither took them, so the caller releases its claim and asks for a retry.
 */
export async function recordMoneyEvents(
  env: Bindings,
  events: readonly MoneyEvent[],
  now: number,
): Promise<'queue' | 'outbox' | 'none'> {
  if (events.length === 0) return 'none';
  const secret = lifecycleKey(env);
  if (!secret.ok) throw new Error(`money events cannot be keyed: ${secret.reason}`);
  const messages = await Promise.all(
    events.map(
      async (event): Promise<QueuedEvent> => ({
        v: 1,
        source: 'server',
        event: moneyEventOf(event, await moneyInsertId(secret.key, event.eventId)),
        context: serverOnlyContext(now),
      }),
    ),
  );
  try {
    await env.EVENTS_QUEUE.sendBatch(messages.map((body) => ({ body, contentType: 'json' })));
    return 'queue';
  } catch (error) {
    logError('money_event_queue_failed', { events: events.length, detail: describeError(error) });
    for (const [index, message] of messages.entries()) {
      await keepForTheSweep(
        env.EVENTS_DB,
        moneyOutboxKey(events[index] as MoneyEvent),
        message,
        now,
      );
    }
    return 'outbox';
  }
}

/** What records money events: recordMoneyEvents in the worker, a recorder in a test. */
export type RecordMoneyEvents = typeof recordMoneyEvents;
