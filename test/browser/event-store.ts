import type { BrowserContext } from 'playwright-core';
import type { StoredEvent } from '../../worker/collector/event-log';
import type { BrowserSession } from './harness';

/**
 * Reading what the worker's collector stored (POST /e → queue → EVENTS_DB `events`) for
 * one visitor, shared by the Chromium analytics tests.
 */

export type StoredVisitorEvent = Omit<StoredEvent, 'properties' | 'context' | 'received_at'> & {
  event_properties: Record<string, unknown>;
};

const ORDER = {
  /** As the collector received them. */
  arrival: 'seq',
  /** As they happened: the visitor's clock, then arrival. */
  happened: 'time, seq',
} as const;

/**
 * The visitor's stored events, in `order`: by default those the browser sent (the funnel story);
 * 'server' for the purchases the worker verified with the product API.
 */
export async function storedEvents(
  session: BrowserSession,
  deviceId: string,
  order: keyof typeof ORDER = 'arrival',
  source: 'browser' | 'server' = 'browser',
): Promise<StoredVisitorEvent[]> {
  const { results } = await session.worker.eventsDb
    .prepare(
      `SELECT seq, insert_id, event_type, time, device_id, user_id, session_id, screen_name, properties
       FROM events WHERE device_id = ?1 AND json_extract(properties, '$.source') = ?2
       ORDER BY ${ORDER[order]}`,
    )
    .bind(deviceId, source)
    .all<Omit<StoredEvent, 'context' | 'received_at'>>();
  return results.map(({ properties, ...row }) => ({
    ...row,
    event_properties: JSON.parse(properties) as Record<string, unknown>,
  }));
}

/** The visitor uuid the worker gave this browser (the events' device_id). */
export async function visitorUuid(context: BrowserContext): Promise<string> {
  const uuid = (await context.cookies()).find((cookie) => cookie.name === 'userUuid')?.value;
  if (!uuid) throw new Error('no userUuid cookie');
  return uuid;
}
