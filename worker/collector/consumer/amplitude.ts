import { isSmokeAgent } from '../../../shared/analytics/smoke';
import { logError } from '../../../shared/log';
import type { QueuedEvent } from '../queued-event';
import { splitUserData } from '../user-data';
import type { Destination } from './destination';
import { failedForNow, type NoteFailure, type Outcome } from './outcome';
import { type Fetch, isTransientStatus, postJson } from './post-json';
import { type VerifiedRevenue, verifiedRevenue } from './revenue';

export const DEFAULT_AMPLITUDE_ENDPOINT = 'https://api2.amplitude.com/batch';

/** One event in the shape of Amplitude's HTTP V2 / Batch Event Upload APIs. */
export type AmplitudeEvent = Record<string, unknown> & { insert_id: string };

/**
 * The event as sent, plus what the collector knows: the visitor's address and country (left out,
 * Amplitude would place every visitor where the worker runs) and who vouches for it (`source`,
 * from the message, overriding whatever the browser put there). Only a server-verified purchase
 * carries Amplitude's revenue fields: a purchase the browser reports stays in the
 * funnel story but is never revenue.
 */
function amplitudeEvent(message: QueuedEvent): AmplitudeEvent {
  const { event, context } = message;
  const { properties, userData } = splitUserData(event.event_properties, event.device_id);
  // SPEC.md §3's user_data as one object, which Amplitude shows as `user_data.fbc` and the like;
  // a field the event lacks is left out rather than sent as null.
  const amplitudeUserData = Object.fromEntries(
    Object.entries(userData).filter(([, value]) => value !== null),
  );
  const out: AmplitudeEvent = {
    event_type: event.event_type,
    device_id: event.device_id,
    time: event.time,
    // A server event belongs to no browser session: Amplitude's -1 says so.
    session_id: message.source === 'server' ? -1 : event.session_id,
    insert_id: event.insert_id,
    event_properties: { ...properties, source: message.source, user_data: amplitudeUserData },
    platform: 'Web',
  };
  if (event.user_id !== null) out.user_id = event.user_id;
  if (context.ip !== null) out.ip = context.ip;
  if (context.country !== null) out.country = context.country;
  const revenue = verifiedRevenue(message);
  if (revenue) Object.assign(out, revenueFields(revenue));
  return out;
}

/**
 * Amplitude's revenue fields for the HTTP and Batch APIs (amplitude.com/docs/apis/analytics/
 * http-v2, "price, quantity, currency, revenue"; revenue = price × quantity): the currency
 * keeps USD and EUR plans apart, and revenueType says what was bought.
 */
function revenueFields(revenue: VerifiedRevenue) {
  return {
    price: revenue.price,
    quantity: 1,
    revenue: revenue.price,
    currency: revenue.currency,
    revenueType: revenue.revenueType,
    ...(revenue.productId !== null ? { productId: revenue.productId } : {}),
  };
}

/**
 * The Batch API drops a user_id shorter than 5 characters from the event, silently
 * (batch-event-upload: "options.min_id_length"). The product API's user ids are its own: any
 * length it gives is kept. device_id is always our 36-character uuid.
 */
const AMPLITUDE_OPTIONS = { min_id_length: 1 } as const;

/**
 * The indices of the events a 400 names (events_with_invalid_fields / events_with_missing_fields:
 * field → indices). Amplitude's advice is to drop those and send the rest again.
 */
function rejectedIndices(json: unknown): Set<number> {
  const indices = new Set<number>();
  if (typeof json !== 'object' || json === null) return indices;
  for (const key of ['events_with_invalid_fields', 'events_with_missing_fields']) {
    const byField = (json as Record<string, unknown>)[key];
    if (typeof byField !== 'object' || byField === null) continue;
    for (const list of Object.values(byField)) {
      if (!Array.isArray(list)) continue;
      for (const index of list) if (Number.isInteger(index)) indices.add(index as number);
    }
  }
  return indices;
}

function errorText(json: unknown, fallback: string): string {
  const error = (json as { error?: unknown } | null)?.error;
  return typeof error === 'string' ? error.slice(0, 300) : fallback;
}

/**
 * Amplitude's batch API (AMPLITUDE_API_KEY, a secret, goes in the body, never in a log line).
 * SPEC.md §7: a 413 halves the batch and sends the halves (an event refused alone is dropped);
 * 429, 5xx, a network failure or an unknown answer retry the message later; a 400 drops the
 * events it names and sends the rest again, or drops them all when it names none.
 */
export function amplitudeDestination(config: {
  apiKey: string;
  endpoint: string;
  fetch: Fetch;
}): Destination {
  async function upload(
    events: readonly AmplitudeEvent[],
    noted: NoteFailure | undefined,
  ): Promise<Outcome[]> {
    const reply = await postJson(config.fetch, config.endpoint, {
      api_key: config.apiKey,
      events,
      options: AMPLITUDE_OPTIONS,
    });
    const all = (outcome: Outcome) => events.map(() => outcome);
    if (!reply.reached) {
      return all(
        failedForNow(
          'amplitude_unreachable',
          { events: events.length, detail: reply.detail },
          noted,
        ),
      );
    }
    if (reply.status >= 200 && reply.status < 300) return all('delivered');
    if (reply.status === 413) {
      if (events.length === 1) {
        logError('amplitude_event_too_large', { insert_id: events[0]?.insert_id });
        return ['dropped'];
      }
      const half = Math.ceil(events.length / 2);
      return [
        ...(await upload(events.slice(0, half), noted)),
        ...(await upload(events.slice(half), noted)),
      ];
    }
    if (reply.status === 400) {
      const detail = errorText(reply.json, reply.text);
      // A wrong key is the operator's to fix, not the events' fault: keep them until it is.
      if (/api.?key/i.test(detail)) {
        return all(failedForNow('amplitude_api_key_invalid', { events: events.length }, noted));
      }
      const rejected = rejectedIndices(reply.json);
      logError('amplitude_rejected', {
        events: events.length,
        rejected: rejected.size > 0 ? rejected.size : events.length,
        detail,
      });
      if (rejected.size === 0 || rejected.size >= events.length) return all('dropped');
      const rest = events.filter((_, index) => !rejected.has(index));
      const restOutcomes = await upload(rest, noted);
      let next = 0;
      return events.map((_, index) =>
        rejected.has(index) ? 'dropped' : (restOutcomes[next++] ?? 'retry'),
      );
    }
    return all(
      failedForNow(
        isTransientStatus(reply.status) ? 'amplitude_unavailable' : 'amplitude_unexpected_status',
        { status: reply.status, events: events.length },
        noted,
      ),
    );
  }

  return {
    name: 'amplitude',
    // npm run smoke's events prove the pipeline to the archive (../smoke-receipts.ts) and stay
    // out of the product's charts.
    takes: (message) => !isSmokeAgent(message.context.user_agent),
    deliver: (messages, noted) => upload(messages.map(amplitudeEvent), noted),
  };
}
