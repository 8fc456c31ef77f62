import { reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, vi } from 'vitest';
import type { CollectedEvent } from '../../../shared/analytics/batch';
import type {
  QueuedBatch,
  QueuedEvent,
  ServerContext,
} from '../../../worker/collector/queued-event';
import { migrate } from '../fresh-storage';

/** A fixed collector clock: 2026-11-22T08:00:00Z. */
export const NOW = Date.UTC(2026, 10, 22, 8, 0, 0);
export const VISITOR = '3f0c4a8e-2b1d-4c5e-9f6a-7b8c9d0e1f2a';

let counter = 0;

/** A valid event, a second before NOW, with a fresh insert_id. */
export function anEvent(overrides: Partial<CollectedEvent> = {}): CollectedEvent {
  counter += 1;
  return {
    event_type: 'screen__load',
    insert_id: `ins-${counter.toString().padStart(6, '0')}-${crypto.randomUUID().slice(0, 8)}`,
    time: NOW - 1000,
    session_id: NOW - 60_000,
    device_id: VISITOR,
    user_id: null,
    event_properties: { screen_name: 'one_pager' },
    ...overrides,
  };
}

/** SPEC.md §3 Purchase tracking payload in a purchase event's properties. */
export function aPurchase(
  properties: Record<string, string | number | null> = {},
  overrides: Partial<CollectedEvent> = {},
): CollectedEvent {
  return anEvent({
    event_type: 'subs_purchase_completed',
    user_id: 'user-42',
    event_properties: {
      screen_name: 'checkout_v3_tr',
      price: 6.99,
      currency: 'USD',
      plan: 'monthly_7d_intro_usd',
      sub_id: 'sub_123',
      event_id: 'evt_abc',
      gclid: null,
      pixelName: 'Purchase_test',
      ...properties,
    },
    ...overrides,
  });
}

function aContext(overrides: Partial<ServerContext> = {}): ServerContext {
  return {
    received_at: NOW,
    ip: '203.0.113.7',
    user_agent: 'Mozilla/5.0 (iPhone) Test',
    country: 'DE',
    page_url: 'https://funnel.test/checkout_v3_tr?gclid=g1',
    ad_cookies: {
      fbc: 'fb.1.1700000000000.click',
      fbp: 'fb.1.1700000000000.1234567890',
      ttp: 'ttp_abcdefghijklmnop',
      ttclid: null,
    },
    consent: 'granted',
    ...overrides,
  };
}

export function aMessage(
  event: CollectedEvent,
  context: Partial<ServerContext> = {},
  source: QueuedEvent['source'] = 'browser',
): QueuedEvent {
  return { v: 1, source, event, context: aContext(context) };
}

/** One `POST /e` batch as the collector queues it: its events and one context. */
export function aBatchMessage(
  events: CollectedEvent[],
  context: Partial<ServerContext> = {},
): QueuedBatch {
  return { v: 2, source: 'browser', events, context: aContext(context) };
}

/** A purchase the worker verified with the product API (worker/purchases/), as it queues it. */
export function aServerMessage(
  event: CollectedEvent,
  context: Partial<ServerContext> = {},
): QueuedEvent {
  return aMessage(event, context, 'server');
}

/**
 * A funnel step the worker saw the visitor take (worker/collector/seen-steps.ts), as it queues
 * it: vouched for by the server, for the experiments alone.
 */
export function aSeenStep(
  event: CollectedEvent,
  context: Partial<ServerContext> = {},
): QueuedEvent {
  return { ...aServerMessage(event, context), only: ['experiment'] };
}

/**
 * Each test starts from the migrated, empty EVENTS_DB (reset() wipes D1), with the worker's log
 * lines silenced and handed back parsed.
 */
export function freshEventsDbPerTest() {
  let log: ReturnType<typeof vi.spyOn> | undefined;
  let error: ReturnType<typeof vi.spyOn> | undefined;
  beforeEach(async () => {
    await migrate(env.EVENTS_DB, env.EVENTS_MIGRATIONS);
    log = vi.spyOn(console, 'log').mockImplementation(() => {});
    error = vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await reset();
  });
  const parsed = (spy: { mock: { calls: unknown[][] } } | undefined) =>
    (spy?.mock.calls ?? []).map(([text]) => JSON.parse(String(text)) as Record<string, unknown>);
  return { lines: () => parsed(log), errors: () => parsed(error) };
}

export async function countRows(table: string): Promise<number> {
  const row = await env.EVENTS_DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{
    n: number;
  }>();
  return row?.n ?? 0;
}

/** Every destination configured, with test event codes (outside production they need them). */
export const EVERY_DESTINATION = {
  AMPLITUDE_API_KEY: 'amp-key',
  META_PIXEL_ID: '1234567890',
  META_ACCESS_TOKEN: 'meta-token',
  META_TEST_EVENT_CODE: 'TEST123',
  TIKTOK_PIXEL_ID: 'CTTPIXEL01',
  TIKTOK_ACCESS_TOKEN: 'tiktok-token',
  TIKTOK_TEST_EVENT_CODE: 'TEST456',
} as const;
