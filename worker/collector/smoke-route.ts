import type { SmokeReceipts } from '../../shared/analytics/smoke';
import { cookieValue } from '../attribution/cookie-header';
import { addressAdmits } from '../rate-limits/rate-limit-gate';
import { byIp, everyRequest, type RateLimitRule, rulesFor } from '../rate-limits/rate-limits';
import { VISITOR_COOKIE, visitorIdOf } from '../request/cookies';
import type { Handled } from '../request/visit';
import { refuseBatch } from './refusals';
import { crossSiteRefusal } from './request-guards';
import { smokeReceipts } from './smoke-receipts';

/**
 * A smoke run polls about once a second for up to a minute after its purchase; sixty an hour per
 * address lets an operator run it a few times in a row and costs anyone else at most sixty R2
 * listings an hour from one address (IPv6 per /64).
 */
const smokeAsksPerAddress: RateLimitRule = everyRequest(
  'smoke_receipts_per_ip',
  byIp,
  60,
  60 * 60 * 1000,
);

/**
 * `GET /e/smoke` (shared/analytics/smoke.ts): which of the asking visitor's smoke events the
 * archive holds (./smoke-receipts.ts). Only the visitor of the request's uuid cookie, so nobody
 * learns of another's; same-origin as every call of the collector's; limited per address and
 * refused while the limiter is unreachable, since nothing a visitor needs waits on it.
 */
export async function answerSmokeReceipts(
  handled: Handled,
  rule: RateLimitRule = smokeAsksPerAddress,
): Promise<Response> {
  const { request, env, answer } = handled;
  const refusal = crossSiteRefusal(request);
  if (refusal) return refuseBatch(answer, refusal);
  const visitorId = visitorIdOf(
    cookieValue(request.headers.get('cookie') ?? undefined, VISITOR_COOKIE),
  );
  if (visitorId === null) {
    return refuseBatch(answer, { error: 'no_visitor', detail: `no ${VISITOR_COOKIE} cookie` });
  }
  const [applied = rule] = rulesFor(env, [rule]);
  const ip = request.headers.get('cf-connecting-ip') ?? undefined;
  const admitted = await addressAdmits(env.RATE_LIMITER, applied, ip, {
    requestId: handled.requestId,
    failOpen: false,
  });
  if (!admitted.admitted) {
    return refuseBatch(answer, { error: 'rate_limited', retryAfterSeconds: 60 });
  }
  if (!env.EVENTS_ARCHIVE) {
    return refuseBatch(answer, { error: 'archive_not_configured', detail: 'EVENTS_ARCHIVE' });
  }
  const body: SmokeReceipts = { archived: await smokeReceipts(env.EVENTS_ARCHIVE, visitorId) };
  handled.note('archived', body.archived.length);
  return answer.json(body, 200);
}
