import type { QueuedEvent, ServerContext } from './queued-event';

/**
 * What the local store (event-log.ts, development only) keeps of one queued event: one row. The
 * archive's lines have a shape of their own, typed for a warehouse (archive-line.ts).
 */
export interface EventRecord {
  insert_id: string;
  event_type: string;
  /** Epoch ms on the visitor's clock. */
  time: number;
  /** Epoch ms on the collector's clock. */
  received_at: number;
  device_id: string;
  user_id: string | null;
  session_id: number;
  screen_name: string | null;
  /** The event's properties, with the message's `source`. */
  event_properties: Record<string, string | number | boolean | null>;
  /** What only the server knew about the request that carried the event. */
  context: ServerContext;
}

export function eventRecord({ source, event, context }: QueuedEvent): EventRecord {
  const screen = event.event_properties.screen_name;
  return {
    insert_id: event.insert_id,
    event_type: event.event_type,
    time: event.time,
    received_at: context.received_at,
    device_id: event.device_id,
    user_id: event.user_id,
    session_id: event.session_id,
    screen_name: typeof screen === 'string' ? screen : null,
    // Who vouches for it, from the message: a browser's own `source` property never survives.
    event_properties: { ...event.event_properties, source },
    context,
  };
}
