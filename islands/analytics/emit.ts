import type { EventName } from '../../shared/analytics/catalogue';
import type { PageState } from '../protocol';

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
}

type Sink = (event: EmittedEvent) => void;

/**
 * sessionStorage key of the events of pages this tab left before their tracker had loaded
 * (start.ts writes them); the next page's tracker sends them with their own page's properties.
 * Here rather than in start.ts, so the lazy tracker does not import boot's code.
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

/** Reports a funnel event (shared/analytics/catalogue.ts). Never throws into the caller. */
export function emit(name: EventName, properties?: Record<string, unknown>): void {
  const event: EmittedEvent = { name, properties, time: Date.now() };
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
