import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { CollectedEvent, CollectorAnswer } from '../../shared/analytics/batch';
import { ANALYTICS_LIMITS } from '../../shared/analytics/limits';
import { VITALS_EVENT } from '../../shared/analytics/vitals';
import { SLUG } from '../../shared/config/fields';
import { describeError, logError, logWarning } from '../../shared/log';
import type { AccessCheck } from '../access/console-access';
import { cookieValue } from '../attribution/cookie-header';
import { PREVIEW_COOKIE, previewAuthorOf, previewKey, readPreviewCookie } from '../preview/preview';
import { rulesFor } from '../rate-limits/rate-limit-gate';
import {
  cookieKey,
  type SignedCookies,
  signedCookiesOf,
  VISITOR_COOKIE,
  visitorIdOf,
} from '../request/cookies';
import type { CollectorEnv } from '../request/envs';
import { collectorUserId } from '../request/signed-in-user';
import { type Handled, handledOf } from '../request/visit';
import { acknowledgeBatch } from './batch-acknowledgement';
import { enqueueBatch } from './enqueue';
import { type IdentityMismatch, withRequestIdentity } from './event-identity';
import { answerExposureConfirmation, MAX_TICKET_BYTES } from './exposure-confirmation-route';
import {
  admitBatch,
  type BatchSender,
  type IntakeLimits,
  vitalsAdmitted,
  vitalsBatchesPerIp,
} from './intake-limits';
import { clockVerdict } from './intake-rules';
import { refuseBatch } from './refusals';
import { crossSiteRefusal, mediaTypeRefusal, readBatch } from './request-guards';
import { serverContext } from './server-context';
import { answerSmokeReceipts } from './smoke-route';
import { withValidVitals } from './vitals-intake';

export interface CollectorOptions {
  /** Who a preview cookie's holder is (worker/preview/preview.ts previewAuthorOf). */
  access: AccessCheck;
  /** Wall clock in epoch ms; Date.now unless a test fixes it. */
  now?: () => number;
  /** The batch limits and their counters' timeout (intake-limits.ts); a test changes them. */
  limits?: IntakeLimits;
}

/** The events of the batch in order, each insert_id once, leaving out those seen before. */
function firstSightings(events: readonly CollectedEvent[], fresh: ReadonlySet<string>) {
  const taken = new Set<string>();
  return events.filter((event) => {
    if (!fresh.has(event.insert_id) || taken.has(event.insert_id)) return false;
    taken.add(event.insert_id);
    return true;
  });
}

/**
 * `POST /e`, the first-party collector (ARCHITECTURE.md): checks a batch from the page's
 * tracker, drops events with an impossible clock, answers events already seen as duplicates,
 * and queues the new ones as one message with the request's server context for the
 * destinations (worker/collector/consumer/). Every answer is JSON; only a 200 means the batch
 * was taken. A batch costs one round trip to its visitor's counter, which also remembers the
 * ids (intake-limits.ts), and one queue message: no database statement.
 */
export function collectorRoutes(options: CollectorOptions) {
  const now = options.now ?? Date.now;
  const routes = new Hono<CollectorEnv>();
  routes.post('/', checkBatchRequest, acknowledgeBatch(), batchBodyLimit(), (c) =>
    collectBatch({ ...handledOf(c), cookies: signedCookiesOf(c) }, { ...options, now }),
  );
  routes.all('/', (c) => refuseBatch(c, { error: 'method_not_allowed' }));
  routes.get('/smoke', (c) => answerSmokeReceipts(handledOf(c)));
  routes.post(
    '/exposure',
    bodyLimit({
      maxSize: MAX_TICKET_BYTES,
      onError: (c) => refuseBatch(c, { error: 'payload_too_large', detail: 'not a ticket' }),
    }),
    (c) => answerExposureConfirmation(handledOf(c), { now }),
  );
  return routes;
}

/** What the collector's steps know of a batch's request, its signed cookies with it. */
interface BatchRequest extends Handled {
  cookies: SignedCookies;
}

const checkBatchRequest: MiddlewareHandler<CollectorEnv> = async (c, next) => {
  const refusal = crossSiteRefusal(c.req.raw) ?? mediaTypeRefusal(c.req.raw);
  if (refusal) return refuseBatch(c, refusal);
  return await next();
};

/** The request's cookie `name`, as hono's getCookie reads it. */
function cookieOf(batch: BatchRequest, name: string): string | undefined {
  return cookieValue(batch.request.headers.get('cookie') ?? undefined, name);
}

/**
 * A declared Content-Length over the limit is refused unread; a chunked body is cut off as soon
 * as it passes it.
 */
function batchBodyLimit() {
  return bodyLimit({
    maxSize: ANALYTICS_LIMITS.maxBatchBytes,
    onError: (c) =>
      refuseBatch(c, {
        error: 'payload_too_large',
        detail: `over ${ANALYTICS_LIMITS.maxBatchBytes} bytes`,
      }),
  });
}

async function collectBatch(
  batch: BatchRequest,
  { now, limits, access }: CollectorOptions & { now: () => number },
): Promise<Response> {
  const reading = readBatch(await batch.request.text());
  if (!reading.ok) return refuseBatch(batch.answer, reading.refusal);

  const receivedAt = now();
  const { events } = reading.batch;
  batch.note('events', events.length);
  batch.note('route', reportedRoute(events));
  if (await isPreviewBatch(batch, access, receivedAt)) {
    batch.note('preview', true);
    return batch.answer.json({ accepted: 0, duplicates: 0 } satisfies CollectorAnswer, 200);
  }
  const inWindow = events.filter((event) => clockVerdict(event.time, receivedAt) === 'current');
  // Accepted with the batch but not kept: the tracker would only send them again.
  if (inWindow.length < events.length) batch.note('clock_dropped', events.length - inWindow.length);
  const sender = {
    namespace: batch.env.RATE_LIMITER,
    visitorCookie: cookieOf(batch, VISITOR_COOKIE),
    connectingIp: batch.request.headers.get('cf-connecting-ip') ?? undefined,
    requestId: batch.requestId,
    note: batch.note,
  };
  const vitals = await admittedVitals(batch, sender, inWindow, { now: receivedAt, limits });
  if (vitals.dropped > 0) batch.note('vitals_dropped', vitals.dropped);
  const current = await withIdentityOfRequest(batch, vitals.events);
  const admission = await admitBatch(
    sender,
    current.map((event) => event.insert_id),
    limits,
  );
  if (admission.kind === 'refused') {
    return refuseBatch(batch.answer, {
      error: 'rate_limited',
      retryAfterSeconds: admission.retryAfterSeconds,
    });
  }
  if (admission.kind === 'unavailable') {
    logError('collector_dedup_failed', { id: batch.requestId, detail: admission.detail });
    return refuseBatch(batch.answer, { error: 'collector_unavailable' });
  }

  const accepted = firstSightings(current, admission.fresh);
  if (accepted.length > 0 && !(await queueBatch(batch, accepted, admission, receivedAt))) {
    return refuseBatch(batch.answer, { error: 'collector_unavailable' });
  }

  const answer: CollectorAnswer = {
    accepted: accepted.length,
    duplicates: current.length - accepted.length,
  };
  batch.note('accepted', answer.accepted);
  batch.note('duplicates', answer.duplicates);
  return batch.answer.json(answer, 200);
}

/**
 * A marketer's preview is no visit (worker/preview/preview.ts): its pages run no tracker, and
 * whatever still arrives from them is answered as taken (so nothing resends it) and dropped.
 * Only in the browser that opened it, while its marketer is signed in there: a preview cookie
 * copied into another is no preview, and that browser's events count like anyone's.
 */
async function isPreviewBatch(
  batch: BatchRequest,
  access: AccessCheck,
  receivedAt: number,
): Promise<boolean> {
  const preview = await readPreviewCookie(
    cookieOf(batch, PREVIEW_COOKIE),
    previewKey(batch.env),
    receivedAt,
    {
      visitorId: visitorIdOf(cookieOf(batch, VISITOR_COOKIE)),
      author: previewAuthorOf(access, batch.env, batch.request),
    },
  );
  return preview.state === 'valid';
}

/**
 * The batch with the vitals it may count (./vitals-intake.ts), and those only while its address
 * is within its vitals limit: a batch without vitals asks no counter.
 */
async function admittedVitals(
  batch: Handled,
  sender: BatchSender,
  events: readonly CollectedEvent[],
  { now, limits }: { now: number; limits: IntakeLimits | undefined },
): Promise<{ events: CollectedEvent[]; dropped: number }> {
  const visitorId = visitorIdOf(sender.visitorCookie);
  const checked = await withValidVitals(events, { visitorId, key: cookieKey(batch.env) }, now);
  if (!checked.events.some((event) => event.event_type === VITALS_EVENT)) return checked;
  const [rule = vitalsBatchesPerIp] = rulesFor(batch.env, [limits?.vitals ?? vitalsBatchesPerIp]);
  if (await vitalsAdmitted(sender, rule, limits?.timeoutMs)) return checked;
  const kept = checked.events.filter((event) => event.event_type !== VITALS_EVENT);
  return { events: kept, dropped: events.length - kept.length };
}

/** Every event stored under the request's visitor and user, whatever its body says. */
async function withIdentityOfRequest(
  batch: BatchRequest,
  events: CollectedEvent[],
): Promise<CollectedEvent[]> {
  const deviceId = visitorIdOf(cookieOf(batch, VISITOR_COOKIE));
  if (deviceId === null) batch.note('cookieless', true);
  const { events: current, mismatch } = await withRequestIdentity(events, {
    deviceId,
    userId: await collectorUserId(batch.cookies, deviceId),
  });
  noteMismatch(batch, mismatch);
  return current;
}

/**
 * `event_identity_mismatch`: events that claimed another visitor's or user's ids, by field,
 * never the ids (one is someone else's). The tracker sends the cookie's own, so a count here is
 * a forged batch, or events kept in a browser whose cookie changed since.
 */
function noteMismatch(batch: Handled, mismatch: IdentityMismatch) {
  if (mismatch.device_id === 0 && mismatch.user_id === 0) return;
  batch.note('identity_mismatch', true);
  logWarning('event_identity_mismatch', { id: batch.requestId, ...mismatch });
}

/**
 * Queues the batch's new events with the request's server context; false when the queue refused
 * them, whose ids are then released so a resend is taken.
 */
async function queueBatch(
  batch: BatchRequest,
  accepted: CollectedEvent[],
  admission: { release: () => Promise<void> },
  receivedAt: number,
): Promise<boolean> {
  try {
    const request = {
      headers: batch.request.headers,
      country: batch.country,
      consentCountries: batch.env.CONSENT_COUNTRIES,
    };
    await enqueueBatch(batch.env.EVENTS_QUEUE, accepted, serverContext(request, receivedAt));
    return true;
  } catch (error) {
    logError('collector_queue_failed', {
      id: batch.requestId,
      unsent: accepted.length,
      detail: describeError(error),
    });
    await admission.release().catch((releaseError: unknown) =>
      // These ids stay claimed: a resend of them will be answered as duplicates.
      logError('collector_release_failed', {
        id: batch.requestId,
        lost: accepted.length,
        detail: describeError(releaseError),
      }),
    );
    return false;
  }
}

/**
 * The route the batch's pages say their visitor walks (the tracker's `route` property), for the
 * request's log line, so ops find a route's traffic in the logs as on a page's line: the one
 * route the batch names, else null (none, several, or not a route id's shape). As the page
 * reported it: a log's label, never a count (the experiments read the signed cookie instead).
 */
function reportedRoute(events: readonly CollectedEvent[]): string | null {
  const named = new Set(events.map((event) => event.event_properties?.route));
  const [route] = named;
  return named.size === 1 && typeof route === 'string' && SLUG.test(route) ? route : null;
}
