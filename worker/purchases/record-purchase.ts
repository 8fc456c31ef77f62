import type { QueuedEvent } from '../collector/queued-event';
import { adNetworksAllowed, type ServerContext } from '../collector/queued-event';
import { serverContext } from '../collector/server-context';
import { resolveLanguage } from '../funnel/locale';
import { SUPPORTED_LANGUAGES } from '../i18n';
import { keptFirstTouch } from '../middleware/first-touch';
import { sessionUserId } from '../middleware/signed-in-user';
import type { CallVisit } from '../middleware/visit';
import { buyerEmailHash } from '../session/session-cookie';
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
 */
export async function recordVerifiedPurchase(
  visit: CallVisit,
  charge: VerifiedCharge,
  now: () => number,
): Promise<RecordOutcome> {
  const at = now();
  const insertId = `srv_${crypto.randomUUID()}`;
  const visitorId = visit.vars.visitorId;
  const event = purchaseEventOf(
    charge,
    {
      visitorId,
      userId: await sessionUserId(visit.cookies),
      variant: visit.vars.variant.key,
      flow: visit.vars.flow.name,
      configVersion: visit.vars.config.version,
      ...(await routeOfVisit(visit, at)),
      pageUrl: visit.request.headers.get('referer') ?? null,
      language: resolveLanguage({
        acceptLanguage: visit.request.headers.get('accept-language'),
        customLng: null,
        supported: SUPPORTED_LANGUAGES,
        customLngAllowed: false,
      }),
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
  // Only the request holding the claim queues the purchase, so it counts (in the split test's
  // results too: the consumer's experiment destination) once. Only the session that started the
  // charge gets this far (./charge-owner.ts), so the buyer is the visitor who paid; a later poll
  // of the same result attributes nothing again: it either finds the purchase queued, or queues
  // the first request's message, unchanged, when that request never confirmed it.
  const claimed = await claimPurchase(visit.env.EVENTS_DB, charge.subscriptionId, message, at);
  if (claimed === null) return 'known';
  await queueClaimed(visit.env.EVENTS_DB, visit.env.EVENTS_QUEUE, charge.subscriptionId, claimed);
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
 * buyer (worker/middleware/signed-cookies.ts): a hand-made one
 * names no route or source.
 */
async function routeOfVisit(
  visit: CallVisit,
  at: number,
): Promise<{ route: string | null; trafficSource: string | null }> {
  const { touch } = await keptFirstTouch(visit.cookies, at);
  return {
    route: visit.vars.routeKept === true ? (visit.vars.route?.id ?? null) : null,
    trafficSource: touch?.source ?? null,
  };
}
