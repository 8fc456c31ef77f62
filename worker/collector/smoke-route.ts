import type { SmokeReceipts } from '../../shared/analytics/smoke';
import { byIp, everyRequest, type RateLimitRule } from '../rate-limits/rate-limit-gate';
import type { Handled } from '../request/visit';
import { refuseBatch } from './refusals';
import { smokeReceipts } from './smoke-receipts';
import { gateVisitorCall } from './visitor-call-gate';

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
  const { env, answer } = handled;
  const gate = await gateVisitorCall(handled, rule, { failOpen: false });
  if ('refused' in gate) return gate.refused;
  const { visitorId } = gate;
  if (!env.EVENTS_ARCHIVE) {
    return refuseBatch(answer, { error: 'archive_not_configured', detail: 'EVENTS_ARCHIVE' });
  }
  const body: SmokeReceipts = { archived: await smokeReceipts(env.EVENTS_ARCHIVE, visitorId) };
  handled.note('archived', body.archived.length);
  return answer.json(body, 200);
}
