/**
 * The tables and triggers of an experiment shard (experiment-shard.ts). The split's are
 * EVENTS_DB's migrations 0003_experiment_exposures.sql, 0004_experiment_days.sql and
 * 0007_routes_in_experiments.sql themselves (worker/events-db/migrations), where each table,
 * column and trigger is explained: a shard runs the very text D1 runs, so the two stores keep one
 * schema and the same statements (split-statements.ts) write and read both, the shards and
 * EVENTS_DB's rows of the visitors exposed before the shards (experiment-stores.ts). The files
 * are bundled as text (wrangler's default module rule for `.sql`, which vitest-pool-workers
 * follows too), and a shard runs each file as one multi-statement exec.
 */

import exposuresMigration from '../../events-db/migrations/0003_experiment_exposures.sql';
import experimentDaysMigration from '../../events-db/migrations/0004_experiment_days.sql';
import routesMigration from '../../events-db/migrations/0007_routes_in_experiments.sql';
import { ANSWERS_MIGRATION } from './answer-statements';
import { CONFIRMATION_MIGRATION } from './confirmation-statements';
import { DECLINES_MIGRATION } from './decline-statements';
import { ERRORS_MIGRATION } from './error-statements';
import { EVERY_EXPERIMENT_MIGRATION } from './every-experiment-schema';
import { FUNNEL_MIGRATION } from './funnel-statements';
import { LIFECYCLE_MIGRATION } from './lifecycle-statements';
import { SAVE_OFFER_ACTIONS_MIGRATION, SAVE_OFFER_MIGRATION } from './save-offer-statements';
import { STRATA_MIGRATION } from './strata-statements';
import { VITALS_DAYS_MIGRATION, VITALS_MIGRATION } from './vitals-statements';

/**
 * The shards' migrations, in order: a change to their tables is a new entry, never an edit of
 * one run already, and every shard runs what it has not yet when it next wakes (the count it ran
 * is its schema version).
 */
export const SHARD_MIGRATIONS: readonly (readonly string[])[] = [
  // The split's exposures, purchases and per-arm totals, and the same by exposure day.
  [exposuresMigration, experimentDaysMigration],
  // Each exposure's route and source, and first visits by route and day. ALTER TABLE ... ADD
  // COLUMN rewrites no row: a shard's existing visitors read NULL.
  [routesMigration],
  // Every experiment, the split's new visitors included, in tables of their own (shards only).
  EVERY_EXPERIMENT_MIGRATION,
  // How often each route's visitors reached each funnel step, by UTC day (shards only): the
  // console's duration estimate counts the traffic at an experiment's trigger from it
  // (route-steps.ts). A few rows a route and day, never a row per visitor.
  [
    `CREATE TABLE route_step_days (
  route TEXT NOT NULL,
  day TEXT NOT NULL,
  step TEXT NOT NULL,
  reached INTEGER NOT NULL,
  PRIMARY KEY (route, day, step)
) WITHOUT ROWID`,
  ],
  // The field vitals' histograms per arm, and which metrics each exposed visitor has counted
  // (vitals-statements.ts).
  VITALS_MIGRATION,
  // The payment declines by class per arm, and which classes each exposed visitor has counted
  // (decline-statements.ts).
  DECLINES_MIGRATION,
  // Failed renewals, recoveries and cancellations per arm, and the recovered revenue
  // (lifecycle-statements.ts).
  LIFECYCLE_MIGRATION,
  // A save offer test's subscriptions shown the offer, what each did after, and the per-arm
  // totals (save-offer-statements.ts).
  SAVE_OFFER_MIGRATION,
  // Exposed, steps and first payments by stratum (country, source, platform, language) per arm,
  // for the comparison adjusted for what is known at exposure (strata-statements.ts); the
  // visitors already exposed counted once from their rows.
  STRATA_MIGRATION,
  // The field vitals' histograms by exposure day, for the results' daily looks
  // (vitals-statements.ts).
  VITALS_DAYS_MIGRATION,
  // What a save offer's action, reasons for leaving and the subscriptions' net revenue after it
  // came to, per arm (save-offer-statements.ts).
  SAVE_OFFER_ACTIONS_MIGRATION,
  // Exposures left out because their address had spent its day's budget
  // (worker/experiments/exposure/exposure-budget.ts), per arm, apart from the exposed as bots are.
  ['ALTER TABLE xp_arms ADD COLUMN over_budget INTEGER NOT NULL DEFAULT 0'],
  // The errors exposed visitors met per arm, a guarded ramp's guardrails (error-statements.ts).
  ERRORS_MIGRATION,
  // Exposures pending until their visitor's page script confirms them, counted per arm as
  // `unconfirmed` meanwhile (confirmation-statements.ts); the rows already exposed stay counted.
  CONFIRMATION_MIGRATION,
  // Every new visitor's first visit, steps and first payments by day, route, source and
  // campaign, for the console's funnel report (funnel-statements.ts).
  FUNNEL_MIGRATION,
  // Exposed visitors' quiz answers, and every experiment's exposed and steps by answer per arm,
  // for the results' segments by an answer (answer-statements.ts).
  ANSWERS_MIGRATION,
];
