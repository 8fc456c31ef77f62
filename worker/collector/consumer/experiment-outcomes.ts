import { logError } from '../../../shared/log';
import { isOutcomeEvent, recordOutcomes } from '../../experiments/outcomes';
import type { QueuedEvent } from '../queued-event';
import type { Destination } from './destination';

/**
 * Whether the event is an outcome the split test counts: a step event (onboarding_start, lead,
 * checkout_screen_load) from the visitor's own browser, i.e. posted with the userUuid cookie of
 * the visitor it names. Anyone can post to `/e`, so a forger can at most mark their own row, and
 * never revenue: purchases count only as the server verified them (worker/purchases/).
 */
function isOwnOutcome(message: QueuedEvent): boolean {
  const { event, context } = message;
  return (
    message.source === 'browser' &&
    isOutcomeEvent(event.event_type) &&
    context.visitor_id !== undefined &&
    event.device_id.toLowerCase() === context.visitor_id
  );
}

/**
 * The split test's outcomes (EVENTS_DB exposures): sets the step flags of exposed visitors, on
 * every deployment, beside the event stores. Setting a flag twice changes nothing, so a message
 * delivered again is harmless; a D1 failure retries the messages later.
 */
export function experimentOutcomesDestination(db: D1Database): Destination {
  return {
    name: 'experiment',
    takes: isOwnOutcome,
    async deliver(messages) {
      try {
        await recordOutcomes(
          db,
          messages.flatMap(({ event }) =>
            isOutcomeEvent(event.event_type)
              ? [{ visitorId: event.device_id.toLowerCase(), event: event.event_type }]
              : [],
          ),
        );
        return messages.map(() => 'delivered');
      } catch (error) {
        logError('experiment_outcomes_failed', { events: messages.length, detail: String(error) });
        return messages.map(() => 'retry');
      }
    },
  };
}
