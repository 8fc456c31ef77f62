import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import { SMOKE_AGENT, SMOKE_RECEIPTS_PATH } from '../../../shared/analytics/smoke';
import { SMOKE_RECEIPT_PREFIX } from '../../../worker/collector/smoke-receipts';
import { freshApp, ORIGIN } from '../fetch-app';
import { asDeliveries, consumer } from './consume';
import { fakeEndpoint, json } from './fake-endpoint';
import {
  aBatchMessage,
  anEvent,
  aPurchase,
  aServerMessage,
  freshEventsDbPerTest,
} from './fixtures';

freshEventsDbPerTest();

/**
 * `npm run smoke`'s proof that its events reached the event archive (docs/operate.md, "After a
 * deploy"): the consumer writes a receipt for each archived event sent with the smoke's agent,
 * and `GET /e/smoke` lists the asking visitor's, to nobody else.
 */

const SMOKER = 'a1b2c3d4-0000-4000-8000-00000000beef';
const SOMEONE = 'a1b2c3d4-0000-4000-8000-00000000f00d';
const SMOKE_CONTEXT = { user_agent: SMOKE_AGENT, visitor_id: SMOKER };

function archive(): R2Bucket {
  if (!env.EVENTS_ARCHIVE) throw new Error('wrangler.toml [env.development] binds EVENTS_ARCHIVE');
  return env.EVENTS_ARCHIVE;
}

afterEach(async () => {
  const receipts = await archive().list({ prefix: SMOKE_RECEIPT_PREFIX });
  if (receipts.objects.length > 0) await archive().delete(receipts.objects.map(({ key }) => key));
});

/** `GET /e/smoke` as a page of the funnel asks it, as `visitor` from `ip`. */
function ask(
  fetchApp: ReturnType<typeof freshApp>,
  visitor: string | null,
  headers: Record<string, string> = {},
) {
  return fetchApp(SMOKE_RECEIPTS_PATH, {
    headers: {
      origin: ORIGIN,
      'sec-fetch-site': 'same-origin',
      'cf-connecting-ip': '198.51.100.20',
      ...(visitor ? { cookie: `userUuid=${visitor}` } : {}),
      ...headers,
    },
  });
}

describe('receipts of the smoke’s events', () => {
  it('are written for the smoke’s archived events alone, and kept out of Amplitude', async () => {
    const amplitude = fakeEndpoint(() => json(200, { code: 200 }));
    const beacon = anEvent({ insert_id: 'smoke-beacon', device_id: SMOKER });
    const purchase = aPurchase({}, { insert_id: 'srv_smoke-purchase', device_id: SMOKER });
    const visitor = anEvent({ insert_id: 'a-visitor', device_id: SOMEONE });
    await consumer({ AMPLITUDE_API_KEY: 'amp-key' }, amplitude).run(
      asDeliveries([
        aBatchMessage([beacon], SMOKE_CONTEXT),
        aServerMessage(purchase, SMOKE_CONTEXT),
        aBatchMessage([visitor], { visitor_id: SOMEONE }),
      ]),
    );

    const fetchApp = freshApp();
    const answer = await ask(fetchApp, SMOKER);
    expect(answer.status).toBe(200);
    const { archived } = (await answer.json()) as { archived: Record<string, string>[] };
    expect(archived.map(({ insert_id, event_type }) => [insert_id, event_type]).sort()).toEqual([
      ['smoke-beacon', 'screen__load'],
      ['srv_smoke-purchase', 'subs_purchase_completed'],
    ]);
    // Each names the archive object that holds it, and that object is there.
    for (const receipt of archived) {
      expect(receipt.object).toMatch(/^events\/dt=/);
      expect(await archive().head(receipt.object ?? '')).not.toBeNull();
    }
    // Another visitor's browser learns nothing of the smoke's, and has none of its own.
    expect(await (await ask(fetchApp, SOMEONE)).json()).toEqual({ archived: [] });
    // Amplitude heard of the visitor's event only.
    const sent = amplitude.seen.flatMap(
      (request) => request.body.events as { insert_id: string }[],
    );
    expect(sent.map((event) => event.insert_id)).toEqual(['a-visitor']);
  });

  it('are not written while the archive cannot take the event', async () => {
    const failing = {
      ...archive(),
      put: () => Promise.reject(new Error('R2 is unavailable')),
      list: (options?: R2ListOptions) => archive().list(options),
    } as unknown as R2Bucket;
    const beacon = anEvent({ insert_id: 'smoke-beacon', device_id: SMOKER });
    const result = await consumer({ EVENTS_ARCHIVE: failing }).run(
      asDeliveries([aBatchMessage([beacon], SMOKE_CONTEXT)]),
    );
    expect(result.retried).toHaveLength(1);
    expect(await (await ask(freshApp(), SMOKER)).json()).toEqual({ archived: [] });
  });
});

describe('GET /e/smoke', () => {
  it('refuses another site, a request without a visitor, and a worker without the archive', async () => {
    const fetchApp = freshApp();
    const crossSite = await ask(fetchApp, SMOKER, {
      origin: 'https://evil.test',
      'sec-fetch-site': 'cross-site',
    });
    expect([crossSite.status, ((await crossSite.json()) as { error: string }).error]).toEqual([
      403,
      'cross_site',
    ]);
    const nobody = await ask(fetchApp, null);
    expect([nobody.status, ((await nobody.json()) as { error: string }).error]).toEqual([
      400,
      'no_visitor',
    ]);
    const unbound = await ask(freshApp({}, { EVENTS_ARCHIVE: undefined }), SMOKER);
    expect([unbound.status, ((await unbound.json()) as { error: string }).error]).toEqual([
      503,
      'archive_not_configured',
    ]);
  });

  it('answers one address 60 times an hour, then 429 with Retry-After', async () => {
    const fetchApp = freshApp({}, { RATE_LIMITS: 'production' });
    const statuses: number[] = [];
    for (let n = 0; n < 61; n += 1) {
      const visitor = crypto.randomUUID();
      statuses.push((await ask(fetchApp, visitor, { 'cf-connecting-ip': '192.0.2.61' })).status);
    }
    expect(statuses.slice(0, 60).every((status) => status === 200)).toBe(true);
    const refused = await ask(fetchApp, SMOKER, { 'cf-connecting-ip': '192.0.2.61' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    // Another address is not held back by it.
    expect((await ask(fetchApp, SMOKER, { 'cf-connecting-ip': '192.0.2.62' })).status).toBe(200);
  });
});
