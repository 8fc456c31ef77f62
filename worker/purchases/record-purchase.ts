import type { Context } from 'hono';
import type { QueuedEvent } from '../collector/queued-event';
import { adNetworksAllowed, type ServerContext } from '../collector/queued-event';
import { serverContext } from '../collector/server-context';
import type { ApiEnv } from '../middleware/envs';
import { keptFirstTouch } from '../middleware/first-touch';
import { buyerEmailHash } from '../session/session-cookie';
import { sessionUserId } from '../session/signed-in-user';
import type { VerifiedCharge } from './charge-answers';
import { purchaseEventOf } from './purchase-event';
import { claimPurchase, queueClaimed } from './purchase-outbox';

export type RecordOutcome = 'recorded' | 'known';

/**
 * Records a charge the product API answered as successful, once per subscription id however
 * often the browser polls it (EVENTS_DB verified_purchases), as a purchase event queued with
 * `source: 'server'`: the only purchases Meta, TikTok, Amplitude's revenue and the
 * experiment results count. Who bought it and where come from the request that relayed it.
 *
 * The event's insert id is random, not derived from the subscription id the browser also learns:
 * a derived one could be posted to `/e` first and shadow the real purchase in the destinations'
 * de-duplication. So that a purchase queued again keeps it, the claim stores the whole message
 * (./purchase-outbox.ts): whatever dies between the claim and the queue, the next poll or the
 * scheduled sweep queues that same message, and the destinations drop any repeat by its id.
 *
 * It takes the context for the signed cookies it reads (the user, the first touch), whose readers
 * take it (worker/middleware/signed-cookies.ts).
 */
export async function recordVerifiedPurchase<E extends ApiEnv>(
  c: Context<E>,
  charge: VerifiedCharge,
  now: () => number,
): Promise<RecordOutcome> {
  const at = now();
  const insertId = `srv_${crypto.randomUUID()}`;
  const visitorId = c.get('visitorId');
  const event = purchaseEventOf(
    charge,
    {
      visitorId,
      userId: await sessionUserId(c),
      variant: c.get('variant').key,
      flow: c.get('flow').name,
      configVersion: c.get('config').version,
      ...(await routeOfVisit(c, at)),
      pageUrl: c.req.header('referer') ?? null,
      at,
    },
    insertId,
  );
  const context = buyerContext(
    serverContext(
      {
        headers: c.req.raw.headers,
        country: c.get('country'),
        consentCountries: c.env.CONSENT_COUNTRIES,
      },
      at,
    ),
    c.req.url,
    buyerEmailHash(c.req.header('cookie')),
  );
  const message: QueuedEvent = { v: 1, source: 'server', event, context };
  // Only the request holding the claim queues the purchase, so it counts (in the split test's
  // results too: the consumer's experiment destination) once. Only the session that started the
  // charge gets this far (./charge-owner.ts), so the buyer is the visitor who paid; a later poll
  // of the same result attributes nothing again: it either finds the purchase queued, or queues
  // the first request's message, unchanged, when that request never confirmed it.
  const claimed = await claimPurchase(c.env.EVENTS_DB, charge.subscriptionId, message, at);
  if (claimed === null) return 'known';
  await queueClaimed(c.env.EVENTS_DB, c.env.EVENTS_QUEUE, charge.subscriptionId, claimed);
  return 'recorded';
}

/**
 * The request's context (`sent`), never without the page it came from, with the buyer's hashed
 * email where the ad tools may run (the same consent rule as the ad cookies). Never the phone
 * number that was located: it belongs to the person being located, not to the buyer.
 */
function buyerContext(
  sent: ServerContext,
  requestUrl: string,
  email: string | null,
): ServerContext {
  // Meta requires event_source_url on a website event: without a Referer, the funnel's own site.
  const context = { ...sent, page_url: sent.page_url ?? `${new URL(requestUrl).origin}/` };
  return email !== null && adNetworksAllowed(context)
    ? { ...context, buyer_email_sha256: email }
    : context;
}

/**
 * The buyer's route and source from the cookies their API call brought: the API chooses no
 * route and takes no first touch (worker/sub-apps/browser-api.ts), so the route middleware's
 * fallback to `default` is not taken for a route the visitor walked. Both only from cookies signed for the
 * buyer (worker/middleware/signed-cookies.ts, whose reader takes the context): a hand-made one
 * names no route or source.
 */
async function routeOfVisit<E extends ApiEnv>(
  c: Context<E>,
  at: number,
): Promise<{ route: string | null; trafficSource: string | null }> {
  const { touch } = await keptFirstTouch(c, at);
  return {
    route: c.get('routeKept') === true ? (c.get('route')?.id ?? null) : null,
    trafficSource: touch?.source ?? null,
  };
}
