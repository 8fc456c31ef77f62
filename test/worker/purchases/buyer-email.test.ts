import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueuedEvent } from '../../../worker/collector/queued-event';
import { asDeliveries, consumer } from '../collector/consume';
import { allAccept, fakeEndpoint, META_HOST, TIKTOK_HOST } from '../collector/fake-endpoint';
import { EVERY_DESTINATION } from '../collector/fixtures';
import { recordingQueue } from '../collector/recording-queue';
import { freshApp } from '../fetch-app';
import { CARDS } from '../test-gateway/gateway-client';
import { checkoutVisitor } from './checkout-visitor';

/**
 * The buyer's email, the strongest match key after the click id, reaches Meta
 * (`em`) and TikTok (`email`) as SHA-256 of the trimmed, lower-cased address, under the consent
 * rules of the other user data. The phone number that was located never does: it is the
 * located person's, not the buyer's.
 */

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const DESTINATIONS = { ...EVERY_DESTINATION };
/** A number the embedded portal locates (US, +1 415). */
const LOCATED = '+14155550123';

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Looks a number up, signs up with `email`, buys with a good card: the queued messages. */
async function lookUpSignUpAndBuy(email: string, bindings: Partial<Cloudflare.Env> = {}) {
  const { queue, events: sent } = recordingQueue();
  const fetchApp = freshApp({}, { PORTAL_POLLING_DELAY_MS: '0', EVENTS_QUEUE: queue, ...bindings });
  const visitor = checkoutVisitor({ fetchApp });
  const lookup = await visitor.call(`/api/phone-number-info/${encodeURIComponent(LOCATED)}`);
  expect(lookup.status).toBe(200);
  await visitor.signUp(email);
  const [result] = await visitor.poll(
    await visitor.subscribe(await visitor.tokenize(CARDS.succeeds)),
  );
  expect(result?.status).toBe('succeeded');
  return sent;
}

async function sentToNetworks(messages: QueuedEvent[]) {
  const endpoint = fakeEndpoint(allAccept);
  await consumer(DESTINATIONS, endpoint).run(asDeliveries(messages));
  return { meta: endpoint.to(META_HOST), tiktok: endpoint.to(TIKTOK_HOST) };
}

describe("the buyer's email on the server purchase", () => {
  it('reaches Meta as em and TikTok as email, hashed from the trimmed lower-case address; no phone number', async () => {
    const sent = await lookUpSignUpAndBuy('Buyer.Name@Example.TEST');
    const hash = await sha256Hex('buyer.name@example.test');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.context.buyer_email_sha256).toBe(hash);

    const { meta, tiktok } = await sentToNetworks(sent);
    const metaEvent = (meta[0]!.body.data as { user_data: Record<string, unknown> }[])[0];
    const tiktokEvent = (tiktok[0]!.body.data as { user: Record<string, unknown> }[])[0];
    expect(metaEvent?.user_data.em).toEqual([hash]);
    expect(tiktokEvent?.user.email).toBe(hash);

    const everything = JSON.stringify([...meta, ...tiktok].map((request) => request.body));
    expect(everything).not.toMatch(/buyer\.name@/i);
    expect(everything).not.toContain('4155550123');
    expect(everything).not.toContain(await sha256Hex('14155550123'));
    expect(metaEvent?.user_data).not.toHaveProperty('ph');
    expect(tiktokEvent?.user).not.toHaveProperty('phone');
  });

  it('where consent is asked and not given, the email is not even kept in the queue', async () => {
    const sent = await lookUpSignUpAndBuy('someone@example.test', { CONSENT_COUNTRIES: 'US' });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.context.consent).toBe('pending');
    expect(sent[0]?.context).not.toHaveProperty('buyer_email_sha256');
    const { meta, tiktok } = await sentToNetworks(sent);
    expect([...meta, ...tiktok]).toEqual([]);
  });

  it('a forged gf_buyer that is not a SHA-256 is ignored; polled without a Referer, the page is the site', async () => {
    const { queue, events: sent } = recordingQueue();
    const fetchApp = freshApp({}, { PORTAL_POLLING_DELAY_MS: '0', EVENTS_QUEUE: queue });
    const visitor = checkoutVisitor({ fetchApp });
    await visitor.signUp();
    const started = await visitor.subscribe(await visitor.tokenize(CARDS.succeeds));
    const pollingId = ((await started.json()) as { data: { polling_result_id: string } }).data
      .polling_result_id;
    // The buyer's own session, with gf_buyer overwritten.
    const own = [...visitor.cookies].filter(([name]) => name !== 'gf_buyer');
    await visitor.call(`/api/polling/get-result/${pollingId}`, undefined, {
      cookie: [
        ...own.map(([name, value]) => `${name}=${value}`),
        'gf_buyer=victim@example.test',
      ].join('; '),
      referer: '',
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.context).not.toHaveProperty('buyer_email_sha256');
    // Polled without a Referer: the page is the funnel's site, which Meta requires.
    expect(sent[0]?.context.page_url).toBe('https://funnel.test/');
  });
});
