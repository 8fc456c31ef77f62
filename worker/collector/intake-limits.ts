import { describeError, logError } from '../../shared/log';
import type { Bindings } from '../env';
import type { Note } from '../http/answer';
import {
  addressAdmits,
  addressSubject,
  byIp,
  byVisitor,
  checkRateLimits,
  everyRequest,
  LIMITER_TIMEOUT_MS,
  type RateLimitRule,
  withTimeout,
} from '../rate-limits/rate-limit-gate';
import { SEEN_RETENTION_MS } from './intake-rules';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * How many batches `POST /e` takes a minute (the collector under abuse). A tracker
 * sends one batch per 30 events or 30 s, plus a beacon when a page is left and the next page's
 * catch-up: a visitor racing a screen every 5 s sends about 25 a minute. Refused batches are not
 * counted, and the tracker keeps them, so a client that keeps trying gets in, later.
 */
export const batchesPerVisitor = everyRequest(
  'collector_batches_per_visitor',
  byVisitor,
  60,
  MINUTE,
);

// Many real visitors share an address (CGNAT, offices): ten racing visitors' worth, ten
// batches a second from one address at most.
export const batchesPerIp = everyRequest('collector_batches_per_ip', byIp, 600, MINUTE);

const COLLECTOR_LIMITS: readonly RateLimitRule[] = [batchesPerVisitor, batchesPerIp];

/**
 * How many batches carrying field vitals one address may send an hour (docs/statistics.md,
 * "What a bot can still do"). The worker draws the sample and signs each sampled page, so every
 * report is a page it served; this bounds what one address adds to an arm's page speed however
 * many pages it loads under ids it chose: a dozen reports an hour, against the thousands of
 * real visitors' an arm's p75 is read from. A household or an office behind one address sends
 * far fewer: a tenth of its page views are sampled.
 */
export const vitalsBatchesPerIp = everyRequest('collector_vitals_per_ip', byIp, 6, HOUR);

/** At most this many vitals events in one batch: a page's, and one its beacon left behind. */
export const VITALS_PER_BATCH = 2;

export interface IntakeLimits {
  /** The rules counted, the claiming one first; a test shortens their window. */
  rules?: readonly RateLimitRule[];
  /** How long a counter may take before it counts as unreachable (LIMITER_TIMEOUT_MS). */
  timeoutMs?: number;
  /** The vitals' rule per address (vitalsBatchesPerIp); a test shortens it. */
  vitals?: RateLimitRule;
}

/** What `POST /e` may do with a batch, after one round trip to its counters. */
export type Admission =
  | { kind: 'admitted'; fresh: ReadonlySet<string>; release: () => Promise<void> }
  | { kind: 'refused'; retryAfterSeconds: number }
  | { kind: 'unavailable'; detail: string };

/**
 * Who sends a batch: the visitor's uuid cookie (its value, unchecked) and the address
 * (`CF-Connecting-IP`); with the RATE_LIMITER namespace that counts them, and the request id and
 * note on its log line a failure or a refusal is logged under.
 */
export interface BatchSender {
  namespace: Bindings['RATE_LIMITER'];
  visitorCookie: string | undefined;
  connectingIp: string | undefined;
  requestId: string;
  note: Note;
}

/**
 * Counts a batch against its visitor's and its address's limits and claims its insert ids, all
 * at once: the first applicable rule's object (the visitor's, the uuid cookie; for a request
 * without one, the address's) counts the batch and claims its ids in one call (RateLimiter.admit),
 * the other rule counts beside it. So a batch costs one round trip and no database statement.
 *
 * A counter that cannot be reached lets the batch through and is logged: losing analytics to a
 * broken limiter would cost more than a flood's extra events. The claiming object cannot be
 * skipped so: without it nobody knows which events are new, and the tracker, answered
 * `unavailable`, keeps the batch and sends it again later. When another rule refuses after the
 * claim, the claims are released, so the batch sent again later counts.
 */
export async function admitBatch(
  sender: BatchSender,
  insertIds: readonly string[],
  limits: IntakeLimits = {},
): Promise<Admission> {
  const rules = limits.rules ?? COLLECTOR_LIMITS;
  const timeoutMs = limits.timeoutMs ?? LIMITER_TIMEOUT_MS;
  const cookie = sender.visitorCookie;
  const subject = {
    visitorId: cookie ?? '',
    ip: addressSubject(sender.connectingIp),
    phone: null,
  };
  const applicable = cookie ? rules : rules.filter((rule) => rule.name !== batchesPerVisitor.name);
  const [claiming, ...others] = applicable.filter((rule) => rule.key(subject) !== null);
  if (!claiming) throw new Error('no collector limit applies to this batch');
  const stub = sender.namespace.get(
    sender.namespace.idFromName(`${claiming.name}:${claiming.key(subject)}`),
  );
  const window = { limit: claiming.limit, windowMs: claiming.windowMs };
  const [claim, counted] = await Promise.all([
    withTimeout(Promise.resolve(stub.admit(window, insertIds, SEEN_RETENTION_MS)), timeoutMs)
      .then((admission) => ({ ok: true as const, admission }))
      .catch((error: unknown) => ({ ok: false as const, detail: describeError(error) })),
    checkRateLimits(sender.namespace, others, subject, { timeoutMs }),
  ]);
  for (const failure of counted.failed) {
    logError('rate_limiter_failed', {
      id: sender.requestId,
      rule: failure.rule,
      detail: failure.detail,
    });
  }
  if (!claim.ok) return { kind: 'unavailable', detail: claim.detail };
  const { decision, fresh, expiresAt } = claim.admission;
  const release = async () => {
    if (fresh.length > 0) await stub.release(fresh, expiresAt);
  };
  const refusal = !decision.allowed
    ? { rule: claiming.name, retryAfterSeconds: decision.retryAfterSeconds }
    : counted.refused;
  if (refusal) {
    sender.note('rule', refusal.rule);
    await release().catch((error: unknown) =>
      // These ids stay claimed: the batch sent again is answered as duplicates, its events lost.
      logError('collector_release_failed', {
        id: sender.requestId,
        lost: fresh.length,
        detail: describeError(error),
      }),
    );
    return { kind: 'refused', retryAfterSeconds: refusal.retryAfterSeconds };
  }
  return { kind: 'admitted', fresh: new Set(fresh), release };
}

/**
 * Whether a batch's vitals may be counted: one hit on its address's vitals counter, `rule` as
 * this worker applies vitalsBatchesPerIp (or a test's). Fails closed: page speed is a guardrail
 * the alerts watch, and a sample lost while the counter is unreachable costs far less than a
 * flood let in.
 */
export async function vitalsAdmitted(
  sender: BatchSender,
  rule: RateLimitRule,
  timeoutMs = LIMITER_TIMEOUT_MS,
): Promise<boolean> {
  const { admitted, refusedBy } = await addressAdmits(sender.namespace, rule, sender.connectingIp, {
    requestId: sender.requestId,
    failOpen: false,
    timeoutMs,
  });
  if (refusedBy) sender.note('vitals_rule', refusedBy);
  return admitted;
}
