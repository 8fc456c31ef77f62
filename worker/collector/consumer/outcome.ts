import { backoffFor } from '../../../shared/backoff';
/**
 * What became of one event at one destination: taken ('delivered'), refused for good and
 * logged ('dropped', it would never be accepted), or to be tried again later ('retry').
 */
export type Outcome = 'delivered' | 'dropped' | 'retry';

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

/**
 * The delay before a message's next try: 30 s, doubling with each attempt, at most an hour. Over
 * wrangler.toml's max_retries (10) that is about 4.5 hours before the dead letter queue.
 */
export function retryDelaySeconds(attempts: number): number {
  return backoffFor(attempts, FIRST_RETRY_DELAY_S, MAX_RETRY_DELAY_S);
}
