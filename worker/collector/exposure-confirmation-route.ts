import { describeError, logError } from '../../shared/log';
import { confirmVisitorExposures } from '../experiments/exposure/exposure-store';
import { experimentStores } from '../experiments/store/experiment-stores';
import { byIp, everyRequest, type RateLimitRule } from '../rate-limits/rate-limit-gate';
import { cookieKey } from '../request/cookies';
import type { Handled } from '../request/visit';
import { exposureTicketServedAt } from './exposure-ticket';
import { refuseBatch } from './refusals';
import { gateVisitorCall } from './visitor-call-gate';

/**
 * An address sends one confirmation per page that may expose its visitor, and at most 30 such
 * pages a day count (worker/experiments/exposure/exposure-budget.ts): sixty an hour leaves room
 * for those and a household's other tabs, and bounds what replaying tickets costs the shards.
 * Fails open, as the budget does: while the limiter is down a page's exposures still count.
 */
const confirmationsPerAddress: RateLimitRule = everyRequest(
  'exposure_confirmations_per_ip',
  byIp,
  60,
  60 * 60 * 1000,
);

/** A ticket is about 90 characters (./page-ticket.ts); a body far over it is none. */
export const MAX_TICKET_BYTES = 256;

/**
 * A confirmation's exposures are those of its page and any before it: the page's exposures are
 * written a moment after its ticket was signed, on a clock of the same worker.
 */
const PAGE_WRITE_MARGIN_MS = 60 * 1000;

/**
 * `POST /e/exposure` (shared/analytics/tracking.ts EXPOSURE_CONFIRMATION_PATH), the page script's
 * answer once its islands have hydrated: its body is the page's exposure ticket
 * (./exposure-ticket.ts). Same-origin as every call of the collector's; the visitor is the
 * request's uuid cookie's, never the body's, and the ticket must be one signed for them within
 * the hour; limited per address. Then the visitor's pending exposures served up to that page
 * count (worker/experiments/store/confirmation-statements.ts): one request to their shard, which
 * moves each row once however often the ticket comes. 204 once done; a refusal as `/e`'s (a
 * body over MAX_TICKET_BYTES is refused unread, ./collect-route.ts).
 */
export async function answerExposureConfirmation(
  handled: Handled,
  options: { now: () => number },
): Promise<Response> {
  const { request, env, answer } = handled;
  const gate = await gateVisitorCall(handled, confirmationsPerAddress, { failOpen: true });
  if ('refused' in gate) return gate.refused;
  const { visitorId } = gate;
  const key = cookieKey(env);
  const ticket = (await request.text()).trim();
  const servedAt =
    key === null ? null : await exposureTicketServedAt(key, visitorId, ticket, options.now());
  if (servedAt === null) return refuseBatch(answer, { error: 'invalid_ticket' });
  try {
    const moved = await confirmVisitorExposures(experimentStores(env), [
      { visitorId, until: servedAt + PAGE_WRITE_MARGIN_MS },
    ]);
    handled.note('confirmed', moved);
  } catch (error) {
    logError('exposure_confirm_failed', { id: handled.requestId, detail: describeError(error) });
    return refuseBatch(answer, { error: 'collector_unavailable' });
  }
  return new Response(null, { status: 204 });
}
