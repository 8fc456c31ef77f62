/**
 * EVENTS_DB exposures (worker/collector/migrations/0003_experiment_exposures.sql): the writes
 * of the split test's denominator. The per-arm totals follow by the tables' triggers.
 *
 * At millions of visitors a day: a visitor's row exists only to count them once (the exposure,
 * each flag, each purchase); the results read the per-arm totals the triggers keep, a few rows
 * per variant, so reading never grows with traffic. A visitor costs one exposure statement, one
 * flag update per step (100 events per statement in the queue consumer) and one statement per
 * purchase, each 2–3 rows with its trigger. Measured in local D1
 * (test/worker/experiments/write-rate.test.ts): 400–1,000 exposures/s one statement each,
 * 20,000–50,000/s at 100 per statement, 20,000–65,000 flag updates/s, 70 bytes per exposure.
 * A D1 database runs one query at a time (about 1,000/s at 1 ms each) and holds 10 GB: 3
 * million new visitors a day (35/s, peaks near 10×) fit its writes, but fill it in about 7
 * weeks. So in production: the experiment tables move to a database of their own, away from
 * the collector's per-batch writes; exposures travel the events queue as messages the worker
 * vouches for, written a batch per statement (recordExposures takes a list for that); visitor
 * rows of a phase ended over 30 days ago are deleted (its totals stay); and past what one
 * database takes, the same schema and triggers run in N SQLite Durable Objects sharded by
 * visitor (10 GB and about 1,000 requests/s each), the results adding the shards' totals and
 * histograms (both add exactly; the 99th percentile is taken after adding).
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
}

/**
 * Records each visitor's exposure, once: a visitor already exposed (in this phase or an earlier
 * one, or earlier in the list) keeps their first row. One statement however many: a page writes
 * its one visitor, a queue consumer could write a batch (README, "Experiment results").
 */
export async function recordExposures(
  db: D1Database,
  exposures: readonly Exposure[],
): Promise<void> {
  if (exposures.length === 0) return;
  const rows = exposures.map((e) => [e.visitorId, e.phase, e.variant, e.configVersion, e.at]);
  // `WHERE true` tells SQLite's parser the ON below starts the upsert, not a join's constraint.
  await db
    .prepare(
      `INSERT INTO exposures (visitor_id, phase, variant, config_version, exposed_at)
       SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
              json_extract(value, '$[3]'), json_extract(value, '$[4]')
       FROM json_each(?1) WHERE true
       ON CONFLICT (visitor_id) DO NOTHING`,
    )
    .bind(JSON.stringify(rows))
    .run();
}

/**
 * Counts a known bot's draw in the arm, apart from the exposures. Bots rarely keep cookies, so
 * this counts their page loads rather than bots.
 */
export async function recordBotExposure(db: D1Database, arm: Arm): Promise<void> {
  await db
    .prepare(
      `INSERT INTO experiment_arms (phase, variant, bots) VALUES (?1, ?2, 1)
       ON CONFLICT (phase, variant) DO UPDATE SET bots = bots + 1`,
    )
    .bind(arm.phase, arm.variant)
    .run();
}
