import { backoffFor } from '../../../shared/backoff';
import { type LogFields, logError } from '../../../shared/log';
/**
 * What became of one event at one destination: taken ('delivered'), refused for good and
 * logged ('dropped', it would never be accepted), or to be tried again later ('retry').
 */
export type Outcome = 'delivered' | 'dropped' | 'retry';

/**
 * Tells the consumer why a destination asks for events again: the code of the error line it
 * logged, which a dead letter keeps (./dead-letters.ts) so an operator reads why it never arrived.
 */
export type NoteFailure = (code: string) => void;

/** Logs a failure worth another try (an error line, to alert on), notes its code: 'retry'. */
export function failedForNow(
  code: string,
  fields: LogFields,
  noted: NoteFailure | undefined,
): 'retry' {
  logError(code, fields);
  noted?.(code);
  return 'retry';
}

export const DESTINATIONS = [
  'local',
  'archive',
  'amplitude',
  'meta',
  'tiktok',
  'experiment',
  'ledger',
] as const;
export type DestinationName = (typeof DESTINATIONS)[number];

const FIRST_RETRY_DELAY_S = 30;
const MAX_RETRY_DELAY_S = 3600;
const MAX_DEAD_LETTER_DELAY_S = 4 * 3600;

/**
 * wrangler.toml's max_retries for the events queue's consumer (every environment): with
 * retryDelaySeconds, about 4 hours of retries, then the dead letter queue, which loses nothing
 * either (docs/operate.md, "Outages and dead letters"). Kept that short on purpose: the
 * subscription ledger holds a renewal a day for its purchase (worker/lifecycle/ledger.ts), and an
 * archive hour is complete once its messages can no longer be retried (docs/analytics.md).
 */
export const EVENTS_MAX_RETRIES = 10;
/**
 * wrangler.toml's max_retries for the dead letter queues' consumers: Cloudflare's most. With
 * deadLetterRetryDelaySeconds that is over 15 days, past the longest retention a queue can be
 * given (14 days): the queue's retention, never the retries, ends a message's wait.
 */
export const DEAD_LETTER_MAX_RETRIES = 100;

/**
 * The delay before a message's next try: 30 s, doubling with each attempt, at most an hour. Over
 * EVENTS_MAX_RETRIES that is about 4 hours before the dead letter queue.
 */
export function retryDelaySeconds(attempts: number): number {
  return backoffFor(attempts, FIRST_RETRY_DELAY_S, MAX_RETRY_DELAY_S);
}

/**
 * The delay before a dead letter's next try to reach EVENTS_DB dead_letters: 30 s, doubling, at
 * most 4 hours, so its DEAD_LETTER_MAX_RETRIES tries outlast any retention of the queue.
 */
export function deadLetterRetryDelaySeconds(attempts: number): number {
  return backoffFor(attempts, FIRST_RETRY_DELAY_S, MAX_DEAD_LETTER_DELAY_S);
}
