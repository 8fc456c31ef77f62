import type { EventName } from '../../shared/analytics/catalogue';
import type { PageState } from '../protocol';
import { persistedKey } from '../stores/persisted-key';

/**
 * What islands import to report an event: a few hundred bytes, so no screen pays for the tracker
 * (islands/analytics/tracker.ts), which loads once the page is idle. Until it has, events wait
 * here; start.ts keeps them across the navigation if the page is left first.
 */

/** An event as reported, before the tracker gives it ids, a session and the page's properties. */
export interface EmittedEvent {
  name: string;
  properties?: Record<string, unknown>;
  /** Epoch ms when it happened. */
  time: number;
  /**
   * The analytics user id when it happened (null before sign-up): an event that waited for the
   * tracker is not credited to a user who signed up after it. Absent: the tracker's current one.
   */
  userId?: string | null;
}

type Sink = (event: EmittedEvent) => void;

/**
 * localStorage key of the events of pages left before their tracker had loaded (start.ts writes
 * them); the next tracker to load, in any tab and any later visit, sends them with their own
 * page's properties. localStorage, not sessionStorage: the last screen has no next page, and a
 * closed tab takes its sessionStorage with it. Here rather than in start.ts, so the lazy tracker
 * does not import boot's code.
 */
export const EARLY_EVENTS_KEY = 'gf:analytics:early';

export interface EarlyPage {
  page: PageState;
  path: string;
  events: EmittedEvent[];
}

/** A page that never loads the tracker (a dead network) still stops holding events at some point. */
const WAITING_MAX = 200;

let sink: Sink | null = null;
const waiting: EmittedEvent[] = [];

/** The page this document shows, once start.ts has run: where a purchase queued now happened. */
export let shownPage: PageState | null = null;

export function showPage(page: PageState): void {
  shownPage = page;
}

/**
 * The stored `$events.analyticsData.user_id` (islands/stores/events.ts analyticsUserId, persisted
 * as JSON under `gf:events:analyticsData`), read directly so the facade imports no store.
 */
function userIdNow(): string | null {
  try {
    const id: unknown = JSON.parse(
      localStorage.getItem(persistedKey('events', 'analyticsData')) as string,
    )?.user_id;
    return typeof id === 'string' && id !== '' ? id : null;
  } catch {
    return null;
  }
}

/** Reports a funnel event (shared/analytics/catalogue.ts). Never throws into the caller. */
export function emit(name: EventName, properties?: Record<string, unknown>): void {
  const event: EmittedEvent = { name, properties, time: Date.now(), userId: userIdNow() };
  if (!sink) {
    if (waiting.length < WAITING_MAX) waiting.push(event);
    return;
  }
  try {
    sink(event);
  } catch (error) {
    console.warn('[analytics]', error);
  }
}

/** For the tracker: events go to `next` from now on; returns those that waited for it. */
export function connectTracker(next: Sink): EmittedEvent[] {
  sink = next;
  return waiting.splice(0);
}

/** Events still waiting, removed; empty once a tracker is connected (it has them all). */
export function takeWaiting(): EmittedEvent[] {
  return sink ? [] : waiting.splice(0);
}
