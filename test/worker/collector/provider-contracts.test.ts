import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PLAN_CATALOGUE } from '../../../shared/plans/catalogue';
import type { QueuedEvent } from '../../../worker/collector/queued-event';
import { asDeliveries, consumer } from './consume';
import { allAccept, fakeEndpoint, META_HOST, type SeenRequest, TIKTOK_HOST } from './fake-endpoint';
import {
  aMessage,
  anEvent,
  aPurchase,
  aServerMessage,
  EVERY_DESTINATION,
  freshEventsDbPerTest,
  NOW,
} from './fixtures';

/**
 * What each destination is sent, held to a schema written from that provider's
 * own documentation (required fields, formats, hashing), so a drift fails here and not in a
 * campaign. The requests are the consumer's own, built from generated purchases and visitors
 * (fast-check): every request of every run must pass its provider's schema.
 */

freshEventsDbPerTest();

const SHA256 = z.string().regex(/^[0-9a-f]{64}$/, 'SHA-256, lower-case hex');
const ISO_4217 = z.string().regex(/^[A-Z]{3}$/, 'ISO 4217, upper case');
/** An address as the visitor's request had it: IPv4 or IPv6, never hashed. */
const IP = z.union([z.ipv4(), z.ipv6()]);
const SEVEN_DAYS_S = 7 * 24 * 60 * 60;
/** Unix seconds, not milliseconds: at most 7 days old and not in the future. */
const EVENT_TIME_S = z
  .number()
  .int()
  .refine((seconds) => seconds <= NOW / 1000 && seconds >= NOW / 1000 - SEVEN_DAYS_S, {
    message: 'Unix seconds within the last 7 days',
  });

/**
 * Meta Conversions API, POST /{version}/{pixel_id}/events.
 * https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/server-event
 * ("event_time: Unix timestamp in seconds … up to 7 days before"; website events require
 * action_source, event_source_url and client_user_agent),
 * https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/customer-information-parameters
 * (em: SHA-256 of the trimmed lower-case email, hashing required; external_id hashing
 * recommended; client_ip_address, client_user_agent, fbc, fbp: do not hash),
 * https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/custom-data
 * (a Purchase requires currency and value).
 */
const MetaRequest = z
  .object({
    data: z
      .array(
        z
          .object({
            event_name: z.literal('Purchase'),
            event_time: EVENT_TIME_S,
            event_id: z.string().min(1),
            action_source: z.literal('website'),
            event_source_url: z.url(),
            user_data: z
              .object({
                client_ip_address: IP.optional(),
                client_user_agent: z.string().min(1),
                fbc: z
                  .string()
                  .regex(/^fb\.[0-2]\.\d{10,16}\.\S+$/)
                  .optional(),
                fbp: z
                  .string()
                  .regex(/^fb\.[0-2]\.\d{10,16}\.\d+$/)
                  .optional(),
                external_id: z.array(SHA256).min(1),
                em: z.array(SHA256).min(1).optional(),
              })
              .strict(),
            custom_data: z.object({ currency: ISO_4217, value: z.number().nonnegative() }).strict(),
          })
          .strict(),
      )
      .min(1)
      .max(1000),
    access_token: z.string().min(1),
    test_event_code: z.string().min(1).optional(),
  })
  .strict();

/**
 * TikTok Events API 2.0, POST /open_api/v1.3/event/track/ with the Access-Token header.
 * https://business-api.tiktok.com/portal/docs?id=1771101276978178 (event_source "web" with the
 * pixel code as event_source_id; event_time in seconds; user.email and user.external_id SHA-256;
 * ttp the _ttp cookie, ttclid the click id, ip and user_agent unhashed; properties.currency and
 * value for value-based optimisation; page.url).
 */
const TikTokRequest = z
  .object({
    event_source: z.literal('web'),
    event_source_id: z.string().min(1),
    test_event_code: z.string().min(1).optional(),
    data: z
      .array(
        z
          .object({
            event: z.literal('CompletePayment'),
            event_time: EVENT_TIME_S,
            event_id: z.string().min(1),
            user: z
              .object({
                ttp: z.string().min(1).optional(),
                ttclid: z.string().min(1).optional(),
                ip: IP.optional(),
                user_agent: z.string().min(1).optional(),
                external_id: SHA256,
                email: SHA256.optional(),
              })
              .strict(),
            properties: z.object({ currency: ISO_4217, value: z.number().nonnegative() }).strict(),
            page: z.object({ url: z.url() }).strict().optional(),
          })
          .strict(),
      )
      .min(1)
      .max(1000),
  })
  .strict();

/**
 * Amplitude Batch Event Upload, POST https://api2.amplitude.com/batch.
 * https://amplitude.com/docs/apis/analytics/batch-event-upload (api_key, events; event_type and a
 * user_id or device_id of at least options.min_id_length characters, 5 by default; time in
 * milliseconds; insert_id for de-duplication), and
 * https://amplitude.com/docs/data/sources/instrument-track-revenue ("HTTP API: set the price,
 * quantity, currency, and revenue fields"; revenue = price × quantity; $currency 3-letter upper
 * case ISO 4217).
 */
const AmplitudeEvent = z
  .object({
    event_type: z.string().min(1),
    device_id: z.string().min(1).optional(),
    user_id: z.string().min(1).optional(),
    time: z.number().int().gt(1e12, 'milliseconds'),
    session_id: z.number().int(),
    insert_id: z.string().min(1).max(256),
    event_properties: z.record(z.string(), z.unknown()),
    platform: z.string(),
    ip: IP.optional(),
    country: z.string().optional(),
    price: z.number().nonnegative().optional(),
    quantity: z.number().int().positive().optional(),
    revenue: z.number().nonnegative().optional(),
    currency: ISO_4217.optional(),
    revenueType: z.enum(['subscription', 'upsell', 'one_time']).optional(),
    productId: z.string().min(1).optional(),
  })
  .strict()
  .refine((event) => event.device_id !== undefined || event.user_id !== undefined, {
    message: 'user_id or device_id',
  })
  .refine(
    (event) =>
      event.price === undefined ||
      (event.quantity !== undefined &&
        event.currency !== undefined &&
        event.revenue !== undefined &&
        Math.abs(event.revenue - event.price * event.quantity) < 1e-9),
    { message: 'revenue carries price, quantity, currency and revenue = price × quantity' },
  );
const AmplitudeRequest = z
  .object({
    api_key: z.string().min(1),
    events: z.array(AmplitudeEvent).min(1),
    options: z.object({ min_id_length: z.number().int().positive() }).strict(),
  })
  .strict()
  .superRefine((request, issues) => {
    for (const event of request.events) {
      for (const id of [event.user_id, event.device_id]) {
        if (id !== undefined && id.length < request.options.min_id_length) {
          issues.addIssue({ code: 'custom', message: `id shorter than min_id_length: ${id}` });
        }
      }
    }
  });

const PLAN_IDS: string[] = PLAN_CATALOGUE.map((plan) => plan.id);

/** A server-verified purchase as any visitor and product API may make it. */
const purchases = fc.record({
  cents: fc.integer({ min: 0, max: 100_000 }),
  currency: fc.constantFrom('USD', 'EUR', 'usd', 'eur'),
  plan: fc.option(fc.constantFrom(...PLAN_IDS), { nil: null }),
  eventId: fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/), { nil: null }),
  userId: fc.option(fc.stringMatching(/^[A-Za-z0-9]{1,12}$/), { nil: null }),
  upsell: fc.boolean(),
  ttclid: fc.option(fc.stringMatching(/^[A-Za-z0-9._~-]{1,60}$/), { nil: null }),
  keptTtclid: fc.option(fc.stringMatching(/^[A-Za-z0-9._~-]{1,60}$/), { nil: null }),
  fbc: fc.option(fc.constant('fb.1.1700000000000.IwAR-click'), { nil: null }),
  ttp: fc.option(
    fc.constantFrom('01JV8BFN75M3CKD94GVAWSG07T_.tt.1', '3d9f2c1be0a94c4f8a6b2d7e9c1f0a5b'),
    { nil: null },
  ),
  email: fc.option(fc.stringMatching(/^[0-9a-f]{64}$/), { nil: undefined }),
  consent: fc.constantFrom('granted' as const, 'not_required' as const),
  ip: fc.constantFrom('203.0.113.7', '2001:db8::1'),
});

type GeneratedPurchase = typeof purchases extends fc.Arbitrary<infer T> ? T : never;

function messageOf(p: GeneratedPurchase): QueuedEvent {
  const event = aPurchase(
    {
      price: p.cents / 100,
      currency: p.currency,
      plan: p.plan,
      event_id: p.eventId,
      sub_id: `sub_${crypto.randomUUID()}`,
      tt_click_id: p.ttclid,
    },
    {
      event_type: p.upsell ? 'upsell_purchase_completed' : 'subs_purchase_completed',
      user_id: p.userId,
    },
  );
  return aServerMessage(event, {
    ip: p.ip,
    consent: p.consent,
    ad_cookies: {
      fbc: p.fbc,
      fbp: 'fb.1.1700000000000.1234567890',
      ttp: p.ttp,
      ttclid: p.keptTtclid,
    },
    ...(p.email ? { buyer_email_sha256: p.email } : {}),
  });
}

/** Every request the consumer makes for these messages, by destination. */
async function requestsFor(messages: QueuedEvent[]) {
  const endpoint = fakeEndpoint(allAccept);
  const result = await consumer(EVERY_DESTINATION, endpoint).run(asDeliveries(messages));
  expect(result.retried).toEqual([]);
  return {
    meta: endpoint.to(META_HOST),
    tiktok: endpoint.to(TIKTOK_HOST),
    amplitude: endpoint.to('api2.amplitude.com'),
  };
}

function expectValid(schema: z.ZodType, request: SeenRequest, provider: string) {
  const checked = schema.safeParse(request.body);
  if (!checked.success) {
    throw new Error(`${provider} request off its documented contract: ${checked.error.message}`);
  }
}

describe("each provider's request, as its documentation describes it", () => {
  it('Meta, TikTok and Amplitude: every request for any purchase passes its schema', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(purchases, { minLength: 1, maxLength: 3 }), async (batch) => {
        const messages = [...batch.map(messageOf), aMessage(anEvent())];
        const { meta, tiktok, amplitude } = await requestsFor(messages);
        expect(meta).toHaveLength(batch.length);
        expect(tiktok).toHaveLength(batch.length);
        expect(amplitude.length).toBeGreaterThan(0);
        for (const request of meta) expectValid(MetaRequest, request, 'Meta');
        for (const request of tiktok) {
          expectValid(TikTokRequest, request, 'TikTok');
          expect(request.headers.get('access-token')).toBe('tiktok-token');
        }
        for (const request of amplitude) expectValid(AmplitudeRequest, request, 'Amplitude');
      }),
      { numRuns: 25 },
    );
  });

  it('the schemas catch a drift: milliseconds, an unhashed email, a lower-case currency', () => {
    const good = {
      data: [
        {
          event_name: 'Purchase',
          event_time: Math.floor(NOW / 1000) - 1,
          event_id: 'evt_1',
          action_source: 'website',
          event_source_url: 'https://funnel.test/checkout',
          user_data: { client_user_agent: 'UA', external_id: ['a'.repeat(64)] },
          custom_data: { currency: 'USD', value: 6.99 },
        },
      ],
      access_token: 't',
    };
    expect(MetaRequest.safeParse(good).success).toBe(true);
    const drifted = (change: (event: Record<string, unknown>) => void) => {
      const copy = structuredClone(good);
      change(copy.data[0] as unknown as Record<string, unknown>);
      return MetaRequest.safeParse(copy).success;
    };
    expect(drifted((event) => (event.event_time = NOW - 1000))).toBe(false);
    expect(
      drifted(
        (event) => ((event.user_data as Record<string, unknown>).em = ['buyer@example.test']),
      ),
    ).toBe(false);
    expect(
      drifted((event) => ((event.custom_data as Record<string, unknown>).currency = 'usd')),
    ).toBe(false);
    expect(drifted((event) => delete event.event_source_url)).toBe(false);
  });
});
