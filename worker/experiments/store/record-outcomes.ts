import type { GivenAnswer } from './answer-statements';
import type { VisitorError } from './error-statements';
import { type ExperimentStores, toEachShard, toVisitorsStores } from './experiment-stores';
import type { Outcome } from './outcomes';
import { outcomeStatements } from './split-statements';

/**
 * Sets each outcome's flag on its visitor's rows: in every experiment they were exposed to at or
 * before it, and, for visitors of the split's own tables, there as before (whatever the time);
 * a flag already set is left alone, so outcomes recorded twice (a message the queue delivers
 * again) change nothing. One request per shard the visitors live in, and EVENTS_DB too while it
 * holds visitors exposed before the shards (experiment-stores.ts).
 */
export async function recordOutcomes(
  stores: ExperimentStores,
  outcomes: readonly Outcome[],
): Promise<void> {
  await toVisitorsStores(
    stores,
    outcomes,
    (shard, group) => shard.recordOutcomes(group),
    outcomeStatements,
  );
}

/**
 * Declines the worker read in the charge answers it relayed (worker/purchases/after-charge.ts):
 * only every experiment's tables count them, so they go to the visitors' shards alone, never to
 * EVENTS_DB's split tables.
 */
export async function recordDeclines(
  stores: ExperimentStores,
  declines: readonly (Outcome & { event: 'subs_purchase_failed' })[],
): Promise<void> {
  await toEachShard(
    stores,
    declines,
    (decline) => decline.visitorId,
    (shard, group) => shard.recordOutcomes(group),
  );
}

/**
 * Errors the visitors met (error-statements.ts): only every experiment's tables count them, so
 * they go to the visitors' shards alone.
 */
export async function recordErrors(
  stores: ExperimentStores,
  errors: readonly VisitorError[],
): Promise<void> {
  await toEachShard(
    stores,
    errors,
    (error) => error.visitorId,
    (shard, group) => shard.recordErrors(group),
  );
}

/**
 * Quiz answers the worker kept (answer-statements.ts): only every experiment's tables count them,
 * so they go to the visitors' shards alone.
 */
export async function recordAnswers(
  stores: ExperimentStores,
  answers: readonly GivenAnswer[],
): Promise<void> {
  await toEachShard(
    stores,
    answers,
    (answer) => answer.visitorId,
    (shard, group) => shard.recordAnswers(group),
  );
}
