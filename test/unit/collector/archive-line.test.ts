import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CollectedEvent } from '../../../shared/analytics/batch';
import { fromNdjson, toNdjson } from '../../../worker/collector/archive-layout';
import {
  ARCHIVE_LINE_VERSION,
  type ArchiveLine,
  archiveLine,
  readLine,
} from '../../../worker/collector/archive-line';
import type { QueuedEvent, ServerContext } from '../../../worker/collector/queued-event';
import { USER_DATA_KEYS } from '../../../worker/collector/user-data';

const RECEIVED = Date.UTC(2026, 10, 22, 8, 30, 0, 250);
const VISITOR = '3f0c4a8e-2b1d-4c5e-9f6a-7b8c9d0e1f2a';

const CONTEXT: ServerContext = {
  received_at: RECEIVED,
  ip: '203.0.113.7',
  user_agent: 'Mozilla/5.0 (iPhone) Test',
  country: 'DE',
  page_url: 'https://funnel.test/checkout_v3_tr',
  consent: 'granted',
  visitor_id: VISITOR,
  ad_cookies: { fbc: 'fb.1.1.click', fbp: 'fb.1.1.2', ttp: null, ttclid: null },
};

/** SPEC.md §3's tracking user data, flat among the properties as the tracker sends it. */
const TRACKING = {
  uuid: VISITOR,
  fbc: 'fb.1.1700000000000.click',
  fbp: 'fb.1.1700000000000.1234567890',
  fb_click_id: 'click',
  source_url: 'https%3A%2F%2Fapp.example.com',
  appsflyer_id: 'af-1',
};

function anEvent(overrides: Partial<CollectedEvent> = {}): CollectedEvent {
  return {
    event_type: 'screen__load',
    insert_id: 'ins-00000001',
    time: RECEIVED - 1500,
    session_id: RECEIVED - 60_000,
    device_id: VISITOR,
    user_id: null,
    event_properties: { screen_name: 'one_pager', variant: 'b', source: 'meta', ...TRACKING },
    ...overrides,
  };
}

function queued(event: CollectedEvent, source: QueuedEvent['source'] = 'browser'): QueuedEvent {
  return { v: 1, source, event, context: CONTEXT };
}

const SERVER_PURCHASE = anEvent({
  event_type: 'subs_purchase_completed',
  insert_id: 'srv_0b7a6c1e-52b8-4f0e-9a43-8f7d1c2b3a4d',
  session_id: 0,
  user_id: '12345',
  event_properties: {
    screen_name: 'checkout_v3_tr',
    price: 6.99,
    currency: 'usd',
    plan: 'monthly_7d_intro_usd',
    sub_id: 'sub_123',
    event_id: 'evt_abc',
    fb_click_id: 'click',
    tt_click_id: null,
  },
});

describe('an archive line', () => {
  it('is typed for a warehouse: version, ISO times, string ids, user_data as one object', () => {
    const line = archiveLine(queued(anEvent({ user_id: '42' })));
    expect(line).toEqual({
      v: 2,
      insert_id: 'ins-00000001',
      event_type: 'screen__load',
      source: 'browser',
      time: '2026-11-22T08:29:58.750Z',
      received_at: '2026-11-22T08:30:00.250Z',
      device_id: VISITOR,
      user_id: '42',
      session_id: String(RECEIVED - 60_000),
      screen_name: 'one_pager',
      // Neither the browser's own `source` nor a user_data field stays among the properties.
      event_properties: { screen_name: 'one_pager', variant: 'b', appsflyer_id: 'af-1' },
      user_data: {
        uuid: VISITOR,
        fbc: TRACKING.fbc,
        fbp: TRACKING.fbp,
        fb_click_id: 'click',
        ttp: null,
        tt_click_id: null,
        source_url: TRACKING.source_url,
        google_click_id: null,
      },
      revenue: null,
      currency: null,
      revenue_type: null,
      product_id: null,
      context: {
        ip: '203.0.113.7',
        user_agent: 'Mozilla/5.0 (iPhone) Test',
        country: 'DE',
        page_url: 'https://funnel.test/checkout_v3_tr',
        consent: 'granted',
        visitor_id: VISITOR,
        buyer_email_sha256: null,
        ad_cookies: CONTEXT.ad_cookies,
      },
    });
  });

  it('a server-verified purchase carries its revenue, outside any session', () => {
    const line = archiveLine(queued(SERVER_PURCHASE, 'server'));
    expect(line).toMatchObject({
      source: 'server',
      session_id: null,
      revenue: 6.99,
      currency: 'USD',
      revenue_type: 'subscription',
      product_id: 'monthly_7d_intro_usd',
      user_data: { uuid: VISITOR, fb_click_id: 'click', tt_click_id: null },
    });
  });

  it('a purchase a browser reports is never revenue, whatever `source` it claims', () => {
    const claimed = anEvent({
      ...SERVER_PURCHASE,
      event_properties: { ...SERVER_PURCHASE.event_properties, source: 'server' },
    });
    const line = archiveLine(queued(claimed, 'browser'));
    expect(line.source).toBe('browser');
    expect(line.revenue).toBeNull();
    expect(line.event_properties).not.toHaveProperty('source');
  });

  it('has the same keys and types on every line, whatever the properties (property)', () => {
    const keys = Object.keys(archiveLine(queued(anEvent()))).sort();
    const value = fc.oneof(
      fc.string(),
      fc.double({ noNaN: true }),
      fc.boolean(),
      fc.constant(null),
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 20 }), value, { maxKeys: 30 }),
        fc.constantFrom<QueuedEvent['source']>('browser', 'server'),
        fc.constantFrom('screen__load', 'subs_purchase_completed', 'upsell_purchase_completed'),
        fc.integer({ min: 0, max: 2 ** 45 }),
        (properties, source, eventType, sessionId) => {
          const line = archiveLine(
            queued(
              anEvent({
                event_type: eventType,
                session_id: sessionId,
                event_properties: { ...properties, screen_name: 's' },
              }),
              source,
            ),
          );
          expect(Object.keys(line).sort()).toEqual(keys);
          expect(Object.keys(line.user_data)).toEqual([...USER_DATA_KEYS]);
          for (const field of Object.values(line.user_data)) {
            expect(field === null || typeof field === 'string').toBe(true);
          }
          expect(line.session_id === null || /^\d+$/.test(line.session_id)).toBe(true);
          expect(new Date(line.time).toISOString()).toBe(line.time);
          expect(line.event_properties).not.toHaveProperty('source');
          for (const key of USER_DATA_KEYS) expect(line.event_properties).not.toHaveProperty(key);
          // Revenue only ever on a server purchase.
          if (line.revenue !== null) expect(line.source).toBe('server');
        },
      ),
    );
  });
});

describe('reading the archive', () => {
  /** A line as objects written before the line version existed hold it. */
  const V1_LINE = {
    insert_id: 'srv_1',
    event_type: 'subs_purchase_completed',
    time: RECEIVED - 1500,
    received_at: RECEIVED,
    device_id: VISITOR,
    user_id: 'user-42',
    session_id: 0,
    screen_name: 'checkout_v3_tr',
    event_properties: {
      ...SERVER_PURCHASE.event_properties,
      uuid: VISITOR,
      fbc: 'fb.1.1.click',
      source: 'server',
    },
    context: { ...CONTEXT, received_at: RECEIVED },
  };

  it('reads its own lines back as written', () => {
    const lines = [archiveLine(queued(anEvent())), archiveLine(queued(SERVER_PURCHASE, 'server'))];
    expect(fromNdjson(toNdjson(lines))).toEqual(lines);
  });

  it('reads a version-1 line in the current shape', () => {
    const line: ArchiveLine = readLine(V1_LINE);
    expect(line).toMatchObject({
      v: ARCHIVE_LINE_VERSION,
      source: 'server',
      time: '2026-11-22T08:29:58.750Z',
      received_at: '2026-11-22T08:30:00.250Z',
      session_id: null,
      revenue: 6.99,
      currency: 'USD',
      user_data: { uuid: VISITOR, fbc: 'fb.1.1.click', fb_click_id: 'click', ttp: null },
      context: { visitor_id: VISITOR, buyer_email_sha256: null },
    });
    expect(line.event_properties).toEqual({
      screen_name: 'checkout_v3_tr',
      price: 6.99,
      currency: 'usd',
      plan: 'monthly_7d_intro_usd',
      sub_id: 'sub_123',
      event_id: 'evt_abc',
    });
    expect(line.context).not.toHaveProperty('received_at');
  });

  it('refuses a line of a version newer than it knows, rather than misread it', () => {
    expect(() => readLine({ ...archiveLine(queued(anEvent())), v: 3 })).toThrow(/version 3/);
  });
});
