import { VITALS_EVENT } from '../../../shared/analytics/vitals';
import type { GivenAnswer } from '../../experiments/store/answer-statements';
import type { VisitorError } from '../../experiments/store/error-statements';
import { experimentPurchaseOf, recordPurchases } from '../../experiments/store/experiment-purchase';
import type { ExperimentStores } from '../../experiments/store/experiment-stores';
import { isStepEvent } from '../../experiments/store/outcomes';
import {
  recordAnswers,
  recordErrors,
  recordOutcomes,
} from '../../experiments/store/record-outcomes';
import { recordVitals, vitalsSampleOf } from '../../experiments/store/record-vitals';
import { stepRouteOf } from '../../experiments/store/route-steps';
import { isVerifiedPurchase, type QueuedEvent } from '../queued-event';
import { ANSWER_SIGHTING } from '../seen-steps';
import type { Destination } from './destination';
import { failedForNow } from './outcome';

/**
 * Whether the event is a step the worker saw the visitor take (worker/collector/seen-steps.ts):
 * `source: 'server'`, which the worker sets and no browser can. The same events from a page
 * (`/e`) decide nothing here, whoever posts them: a bot that mints ids and posts steps would
 * otherwise pick a landing test's winner. Nor does a purchase count unless the server verified
 * it, nor a decline unless the worker read it in the charge answers it relayed
 * (worker/purchases/after-charge.ts).
 */
function isSeenStep(message: QueuedEvent): boolean {
  return message.source === 'server' && isStepEvent(message.event.event_type);
}

/** A quiz answer the worker kept (worker/collector/seen-steps.ts ANSWER_SIGHTING), as seen steps are. */
function isSeenAnswer(message: QueuedEvent): boolean {
  return message.source === 'server' && message.event.event_type === ANSWER_SIGHTING;
}

/** The answers among the messages, each a choice of a key, when the worker kept it. */
function answersOf(messages: readonly QueuedEvent[]): GivenAnswer[] {
  return messages.flatMap((message) => {
    if (!isSeenAnswer(message)) return [];
    const { answer_key: key, answer_value: value } = message.event.event_properties;
    if (typeof key !== 'string' || typeof value !== 'string') return [];
    return [
      { visitorId: message.event.device_id.toLowerCase(), key, value, at: message.event.time },
    ];
  });
}

function isOwn({ source, event, context }: QueuedEvent): boolean {
  return (
    source === 'browser' &&
    context.visitor_id !== undefined &&
    event.device_id.toLowerCase() === context.visitor_id
  );
}

/** A page's field vitals from the visitor's own browser, taken by the collector (vitals-intake.ts). */
function isOwnVitals(message: QueuedEvent): boolean {
  return message.event.event_type === VITALS_EVENT && isOwn(message);
}

/**
 * An error the visitor's own browser reported (a guarded ramp's `client_errors`, which only
 * holds): an island's or a script's chunk that failed to load (SPEC.md §8, islands/hydrate.ts),
 * an uncaught error of the page's own scripts (islands/analytics/script-errors.ts), or the
 * checkout's error state, a payment that failed without a decline (islands/stores/payment.ts
 * `failed`). A decline is the worker's to count, from the charge answer it relayed.
 */
function isOwnClientError(message: QueuedEvent): boolean {
  const { event_type, event_properties } = message.event;
  const failedPayment =
    event_type === 'subs_purchase_failed' &&
    event_properties.error !== undefined &&
    event_properties.decline_code === undefined;
  const broken = event_type === 'chunk_load_failed' || event_type === 'script_error';
  return (broken || failedPayment) && isOwn(message);
}

/** The client errors among the messages, each when the collector took it. */
function clientErrorsOf(messages: readonly QueuedEvent[]): VisitorError[] {
  return messages.flatMap((message) =>
    isOwnClientError(message)
      ? [
          {
            visitorId: message.event.device_id.toLowerCase(),
            kind: 'client_error' as const,
            at: message.context.received_at,
          },
        ]
      : [],
  );
}

/**
 * The split test's outcomes (worker/experiments/): sets the step flags of exposed visitors from
 * the steps the worker saw them take, counts their field vitals in the arms their rows confirm (record-vitals.ts) and the errors their own browser reported, and counts the server-verified purchases with their amounts, each in the
 * visitor's shard (with the steps by route, experiments/store/route-steps.ts, in the same request) (and in EVENTS_DB for visitors exposed before the shards), on every
 * deployment, beside the event stores. A flag set twice or a subscription counted twice changes
 * nothing, so a message delivered again is harmless; a failed store retries the messages later.
 */
export function experimentOutcomesDestination(stores: ExperimentStores): Destination {
  return {
    name: 'experiment',
    takes: (message) =>
      isSeenStep(message) ||
      isSeenAnswer(message) ||
      isVerifiedPurchase(message) ||
      isOwnVitals(message) ||
      isOwnClientError(message),
    async deliver(messages, noted) {
      try {
        await Promise.all([
          recordOutcomes(
            stores,
            messages.flatMap((message) => {
              const { event, context } = message;
              if (!isSeenStep(message) || !isStepEvent(event.event_type)) return [];
              // When the worker saw it, on its own clock.
              const at = event.time;
              const route = stepRouteOf(event.event_properties.route, at, context.received_at);
              return [
                {
                  visitorId: event.device_id.toLowerCase(),
                  event: event.event_type,
                  at,
                  ...(route !== undefined ? { route } : {}),
                },
              ];
            }),
          ),
          recordPurchases(
            stores,
            messages.flatMap((message) => {
              const purchase = isVerifiedPurchase(message) ? experimentPurchaseOf(message) : null;
              return purchase ? [purchase] : [];
            }),
          ),
          recordErrors(stores, clientErrorsOf(messages)),
          recordAnswers(stores, answersOf(messages)),
          recordVitals(
            stores,
            messages.flatMap((message) => {
              const sample = isOwnVitals(message) ? vitalsSampleOf(message) : null;
              return sample ? [sample] : [];
            }),
          ),
        ]);
        return messages.map(() => 'delivered');
      } catch (error) {
        const retry = failedForNow(
          'experiment_outcomes_failed',
          { events: messages.length, detail: String(error) },
          noted,
        );
        return messages.map(() => retry);
      }
    },
  };
}
