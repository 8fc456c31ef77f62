import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { LIFECYCLE_PATH, LIFECYCLE_SIGNATURE_HEADER } from '../../../shared/api/lifecycle';
import { DEVELOPMENT_LIFECYCLE_KEY } from '../../../worker/portal-client/lifecycle-key';
import { recordingQueue } from '../collector/recording-queue';
import { freshApp, productionApp } from '../fetch-app';
import {
  aBuyer,
  anEvent,
  capturedLogs,
  lifecycleApp,
  remember,
  signed,
} from './lifecycle-fixtures';

/**
 * The endpoint as the worker serves it (worker/app.tsx): a server's call that no page middleware
 * touches, and whose revenue goes nowhere but the experiments.
 */

const logs = capturedLogs();

async function postThrough(fetchApp: ReturnType<typeof freshApp>, body: string, now = Date.now()) {
  return fetchApp(LIFECYCLE_PATH, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [LIFECYCLE_SIGNATURE_HEADER]: await signed(body, { t: Math.floor(now / 1000) }),
    },
    body,
  });
}

describe(`POST ${LIFECYCLE_PATH} in the worker`, () => {
  it('is answered as JSON with no cookie, no variant and nothing queued', async () => {
    const queue = recordingQueue();
    const fetchApp = freshApp({}, { EVENTS_QUEUE: queue.queue });

    const response = await postThrough(fetchApp, JSON.stringify(anEvent(aBuyer().subscriptionId)));

    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ recorded: false, reason: 'unknown_subscription' });
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(queue.sent).toEqual([]);
    expect(logs.lines()).toContainEqual(
      expect.objectContaining({
        path: LIFECYCLE_PATH,
        status: 202,
        variant: null,
        flow: null,
        lifecycle: 'renewal',
        outcome: 'parked',
      }),
    );
  });

  it('answers a GET 405 in JSON, not the 404 page', async () => {
    const response = await freshApp()(LIFECYCLE_PATH);
    expect(response.status).toBe(405);
    expect(await response.json()).toEqual({ error: 'method_not_allowed' });
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('answers 503 lifecycle_not_configured on a deployed worker without the secret', async () => {
    const fetchApp = productionApp(
      {},
      { ENVIRONMENT: 'production', LIFECYCLE_HMAC_KEY: undefined },
    );
    const response = await postThrough(fetchApp, JSON.stringify(anEvent(aBuyer().subscriptionId)));
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: 'lifecycle_not_configured' });
  });

  it('has the development key from wrangler.toml in development', () => {
    expect(env.LIFECYCLE_HMAC_KEY).toBe(DEVELOPMENT_LIFECYCLE_KEY);
  });
});

describe('a recorded event', () => {
  it('reaches the experiments and, as a money event for the archive, the events queue; never an ad network', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const queue = recordingQueue();
    const { send, applied } = lifecycleApp({ bindings: { EVENTS_QUEUE: queue.queue } });
    const outbound = vi.spyOn(globalThis, 'fetch');

    const answer = await send(anEvent(buyer.subscriptionId, { type: 'refund', amount: 39.99 }));

    expect(answer).toMatchObject({ status: 200, body: { recorded: true } });
    expect(applied).toHaveLength(1);
    expect(queue.events.map((event) => event.event.event_type)).toEqual(['subs_refund_completed']);
    expect(outbound).not.toHaveBeenCalled();
  });
});

describe('an event that does not fit its subscription', () => {
  it('is answered 422 through the worker, logged with its code, and queued nowhere', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const queue = recordingQueue();
    const fetchApp = freshApp({}, { EVENTS_QUEUE: queue.queue });
    const outbound = vi.spyOn(globalThis, 'fetch');
    const euros = anEvent(buyer.subscriptionId, { type: 'refund', amount: 1, currency: 'EUR' });

    const response = await postThrough(fetchApp, JSON.stringify(euros));

    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ error: 'currency_mismatch' });
    expect(queue.calls).toEqual([]);
    expect(outbound).not.toHaveBeenCalled();
    expect(logs.lines()).toContainEqual(
      expect.objectContaining({ path: LIFECYCLE_PATH, status: 422, error: 'currency_mismatch' }),
    );
    expect(logs.warnings()).toContainEqual(
      expect.objectContaining({ warning: 'lifecycle_event_refused', refusal: 'currency_mismatch' }),
    );
  });
});
