import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signatureHeaderFor } from '../../../shared/api/hook-signature';
import {
  LIFECYCLE_SIGNATURE_HEADER,
  SUBSCRIBER_LINK_REQUEST_PATH,
} from '../../../shared/api/lifecycle';
import { DEVELOPMENT_LIFECYCLE_KEY } from '../../../worker/portal-client/lifecycle-key';
import { verifySubscriberLink } from '../../../worker/subscriber-links/link-token';
import { freshApp, ORIGIN } from '../fetch-app';
import { freshStorage } from '../fresh-storage';

/**
 * `POST /hooks/subscriber-links`: the product API asks, signed as its lifecycle events are, for a
 * manage link to put in its own emails. Only a fresh signature of the shared secret gets one, and
 * only once.
 */

beforeEach(async () => {
  await freshStorage();
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const NOW = Date.UTC(2026, 10, 28, 3, 0, 0);

async function ask(
  fetchApp: ReturnType<typeof freshApp>,
  body: string,
  signing: { key?: string; t?: number } = {},
) {
  const t = signing.t ?? NOW / 1000;
  const signature = await signatureHeaderFor(signing.key ?? DEVELOPMENT_LIFECYCLE_KEY, t, body);
  return fetchApp(SUBSCRIBER_LINK_REQUEST_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [LIFECYCLE_SIGNATURE_HEADER]: signature },
    body,
  });
}

describe(`POST ${SUBSCRIBER_LINK_REQUEST_PATH}`, () => {
  it('answers a manage link of the subscription on the funnel’s origin, once per signature', async () => {
    const fetchApp = freshApp({ now: () => NOW });
    const body = JSON.stringify({ subscription_id: 'sub_emails_1' });
    const answered = await ask(fetchApp, body);
    expect(answered.status).toBe(200);
    const { url, expires_at } = (await answered.json()) as { url: string; expires_at: string };
    expect(url.startsWith(`${ORIGIN}/subscription/manage.`)).toBe(true);
    const token = url.slice(`${ORIGIN}/subscription/`.length);
    const verdict = await verifySubscriberLink(env.SUBSCRIBER_LINK_KEY ?? '', token, NOW);
    expect(verdict).toMatchObject({
      ok: true,
      link: { purpose: 'manage', subscriptionId: 'sub_emails_1' },
    });
    expect(Date.parse(expires_at)).toBe(verdict.ok ? verdict.link.expiresAt * 1000 : Number.NaN);

    // Without a signature: nothing.
    const unsigned = await fetchApp(SUBSCRIBER_LINK_REQUEST_PATH, { method: 'POST', body });
    expect(unsigned.status).toBe(401);
    // The same signed request again: no second link.
    expect((await ask(fetchApp, body)).status).toBe(409);
  });

  it('wears the brand and language the product API names, and none it does not have', async () => {
    const fetchApp = freshApp({ now: () => NOW });
    const lookOf = async (named: Record<string, unknown>) => {
      const body = JSON.stringify({ subscription_id: `sub_${crypto.randomUUID()}`, ...named });
      const answered = await ask(fetchApp, body);
      expect(answered.status).toBe(200);
      const { url } = (await answered.json()) as { url: string };
      const token = url.slice(`${ORIGIN}/subscription/`.length);
      const verdict = await verifySubscriberLink(env.SUBSCRIBER_LINK_KEY ?? '', token, NOW);
      return verdict.ok ? verdict.link.look : 'refused';
    };
    expect(await lookOf({ brand: 'findo', language: 'pt' })).toEqual({
      theme: 'findo',
      language: 'pt',
    });
    // Both or none: a brand the worker has not, a language it does not speak, one alone.
    expect(await lookOf({ brand: 'acme', language: 'pt' })).toBeNull();
    expect(await lookOf({ brand: 'findo', language: 'xx' })).toBeNull();
    expect(await lookOf({ brand: 'findo' })).toBeNull();
    expect(await lookOf({ brand: ['findo'], language: 'pt' })).toBeNull();
  });

  it('refuses a wrong secret, a stale signature and a body without a subscription', async () => {
    const fetchApp = freshApp({ now: () => NOW });
    const body = JSON.stringify({ subscription_id: 'sub_emails_2' });
    expect((await ask(fetchApp, body, { key: 'not-the-secret' })).status).toBe(401);
    expect((await ask(fetchApp, body, { t: NOW / 1000 - 301 })).status).toBe(401);
    expect((await ask(fetchApp, JSON.stringify({ subscription: 'sub_x' }))).status).toBe(400);
    expect((await ask(fetchApp, 'x'.repeat(3000))).status).toBe(413);
  });

  it('is not configured on a deployed worker with the public development key', async () => {
    const fetchApp = freshApp({ now: () => NOW }, { ENVIRONMENT: 'production' });
    const body = JSON.stringify({ subscription_id: 'sub_emails_3' });
    expect((await ask(fetchApp, body)).status).toBe(503);
  });
});
