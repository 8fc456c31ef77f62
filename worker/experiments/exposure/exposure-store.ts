import { SPLIT_EXPERIMENT_ID } from '../../../shared/experiments';
import { shardOfVisitor } from '../assignment/assign';
import type { GivenAnswer } from '../store/answer-statements';
import type { Confirmation } from '../store/confirmation-statements';
import type {
  ExperimentArm,
  ExperimentExposure,
  LeftOut,
} from '../store/every-experiment-statements';
import {
  type ExperimentStores,
  holdsLegacyVisitors,
  shardStub,
  toEachShard,
} from '../store/experiment-stores';
import type { FirstVisit } from '../store/split-statements';

/**
 * The writes of the split test's denominator, to the visitor's experiment shard
 * (experiment-shard.ts): the per-arm totals follow by the tables' triggers, in the same
 * transaction.
 *
 * At 100 M new visitors a month kept 13 months (1.3 billion visitors): a visitor's rows exist
 * only to count them once (the exposure, each flag, each purchase); the results read the per-arm
 * totals the triggers keep, a few rows per variant and shard, so reading never grows with
 * traffic. One D1 database of its own could not keep them: measured in local D1, 70 bytes per
 * exposure, 90–130 GB in all against D1's 10 GB. So the visitors are spread over
 * EXPERIMENT_SHARD_COUNT SQLite Durable Objects by a hash of their id (assign.ts shardOfVisitor, where the
 * count's figures are), each far under its 10 GB and its ~1,000 requests/s, and the results add
 * the shards' totals and histograms (both add exactly; the 99th percentile is taken after
 * adding). A visitor costs one exposure request to their shard, one flag update per step (the
 * queue consumer's batches, one request per shard touched) and one request per purchase. Their
 * first visit's count by route (route_days) rides on the exposure's request; a new visitor the
 * split test does not draw costs one request for it alone. The steps each route's visitors reach
 * (route_step_days, ../store/route-steps.ts) ride on the flag updates' and purchases' requests.
 * Measured in a local shard: test/worker/experiments/write-rate.test.ts.
 */

/** An arm of the experiment: a variant in a phase. */
export interface Arm {
  phase: number;
  variant: string;
}

export interface Exposure extends Arm {
  /** The userUuid cookie. */
  visitorId: string;
  /** The config that drew the variant, e.g. 'v12+v12'. */
  configVersion: string;
  /** Epoch ms. */
  at: number;
  /** The visitor's route (worker/request/visit-facts.ts); null in rows from before routes. */
  route: string | null;
  /** Where their visit came from (the first touch's source); null in rows from before routes. */
  source: string | null;
}

/**
 * Records a visitor's exposures on a page, to every experiment it exposed them to, once each: an
 * experiment they were exposed to before (in this phase or an earlier one) keeps their first row.
 * They count once the page's script confirms them (confirmVisitorExposures), pending until then.
 * With their first visit, one request to their shard for all of them. A visitor who came with a
 * userUuid cookie (`returning`) may have been exposed to the split before the shards, in
 * EVENTS_DB; while it holds such rows, theirs is looked for there first, and such a visitor is
 * not counted in the split again (the shard itself skips those in its own split table). A new
 * visitor never is: their uuid was made for this request.
 */
export async function recordVisitorExposures(
  stores: ExperimentStores,
  exposures: readonly ExperimentExposure[],
  options: { returning: boolean; firstVisit?: FirstVisit; answers?: readonly GivenAnswer[] },
): Promise<void> {
  const [first] = exposures;
  if (first === undefined) return recordFirstVisit(stores, options.firstVisit);
  let kept = exposures;
  const split = exposures.some((exposure) => exposure.experiment === SPLIT_EXPERIMENT_ID);
  if (split && options.returning && (await holdsLegacyVisitors(stores.legacy))) {
    const known = await stores.legacy
      .prepare('SELECT 1 FROM exposures WHERE visitor_id = ?1')
      .bind(first.visitorId)
      .first();
    if (known !== null) kept = exposures.filter((e) => e.experiment !== SPLIT_EXPERIMENT_ID);
  }
  await shardStub(stores, shardOfVisitor(first.visitorId)).recordExperimentExposures(
    kept,
    options.firstVisit ? [options.firstVisit] : [],
    options.answers ?? [],
  );
}

/**
 * Counts the exposures each visitor's page script confirmed (../store/confirmation-statements.ts):
 * their pending rows served up to the confirmation's `until` become exposed, once however often
 * it comes. One request per shard the visitors live in (a page's beacon: one). How many rows
 * moved.
 */
export async function confirmVisitorExposures(
  stores: ExperimentStores,
  confirmations: readonly Confirmation[],
): Promise<number> {
  let moved = 0;
  await toEachShard(
    stores,
    confirmations,
    (confirmation) => confirmation.visitorId,
    async (shard, group) => {
      moved += await shard.confirmExposures(group);
    },
  );
  return moved;
}

/**
 * Counts a new visitor's first visit on their route and day, in their shard: for a visitor no
 * experiment exposes on the page (recordVisitorExposures carries the first visit of one it does).
 */
export async function recordFirstVisit(
  stores: ExperimentStores,
  visit: FirstVisit | undefined,
): Promise<void> {
  if (visit === undefined) return;
  await shardStub(stores, shardOfVisitor(visit.visitorId)).recordExposures([], [visit]);
}

/**
 * Records each visitor's exposure in their shard, once (exposureStatement): one request per
 * shard the visitors live in, however many visitors.
 */
export async function recordExposures(
  stores: ExperimentStores,
  exposures: readonly Exposure[],
): Promise<void> {
  await toEachShard(
    stores,
    exposures,
    (exposure) => exposure.visitorId,
    (shard, group) => shard.recordExposures(group),
  );
}

/**
 * Counts a page's draws left out of the exposures in the arms of every experiment it drew the
 * visitor into, apart from the exposed, in the shard of the request's visitor id: one request.
 * `bots`: a known bot's (bots rarely keep cookies, so this counts their page loads rather than
 * bots); `over_budget`: a page whose address had spent its exposures for the day
 * (./exposure-budget.ts), with the visitor's first visit, which still counts.
 */
export async function recordLeftOutExposures(
  stores: ExperimentStores,
  visitorId: string,
  arms: readonly ExperimentArm[],
  reason: LeftOut,
  firstVisit?: FirstVisit,
): Promise<void> {
  const shard = shardStub(stores, shardOfVisitor(visitorId));
  await Promise.all([
    arms.length > 0 ? shard.recordLeftOutExposures(arms, reason) : undefined,
    recordFirstVisit(stores, firstVisit),
  ]);
}
