import { describeError, logError } from '../../shared/log';
import type { VerifiedCharge } from '../checkout/charge-call';
import type { QueuedEvent } from '../collector/queued-event';
import { adNetworksAllowed, type ServerContext } from '../collector/queued-event';
import { serverContext } from '../collector/server-context';
import { keptFirstTouch } from '../request/cookies';
import type { CallVisit } from '../request/visit';
import { buyerEmailHash } from '../session/session-cookie';
import { purchaseEventOf } from './purchase-event';
import { purchaseLookOf } from './purchase-look';
import { keepForTheSweep } from './purchase-outbox';

/**
 * Where a verified purchase was kept before the visitor is told: the events queue, or (the queue
 * refused it) EVENTS_DB for the sweep; null when neither took it, and the visitor must ask again.
 */
export type KeptIn = 'queue' | 'outbox' | null;

/**
 * Keeps a charge the product API answered as successful, before the browser hears of it, as a
 * purchase event queued with `source: 'server'`: the only purchases Meta, TikTok, Amplitude's
 * revenue and the experiment results count. Who bought it and where come from the request that
 * relayed it. The events queue is where it is kept, so a stalled or locked EVENTS_DB loses
 * nothing; only when the queue refuses the send is it kept in EVENTS_DB for the scheduled sweep
 * (./purchase-outbox.ts). Each poll that sees the success queues a message of its own; the
 * consumer counts the first it meets per subscription id and drops the others
 * (worker/collector/consumer/purchase-claims.ts), so the purchase counts once everywhere.
 *
 * The event's insert id is random, not derived from the subscription id the browser also learns:
 * a derived one could be posted to `/e` first and shadow the real purchase in the destinations'
 * de-duplication.
 */
export async function recordVerifiedPurchase(
  visit: CallVisit,
  charge: VerifiedCharge,
  now: () => number,
): Promise<KeptIn> {
  const at = now();
  const insertId = `srv_${crypto.randomUUID()}`;
  const visitorId = visit.visitorId;
  const event = purchaseEventOf(
    charge,
    {
      visitorId,
      userId: await visit.signedInUser(),
      variant: visit.arms.variant.key,
      flow: visit.arms.flow.name,
      configVersion: visit.config.version,
      ...(await routeOfVisit(visit, at)),
      pageUrl: visit.request.headers.get('referer') ?? null,
      ...purchaseLookOf(visit.request.headers),
      at,
    },
    insertId,
  );
  const context = buyerContext(
    serverContext(
      {
        headers: visit.request.headers,
        country: visit.country,
        consentCountries: visit.env.CONSENT_COUNTRIES,
      },
      at,
    ),
    visit.request.url,
    buyerEmailHash(visit.request.headers.get('cookie') ?? undefined),
  );
  const message: QueuedEvent = { v: 1, source: 'server', event, context };
  return keepPurchase(visit, charge.subscriptionId, message, at);
}

/**
 * The message in the events queue, else in EVENTS_DB for the sweep; each failure an error line.
 * A send that failed after the queue took it leaves the message in both, with one insert id.
 */
async function keepPurchase(
  visit: CallVisit,
  subscriptionId: string,
  message: QueuedEvent,
  at: number,
): Promise<KeptIn> {
  const fields = { id: visit.requestId, sub_id: subscriptionId };
  try {
    await visit.env.EVENTS_QUEUE.send(message, { contentType: 'json' });
    return 'queue';
  } catch (error) {
    logError('purchase_queue_failed', { ...fields, detail: describeError(error) });
  }
  try {
    await keepForTheSweep(visit.env.EVENTS_DB, subscriptionId, message, at);
    return 'outbox';
  } catch (error) {
    logError('purchase_not_kept', { ...fields, detail: describeError(error) });
    return null;
  }
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
 * buyer (worker/request/cookies.ts): a hand-made one
 * names no route or source.
 */
async function routeOfVisit(
  visit: CallVisit,
  at: number,
): Promise<{ route: string | null; trafficSource: string | null }> {
  const { touch } = await keptFirstTouch(visit.cookies, at);
  return {
    route: visit.route.kept ? visit.route.id : null,
    trafficSource: touch?.source ?? null,
  };
}
