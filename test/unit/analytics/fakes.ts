import { vi } from 'vitest';
import type { AnalyticsLog, KeyValueStorage } from '../../../islands/analytics/storage';
import {
  type AnalyticsLimits,
  createTracker,
  type EventOrigin,
  type TrackerOptions,
} from '../../../islands/analytics/tracker-core';
import type { UploadTransport } from '../../../islands/analytics/uploader';
import type { CollectedEvent, EventBatch } from '../../../shared/analytics/batch';
import { ANALYTICS_LIMITS } from '../../../shared/analytics/limits';

/** localStorage as a Map; `broken` makes every call throw as a full or disabled storage does. */
export function memoryStorage() {
  const items = new Map<string, string>();
  const storage = {
    items,
    broken: false,
    getItem(key: string) {
      if (storage.broken) throw new DOMException('denied', 'SecurityError');
      return items.get(key) ?? null;
    },
    setItem(key: string, value: string) {
      if (storage.broken) throw new DOMException('full', 'QuotaExceededError');
      items.set(key, value);
    },
    removeItem(key: string) {
      items.delete(key);
    },
  } satisfies KeyValueStorage & Record<string, unknown>;
  return storage;
}

export function fakeLog() {
  return { info: vi.fn<AnalyticsLog['info']>(), warn: vi.fn<AnalyticsLog['warn']>() };
}

interface Request {
  url: string;
  events: CollectedEvent[];
  bytes: number;
  answer(status: number): void;
}

/** The batch id a request's URL names (`/e?b=…`). */
export const batchOf = (url: string) => new URL(url, 'https://funnel.test').searchParams.get('b');

/**
 * The collector as the tracker sees it: each POST waits until the test answers it (or answers at
 * once with `autoAnswer`), each beacon is recorded and taken until `beaconQuota` are. `acked`
 * is the acknowledgement cookie: the test puts there the batches the collector received;
 * `cookies: false` is a browser that keeps none.
 */
function fakeTransport() {
  const transport = {
    requests: [] as Request[],
    beacons: [] as { url: string; events: CollectedEvent[]; bytes: number }[],
    autoAnswer: null as number | null,
    /** How many beacons the browser takes before its quota is full; Infinity by default. */
    beaconQuota: Number.POSITIVE_INFINITY,
    acked: [] as string[],
    cookies: true,
    acknowledged: vi.fn<UploadTransport['acknowledged']>((): string[] | null =>
      transport.cookies ? transport.acked.splice(0) : null,
    ),
    /** The collector received every beacon sent so far: their acknowledgements wait in the cookie. */
    deliverBeacons(): void {
      for (const beacon of transport.beacons) transport.acked.push(batchOf(beacon.url) ?? '');
    },
    post: vi.fn<UploadTransport['post']>(
      (url, body) =>
        new Promise<number>((resolve) => {
          const events = (JSON.parse(body) as EventBatch).events;
          const request = { url, events, bytes: new TextEncoder().encode(body).length };
          transport.requests.push({ ...request, answer: resolve });
          if (transport.autoAnswer !== null) resolve(transport.autoAnswer);
        }),
    ),
    beacon: vi.fn<UploadTransport['beacon']>((url, body) => {
      if (transport.beacons.length >= transport.beaconQuota) return false;
      const events = (JSON.parse(body) as EventBatch).events;
      transport.beacons.push({ url, events, bytes: new TextEncoder().encode(body).length });
      return true;
    }),
    /** The request not answered yet. */
    pending(): Request {
      const request = transport.requests.at(-1);
      if (!request) throw new Error('no request was sent');
      return request;
    },
  };
  return transport;
}

export const PAGE: EventOrigin = {
  properties: {
    screen_name: 'one_pager',
    variant: 'default',
    flow: 'default',
    config_version: 'v1',
  },
  deviceId: '5f0c6a8e-3b1d-4c2a-9e7f-1a2b3c4d5e6f',
};

/** Names of events, for assertions that read like the funnel. */
export const names = (events: readonly CollectedEvent[]) => events.map((event) => event.event_type);

/** A tracker on fake time (vi.useFakeTimers) with fakes for everything it touches. */
export function trackerUnderTest(overrides: Partial<TrackerOptions> = {}) {
  const storage = memoryStorage();
  const transport = fakeTransport();
  const log = fakeLog();
  const heard: CollectedEvent[] = [];
  let id = 0;
  let batch = 0;
  const limits: AnalyticsLimits = { ...ANALYTICS_LIMITS };
  const tracker = createTracker({
    origin: PAGE,
    collector: '/e',
    storage,
    transport,
    timers: { setTimeout, clearTimeout: (handle) => clearTimeout(handle as number) },
    now: Date.now,
    randomId: () => `insert-${String(++id).padStart(4, '0')}`,
    batchId: () => (++batch).toString(16).padStart(12, '0'),
    userId: () => null,
    notify: (event) => heard.push(event),
    log,
    limits,
    ...overrides,
  });
  return { tracker, storage, transport, log, heard, limits };
}

/** Lets resolved promises (an answered request) run their continuations. */
export async function settle(): Promise<void> {
  await vi.advanceTimersByTimeAsync(0);
}
