import * as z from 'zod';
import { ANALYTICS_LIMITS } from './limits';

/**
 * One event as the browser sends it to the first-party collector `POST /e` (ARCHITECTURE.md),
 * Amplitude's event shape: the collector forwards it to an Amplitude-compatible batch API as is.
 */
const EventName = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[a-z0-9_-]+$/i);

const Property = z.union([
  z.string().max(ANALYTICS_LIMITS.stringLimit),
  z.number(),
  z.boolean(),
  z.null(),
]);

export const CollectedEvent = z.object({
  event_type: EventName,
  /**
   * De-duplication key: the same event resent (a retried batch, a beacon) counts once. Visible
   * ASCII only (the tracker sends a uuid): an id is printed in logs and by the operators' tools,
   * where a control character would be a terminal's command.
   */
  insert_id: z
    .string()
    .min(8)
    .max(64)
    .regex(/^[\x21-\x7e]+$/, 'must be visible ASCII characters'),
  /** Epoch ms on the visitor's clock. */
  time: z.number().int().nonnegative(),
  /** Epoch ms of the session's start (SPEC.md §9 session timeout 30 minutes). */
  session_id: z.number().int().nonnegative(),
  /** The visitor uuid (SPEC.md §4 Visitor uuid). */
  device_id: z.string().min(1).max(64),
  /** The portal's external user id once signed up (SPEC.md §4 Signup: an analytics user id). */
  user_id: z.string().min(1).max(128).nullable(),
  /**
   * screen_name (SPEC.md §3), variant, flow, config_version, and the event's own properties;
   * at most 1000 (SPEC.md §9), each a string up to 4096 characters, a number, a boolean or null.
   */
  event_properties: z
    .record(z.string().max(256), Property)
    .refine((properties) => Object.keys(properties).length <= ANALYTICS_LIMITS.propertyLimit, {
      message: `more than ${ANALYTICS_LIMITS.propertyLimit} properties`,
    })
    .refine((properties) => typeof properties.screen_name === 'string', {
      message: 'screen_name missing',
    }),
});
export type CollectedEvent = z.infer<typeof CollectedEvent>;

/** The body of `POST /e`: 1 to 100 events. */
export const EventBatch = z.object({
  events: z.array(CollectedEvent).min(1).max(ANALYTICS_LIMITS.batchSize),
});
export type EventBatch = z.infer<typeof EventBatch>;

/** The collector's answer to an accepted batch: how many were new and how many seen before. */
export const CollectorAnswer = z.object({ accepted: z.number(), duplicates: z.number() });
export type CollectorAnswer = z.infer<typeof CollectorAnswer>;
