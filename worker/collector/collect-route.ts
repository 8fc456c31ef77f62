import { type Context, Hono, type Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { CollectedEvent, CollectorAnswer } from '../../shared/analytics/batch';
import { ANALYTICS_LIMITS } from '../../shared/analytics/limits';
import { logError } from '../../shared/log';
import { afterAnswer } from '../after-answer';
import type { RateLimitRule } from '../api/rate-limits';
import type { AppEnv } from '../env';
import { readPreviewCookie } from '../funnel/preview-cookie';
import { enqueueEvents } from './enqueue';
import { intakeRetryAfter } from './intake-limits';
import { clockVerdict } from './intake-rules';
import type { QueuedEvent } from './queued-event';
import { refuseBatch } from './refusals';
import { crossSiteRefusal, mediaTypeRefusal, readBatch } from './request-guards';
import { claimInsertIds, createPruner, releaseInsertIds } from './seen-ids';
import { serverContext } from './server-context';

export interface CollectorOptions {
  /** Wall clock in epoch ms; Date.now unless a test fixes it. */
  now?: () => number;
  /** The batch limits (intake-limits.ts); a test shortens their window. */
  limits?: readonly RateLimitRule[];
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
 * and queues each new one with the request's server context for the destinations
 * (worker/collector/consumer/). Every answer is JSON; only a 200 means the batch was taken.
 */
export function collectorRoutes(options: CollectorOptions = {}) {
  const now = options.now ?? Date.now;
  // One per app, i.e. per isolate in production.
  const pruneOldRows = createPruner();
  const routes = new Hono<AppEnv>();

  async function checkBatchRequest(c: Context<AppEnv>, next: Next) {
    const refusal = crossSiteRefusal(c.req.raw) ?? mediaTypeRefusal(c.req.raw);
    if (refusal) return refuseBatch(c, refusal);
    // Before the body is read: a flood costs a counter hit, not a parse and a D1 write.
    const retryAfterSeconds = await intakeRetryAfter(c, options.limits);
    if (retryAfterSeconds !== null) {
      return refuseBatch(c, { error: 'rate_limited', retryAfterSeconds });
    }
    await next();
  }

  // A declared Content-Length over the limit is refused unread; a chunked body is cut off as soon
  // as it passes it.
  const batchBodyLimit = bodyLimit({
    maxSize: ANALYTICS_LIMITS.maxBatchBytes,
    onError: (c) =>
      refuseBatch(c, {
        error: 'payload_too_large',
        detail: `over ${ANALYTICS_LIMITS.maxBatchBytes} bytes`,
      }),
  });

  async function collectBatch(c: Context<AppEnv>) {
    const reading = readBatch(await c.req.text());
    if (!reading.ok) return refuseBatch(c, reading.refusal);

    const receivedAt = now();
    const fields = c.get('logFields');
    const { events } = reading.batch;
    fields.events = events.length;
    // A marketer's preview is no visit (worker/funnel/preview.ts): its pages run no tracker, and
    // whatever still arrives from them is answered as taken (so nothing resends it) and dropped.
    if ((await readPreviewCookie(c, receivedAt)).state === 'valid') {
      fields.preview = true;
      return c.json({ accepted: 0, duplicates: 0 } satisfies CollectorAnswer);
    }
    const current = events.filter((event) => clockVerdict(event.time, receivedAt) === 'current');
    // Accepted with the batch but not kept: the tracker would only send them again.
    if (current.length < events.length) fields.clock_dropped = events.length - current.length;

    const db = c.env.EVENTS_DB;
    let fresh: Set<string>;
    try {
      fresh = await claimInsertIds(
        db,
        current.map((event) => event.insert_id),
        receivedAt,
      );
    } catch (error) {
      logError('collector_db_failed', { id: c.get('requestId'), detail: String(error) });
      return refuseBatch(c, { error: 'collector_unavailable' });
    }

    const accepted = firstSightings(current, fresh);
    if (accepted.length > 0) {
      const context = serverContext(c, receivedAt);
      const messages = accepted.map(
        (event): QueuedEvent => ({ v: 1, source: 'browser', event, context }),
      );
      const sent = await enqueueEvents(c.env.EVENTS_QUEUE, messages);
      if (!sent.ok) {
        logError('collector_queue_failed', {
          id: c.get('requestId'),
          unsent: sent.unsent.length,
          detail: String(sent.error),
        });
        const unsentIds = sent.unsent.map((message) => message.event.insert_id);
        try {
          await releaseInsertIds(db, unsentIds, receivedAt);
        } catch (error) {
          // These ids stay claimed: a resend of them will be answered as duplicates.
          logError('collector_release_failed', {
            id: c.get('requestId'),
            lost: unsentIds.length,
            detail: String(error),
          });
        }
        return refuseBatch(c, { error: 'collector_unavailable' });
      }
    }

    const answer: CollectorAnswer = {
      accepted: accepted.length,
      duplicates: current.length - accepted.length,
    };
    fields.accepted = answer.accepted;
    fields.duplicates = answer.duplicates;
    afterAnswer(
      c,
      pruneOldRows(db, receivedAt).catch((error: unknown) =>
        logError('collector_prune_failed', { detail: String(error) }),
      ),
    );
    return c.json(answer);
  }

  routes.post('/', checkBatchRequest, batchBodyLimit, collectBatch);
  routes.all('/', (c) => refuseBatch(c, { error: 'method_not_allowed' }));
  return routes;
}
