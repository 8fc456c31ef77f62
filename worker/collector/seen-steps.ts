import { describeError, logError } from '../../shared/log';
import type { Bindings } from '../env';
import { knownBotReason } from '../experiments/assignment/bots';
import { isSpeculative } from '../experiments/exposure/exposure-rules';
import type { SPLIT_OUTCOME_FLAGS } from '../experiments/store/outcomes';
import { afterAnswer, type RunsInRequest } from '../request/after-answer';
import type { KeptChoice } from '../request/kept-answers';
import type { CallVisit } from '../request/visit';
import type { QueuedEvent } from './queued-event';
import { serverContext } from './server-context';

/**
 * The funnel steps the experiments count (docs/statistics.md, "What is counted"), as the worker
 * saw each one happen, never as a page reports it: anyone can post `onboarding_start`, `lead` or
 * `checkout_screen_load` to `/e` under an id they minted, so a page's event decides no result
 * (it still goes to the analytics). The worker's own sightings:
 * - the lookup (`onboarding_start`): a phone lookup it relayed and the product API answered
 *   (worker/api/call-handler.ts), past the lookup limits per visitor, address and number block;
 * - the sign-up (`lead`): a sign-up or Google sign-in it relayed that signed the visitor in;
 * - the checkout (`checkout_screen_load`): a checkout or paywall page it served to a signed-in
 *   session (worker/routes/screens/seen-checkout.ts), so only one who got through a sign-up.
 * The purchase counts as before, only as the worker verified it (worker/purchases/).
 *
 * Each sighting is queued, as a purchase is, with `source: 'server'` (which no browser can set)
 * and for the experiments' destination alone, so the analytics do not count a step twice; the
 * consumer sets the visitor's flag in their shard, once however often it is seen, in batches
 * (./consumer/experiment-outcomes.ts), and a stalled shard retries from the queue.
 * One message per step a visitor takes: at most three per visitor (docs/performance.md).
 *
 * A quiz answer is seen the same way (ANSWER_SIGHTING): a choice the worker kept for a visitor
 * already exposed to an experiment, for the results' segments by an answer
 * (worker/experiments/store/answer-statements.ts). One message per choice posted.
 */
export type SeenStep = keyof typeof SPLIT_OUTCOME_FLAGS;

/** The event of a quiz answer the worker kept, for the experiments alone. */
export const ANSWER_SIGHTING = 'quiz_answer_seen';

/** The request in which the worker saw a step, as its handler knows it. */
export interface StepSighting extends RunsInRequest {
  env: Bindings;
  requestId: string;
  request: Request;
  country: string | null;
  visitorId: string;
  /** The visitor's route where this request kept or chose it for them; null: none known. */
  route: string | null;
  /** A marketer's preview: it is no visit, and counts nothing. */
  preview: boolean;
}

/**
 * Queues the step after the answer is sent (sendSeenStep), off the visitor's path.
 */
export function queueSeenStep(sighting: StepSighting, step: SeenStep, at: number): void {
  afterAnswer(sighting, sendSeenStep(sighting, step, at));
}

/** Queues the kept answer as queueSeenStep queues a step, with its key and choice. */
export function queueSeenAnswer(sighting: StepSighting, answer: KeptChoice, at: number): void {
  afterAnswer(
    sighting,
    sendSighting(sighting, ANSWER_SIGHTING, at, {
      answer_key: answer.key,
      answer_value: answer.value,
    }),
  );
}

/** A call's request as a step's sighting: its route only where a signed `gf_route` kept it. */
export function callSighting(visit: CallVisit): StepSighting {
  return {
    env: visit.env,
    requestId: visit.requestId,
    request: visit.request,
    country: visit.country,
    visitorId: visit.visitorId,
    route: visit.route.kept ? visit.route.id : null,
    preview: visit.arms.preview !== undefined,
    executionCtx: visit.executionCtx,
  };
}

/**
 * Sends the step to the events queue, unless the request is a marketer's preview, a known bot or
 * a browser's speculative fetch (none of them a visitor taking it). A queue that refuses the send
 * is an error line (`step_not_queued`): that step goes uncounted, nothing else. For a caller that
 * already works after the answer; else queueSeenStep.
 */
export async function sendSeenStep(
  sighting: StepSighting,
  step: SeenStep,
  at: number,
): Promise<void> {
  await sendSighting(sighting, step, at, {});
}

async function sendSighting(
  sighting: StepSighting,
  seen: SeenStep | typeof ANSWER_SIGHTING,
  at: number,
  properties: Record<string, string>,
): Promise<void> {
  const { request } = sighting;
  const header = (name: string) => request.headers.get(name) ?? undefined;
  if (sighting.preview || isSpeculative(header)) return;
  if (knownBotReason(header('user-agent'), request.cf) !== null) return;
  try {
    await sighting.env.EVENTS_QUEUE.send(seenStepMessage(sighting, seen, at, properties), {
      contentType: 'json',
    });
  } catch (error) {
    const detail = describeError(error);
    logError('step_not_queued', { id: sighting.requestId, step: seen, detail });
  }
}

/** The step as a queue message only the experiments take. */
function seenStepMessage(
  sighting: StepSighting,
  seen: SeenStep | typeof ANSWER_SIGHTING,
  at: number,
  properties: Record<string, string>,
): QueuedEvent {
  const { request, env } = sighting;
  const context = serverContext(
    {
      headers: request.headers,
      country: sighting.country,
      consentCountries: env.CONSENT_COUNTRIES,
    },
    at,
  );
  return {
    v: 1,
    source: 'server',
    event: {
      event_type: seen,
      insert_id: `srv_${crypto.randomUUID()}`,
      time: at,
      // No browser session is known here, as on a verified purchase.
      session_id: 0,
      device_id: sighting.visitorId,
      user_id: null,
      event_properties: {
        screen_name: new URL(request.url).pathname.replace(/^\/+/, '').slice(0, 128) || 'server',
        ...(sighting.route !== null ? { route: sighting.route } : {}),
        ...properties,
      },
    },
    context,
    only: ['experiment'],
  };
}
