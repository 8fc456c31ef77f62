import { type AnalyticsLog, type KeyValueStorage, storedValue } from './storage';

/** localStorage key of the visitor's current session, shared by their tabs. */
export const SESSION_KEY = 'gf:analytics:session';

export interface Session {
  /** Epoch ms the session started: the events' session_id. */
  id: number;
  /** Epoch ms of its latest event. */
  last: number;
}

/**
 * SPEC.md §9 session timeout: an event more than `timeoutMs` after the session's latest one
 * starts a new session, whose id is that event's time. An event older than the latest (one
 * handed over from an earlier page) stays in the current session.
 */
export function advanceSession(
  current: Session | null,
  time: number,
  timeoutMs: number,
): { session: Session; started: boolean } {
  if (current && time - current.last <= timeoutMs) {
    return { session: { id: current.id, last: Math.max(current.last, time) }, started: false };
  }
  return { session: { id: time, last: time }, started: true };
}

function parseSession(json: unknown): Session | null {
  const { id, last } = (json ?? {}) as Partial<Session>;
  return Number.isInteger(id) && Number.isInteger(last) ? { id: id!, last: last! } : null;
}

/** The session in localStorage: each event moves it on, and says when a new one began. */
export function createSessionClock(options: {
  storage: KeyValueStorage | null;
  timeoutMs: number;
  log: AnalyticsLog;
}) {
  const stored = storedValue<Session | null>({
    storage: options.storage,
    key: SESSION_KEY,
    parse: parseSession,
    initial: () => null,
    log: options.log,
  });
  return {
    /** The session an event at `time` belongs to, and whether it started with it. */
    at(time: number): { session: Session; started: boolean } {
      const next = advanceSession(stored.get(), time, options.timeoutMs);
      stored.set(next.session);
      return next;
    },
  };
}
