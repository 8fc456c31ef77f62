import type { CollectedEvent } from '../../shared/analytics/batch';
import { ANALYTICS_LIMITS } from '../../shared/analytics/limits';
import { collectedEvent, type EventProperties, eventProperties } from './build-event';
import { createEventQueue } from './queue';
import { createSessionClock } from './session';
import type { AnalyticsLog, KeyValueStorage } from './storage';
import { createUploader, type Timers, type UploadTransport } from './uploader';

/** Who and where an event comes from: the page it happened on. */
export interface EventOrigin {
  /** The page's properties (build-event.ts pageProperties): screen_name first. */
  properties: EventProperties;
  /** The visitor uuid: the event's device_id. */
  deviceId: string;
}

export interface TrackerOptions {
  /** The page this tracker runs on. */
  origin: EventOrigin;
  /** Where batches go (`/e`), or null when analytics is switched off: nothing is sent. */
  collector: string | null;
  storage: KeyValueStorage | null;
  transport: UploadTransport;
  timers: Timers;
  now: () => number;
  /** A fresh insert_id. */
  randomId: () => string;
  /** A fresh batch id (shared/analytics/acknowledgement.ts). */
  batchId: () => string;
  /** The analytics user id once the visitor signed up (SPEC.md §4 Signup), else null. */
  userId: () => string | null;
  /** Hears every event tracked (listeners.ts), whether or not it is sent. */
  notify: (event: CollectedEvent) => void;
  log: AnalyticsLog;
  /** ANALYTICS_LIMITS unless a test makes them smaller. */
  limits?: AnalyticsLimits;
}

export type AnalyticsLimits = { -readonly [Limit in keyof typeof ANALYTICS_LIMITS]: number };

export interface TrackOptions {
  /** When it happened (epoch ms); now by default. */
  time?: number;
  /** The page it happened on, when not this one (an event handed over from an earlier page). */
  origin?: EventOrigin;
  /**
   * The analytics user id when it happened (null: none yet), for an event recorded later than
   * it happened; the current one (TrackerOptions.userId) when absent.
   */
  userId?: string | null;
}

/** SPEC.md §7: "events are dropped with 'No request sent' when no API key is set". */
const NO_REQUEST_SENT = 'No request sent';

/**
 * The analytics client: builds each event (ids, session, the page's properties), keeps it in the
 * stored queue and uploads by the rules of uploader.ts. Pure of the DOM: storage, clock, timers,
 * transport and ids come in, so every rule is unit-tested.
 */
export function createTracker(options: TrackerOptions) {
  const limits: AnalyticsLimits = options.limits ?? ANALYTICS_LIMITS;
  const { collector, log, now } = options;
  const queue = createEventQueue({ storage: options.storage, maxCount: limits.savedMaxCount, log });
  const sessions = createSessionClock({
    storage: options.storage,
    timeoutMs: limits.sessionTimeoutMs,
    log,
  });
  // The uploader takes its transport, clock, timers, log and batch ids from these options.
  const uploader = collector ? createUploader({ ...options, queue, url: collector, limits }) : null;
  let saidNoRequest = false;

  function build(
    name: string,
    time: number,
    own: Record<string, unknown> | undefined,
    origin: EventOrigin,
    sessionId: number,
    userId: string | null,
  ): CollectedEvent | null {
    const event = collectedEvent(
      { name, time, properties: eventProperties(origin.properties, own, limits) },
      {
        insertId: options.randomId(),
        sessionId,
        deviceId: origin.deviceId,
        userId,
      },
    );
    if (!event) log.warn(`event "${name.slice(0, 140)}" dropped: not a valid event name`);
    return event;
  }

  function track(
    name: string,
    properties?: Record<string, unknown>,
    trackOptions: TrackOptions = {},
  ): CollectedEvent | null {
    const time = trackOptions.time ?? now();
    const origin = trackOptions.origin ?? options.origin;
    const userId = trackOptions.userId !== undefined ? trackOptions.userId : options.userId();
    const { session, started } = sessions.at(time);
    const start = started
      ? build('session_start', session.id, undefined, origin, session.id, userId)
      : null;
    const event = build(name, time, properties, origin, session.id, userId);
    const events = [start, event].filter((each): each is CollectedEvent => each !== null);
    for (const each of events) options.notify(each);
    if (!uploader) {
      if (!saidNoRequest) log.info(`${NO_REQUEST_SENT}: analytics is switched off on this page`);
      saidNoRequest = true;
    } else if (events.length > 0) {
      queue.add(events);
      uploader.added();
    }
    return event;
  }

  return {
    track,
    /** Uploads what is ready now (the period does this by itself). */
    flush: (): Promise<void> => uploader?.flush() ?? Promise.resolve(),
    /** The page is being hidden or left: sends what is ready by beacon. */
    sendByBeacon: (): number => uploader?.sendByBeacon() ?? 0,
    /** Starts the SPEC.md §9 upload period. */
    start: (): void => uploader?.start(),
    stop: (): void => uploader?.stop(),
    queue,
    uploader,
  };
}

export type Tracker = ReturnType<typeof createTracker>;
