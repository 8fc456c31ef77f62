import type { Context } from 'hono';
import { Hono } from 'hono';
import { CONTRACT_CALLS, type LinkRequest } from '../../shared/api/contract-calls';
import { SUBSCRIBER_LINK_REQUEST_PATH } from '../../shared/api/lifecycle';
import { logError } from '../../shared/log';
import { requiredIdempotencyKey } from '../charges';
import { validJsonBody } from '../json-body';
import {
  keepLinkRequest,
  linksAskedUnder,
  manageableSubscriptionsOf,
} from '../store/link-requests';
import { emailKeyOf } from '../store/users';
import { prefixedId } from '../tokens';
import { postToWorker, requireWorkerSignature, type SubscriberEnv } from './subscriber';

/**
 * A manage link for the email, asked of the worker as the product API asks for its emails'
 * links (`POST /hooks/subscriber-links`), marked as asked for by the subscriber (it lives a day)
 * and in the brand and language the page was in. Null when the worker made none (logged).
 */
async function askedLink(
  c: Context<SubscriberEnv>,
  subscriptionId: string,
  request: LinkRequest,
): Promise<string | null> {
  const body = JSON.stringify({
    subscription_id: subscriptionId,
    brand: request.brand,
    language: request.language,
    requested_by_subscriber: true,
  });
  try {
    const answer = await postToWorker(c, SUBSCRIBER_LINK_REQUEST_PATH, body);
    if (!answer?.ok) {
      logError('portal_link_not_made', { status: answer?.status ?? null });
      return null;
    }
    const { url } = (await answer.json()) as { url?: unknown };
    return typeof url === 'string' ? url : null;
  } catch (error) {
    logError('portal_link_not_made', { detail: String(error) });
    return null;
  }
}

/**
 * POST /subscriber-link-requests (shared/api/contract-calls.ts `linkRequest`), as the product API
 * answers it: for each subscription of the account with that email a fresh manage link, "emailed"
 * (kept in `link_requests`); nothing for an address that holds none; once per Idempotency-Key.
 */
export const linkRequestRoutes = new Hono<SubscriberEnv>()
  .use(CONTRACT_CALLS.linkRequest.path, requireWorkerSignature())
  .post(CONTRACT_CALLS.linkRequest.path, async (c) => {
    const key = requiredIdempotencyKey(c.req.header('idempotency-key'));
    const request = await validJsonBody(c, CONTRACT_CALLS.linkRequest.request);
    const db = c.env.PORTAL_DB;
    const asked = await linksAskedUnder(db, key);
    if (asked !== null) return c.json({ data: { request_id: null, links: asked } });
    const subscriptions = await manageableSubscriptionsOf(db, emailKeyOf(request.email));
    const links = [];
    for (const subscriptionId of subscriptions) {
      links.push({ subscriptionId, url: await askedLink(c, subscriptionId, request) });
    }
    await keepLinkRequest(db, key, request, links);
    const made = links.filter((link) => link.url !== null).length;
    return c.json({ data: { request_id: prefixedId('lrq'), links: made } });
  });
