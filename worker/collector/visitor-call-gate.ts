import { cookieValue } from '../attribution/cookie-header';
import { addressAdmits, type RateLimitRule, rulesFor } from '../rate-limits/rate-limit-gate';
import { VISITOR_COOKIE, visitorIdOf } from '../request/cookies';
import type { Handled } from '../request/visit';
import { refuseBatch } from './refusals';
import { crossSiteRefusal } from './request-guards';

/**
 * The gate of the collector's calls made for the visitor of the request's uuid cookie, never a
 * body's (`GET /e/smoke`, `POST /e/exposure`): same-origin as every call of the collector's, a
 * visitor cookie, and one hit on the address's counter for `rule`, which fails open or closed as
 * the call says. The visitor, or the refusal to answer.
 */
export async function gateVisitorCall(
  handled: Handled,
  rule: RateLimitRule,
  { failOpen }: { failOpen: boolean },
): Promise<{ visitorId: string } | { refused: Response }> {
  const { request, env, answer } = handled;
  const refusal = crossSiteRefusal(request);
  if (refusal) return { refused: refuseBatch(answer, refusal) };
  const visitorId = visitorIdOf(
    cookieValue(request.headers.get('cookie') ?? undefined, VISITOR_COOKIE),
  );
  if (visitorId === null) {
    const detail = `no ${VISITOR_COOKIE} cookie`;
    return { refused: refuseBatch(answer, { error: 'no_visitor', detail }) };
  }
  const [applied = rule] = rulesFor(env, [rule]);
  const ip = request.headers.get('cf-connecting-ip') ?? undefined;
  const admitted = await addressAdmits(env.RATE_LIMITER, applied, ip, {
    requestId: handled.requestId,
    failOpen,
  });
  if (!admitted.admitted) {
    return { refused: refuseBatch(answer, { error: 'rate_limited', retryAfterSeconds: 60 }) };
  }
  return { visitorId };
}
