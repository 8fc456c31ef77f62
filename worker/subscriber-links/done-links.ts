import { logError } from '../../shared/log';
import type { Bindings } from '../env';
import type { SubscriberLink } from './link-token';

/**
 * The links whose action is done (a cancel, a guarantee claimed): such a link opens nothing more,
 * as a page that acted once must not act again for whoever holds the email later. Kept as one fact
 * in the RATE_LIMITER Durable Object named `subscriber_link_done:<link id>`, until the link
 * expires (after which its signature check refuses it anyway), when the object's alarm forgets it
 * (worker/rate-limits/rate-limiter.ts). Cost: one object of a few bytes per done action (a
 * recovery link's payment is one too), so at most two per subscriber and one per failed renewal (a cancel, then a claim from another link), none for a link that is
 * only opened; one read per page opened, one write per action.
 */

/** What a done link did: its page says so. A recovery link is done once it paid what was due. */
export type DoneAction = 'canceled' | 'refunded' | 'paid';

function stubOf(namespace: Bindings['RATE_LIMITER'], linkId: string) {
  return namespace.get(namespace.idFromName(`subscriber_link_done:${linkId}`));
}

/**
 * What the link did, null if nothing yet; 'unknown' when the store cannot be read (the page then
 * refuses to act, to be safe, and says to try again).
 */
export async function doneActionOf(
  env: Bindings,
  linkId: string,
  requestId: string,
): Promise<DoneAction | null | 'unknown'> {
  try {
    const fact = await stubOf(env.RATE_LIMITER, linkId).recall();
    return fact === 'canceled' || fact === 'refunded' || fact === 'paid' ? fact : null;
  } catch (error) {
    logError('subscriber_link_store_failed', { id: requestId, detail: String(error) });
    return 'unknown';
  }
}

/** Notes that `link` did `action`, kept until it expires; a failure is logged. */
export async function markLinkDone(
  env: Bindings,
  link: SubscriberLink,
  action: DoneAction,
  now: number,
  requestId: string,
): Promise<void> {
  try {
    const keptMs = Math.max(1000, link.expiresAt * 1000 - now);
    await stubOf(env.RATE_LIMITER, link.linkId).remember(action, keptMs);
  } catch (error) {
    logError('subscriber_link_unsaved', { id: requestId, detail: String(error) });
  }
}
