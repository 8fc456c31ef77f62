/**
 * The tables and triggers of an experiment shard (worker/experiments/store/experiment-shard.ts): those
 * of EVENTS_DB's migrations 0003_experiment_exposures.sql, 0004_experiment_days.sql and
 * 0007_routes_in_experiments.sql, where each table, column and trigger is explained. One schema
 * in two stores, so the same statements (split-statements.ts) write and read both: the
 * shards, and EVENTS_DB's rows of the visitors exposed before the shards (experiment-stores.ts). A test compares the two
 * (test/worker/experiments/experiment-shard.test.ts), so they cannot drift apart.
 */

import { EVERY_EXPERIMENT_MIGRATION } from './every-experiment-schema';

/**
 * The shards' migrations, in order: a change to their tables is a new entry, never an edit of
 * one run already, and every shard runs what it has not yet when it next wakes (the count it ran
 * is its schema version).
 */
export const SHARD_MIGRATIONS: readonly (readonly string[])[] = [
  [
    `CREATE TABLE exposures (
  visitor_id TEXT PRIMARY KEY,
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  config_version TEXT NOT NULL,
  exposed_at INTEGER NOT NULL,
  reached_lookup INTEGER NOT NULL DEFAULT 0,
  signed_up INTEGER NOT NULL DEFAULT 0,
  reached_checkout INTEGER NOT NULL DEFAULT 0,
  purchased INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID`,
    `CREATE TABLE experiment_purchases (
  subscription_id TEXT PRIMARY KEY,
  visitor_id TEXT NOT NULL,
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  amount_minor INTEGER,
  currency TEXT,
  recorded_at INTEGER NOT NULL
) WITHOUT ROWID`,
    `CREATE INDEX experiment_purchases_by_visitor ON experiment_purchases (visitor_id, currency)`,
    `CREATE TABLE experiment_arms (
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  exposed INTEGER NOT NULL DEFAULT 0,
  reached_lookup INTEGER NOT NULL DEFAULT 0,
  signed_up INTEGER NOT NULL DEFAULT 0,
  reached_checkout INTEGER NOT NULL DEFAULT 0,
  purchased INTEGER NOT NULL DEFAULT 0,
  purchases INTEGER NOT NULL DEFAULT 0,
  unpriced_purchases INTEGER NOT NULL DEFAULT 0,
  bots INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (phase, variant)
) WITHOUT ROWID`,
    `CREATE TABLE experiment_revenue (
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  currency TEXT NOT NULL,
  revenue_minor INTEGER NOT NULL,
  visitors INTEGER NOT NULL,
  PRIMARY KEY (phase, variant, currency, revenue_minor)
) WITHOUT ROWID`,
    `CREATE TRIGGER exposure_counted AFTER INSERT ON exposures
BEGIN
  INSERT INTO experiment_arms (phase, variant, exposed) VALUES (NEW.phase, NEW.variant, 1)
    ON CONFLICT (phase, variant) DO UPDATE SET exposed = exposed + 1;
END`,
    `CREATE TRIGGER exposure_outcome_counted AFTER UPDATE ON exposures
BEGIN
  UPDATE experiment_arms SET
    reached_lookup = reached_lookup + NEW.reached_lookup - OLD.reached_lookup,
    signed_up = signed_up + NEW.signed_up - OLD.signed_up,
    reached_checkout = reached_checkout + NEW.reached_checkout - OLD.reached_checkout,
    purchased = purchased + NEW.purchased - OLD.purchased
  WHERE phase = NEW.phase AND variant = NEW.variant;
END`,
    `CREATE TRIGGER experiment_purchase_counted AFTER INSERT ON experiment_purchases
BEGIN
  UPDATE exposures SET purchased = 1 WHERE visitor_id = NEW.visitor_id AND purchased = 0;
  UPDATE experiment_arms SET
    purchases = purchases + 1,
    unpriced_purchases = unpriced_purchases + (NEW.amount_minor IS NULL OR NEW.currency IS NULL)
  WHERE phase = NEW.phase AND variant = NEW.variant;
  UPDATE experiment_revenue SET visitors = visitors - 1
  WHERE NEW.amount_minor > 0 AND NEW.currency IS NOT NULL
    AND phase = NEW.phase AND variant = NEW.variant AND currency = NEW.currency
    AND revenue_minor = (
      SELECT SUM(amount_minor) FROM experiment_purchases
      WHERE visitor_id = NEW.visitor_id AND currency = NEW.currency
    ) - NEW.amount_minor;
  DELETE FROM experiment_revenue
  WHERE phase = NEW.phase AND variant = NEW.variant AND currency = NEW.currency AND visitors = 0;
  INSERT INTO experiment_revenue (phase, variant, currency, revenue_minor, visitors)
    SELECT NEW.phase, NEW.variant, NEW.currency, SUM(amount_minor), 1 FROM experiment_purchases
    WHERE NEW.amount_minor > 0 AND NEW.currency IS NOT NULL
      AND visitor_id = NEW.visitor_id AND currency = NEW.currency
    GROUP BY visitor_id
    ON CONFLICT (phase, variant, currency, revenue_minor) DO UPDATE SET visitors = visitors + 1;
END`,
    `CREATE TABLE experiment_days (
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  day TEXT NOT NULL,
  exposed INTEGER NOT NULL DEFAULT 0,
  reached_lookup INTEGER NOT NULL DEFAULT 0,
  signed_up INTEGER NOT NULL DEFAULT 0,
  reached_checkout INTEGER NOT NULL DEFAULT 0,
  purchased INTEGER NOT NULL DEFAULT 0,
  first_exposed_at INTEGER NOT NULL,
  PRIMARY KEY (phase, variant, day)
) WITHOUT ROWID`,
    `CREATE TABLE experiment_day_revenue (
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  day TEXT NOT NULL,
  currency TEXT NOT NULL,
  revenue_minor INTEGER NOT NULL,
  visitors INTEGER NOT NULL,
  PRIMARY KEY (phase, variant, day, currency, revenue_minor)
) WITHOUT ROWID`,
    `CREATE TRIGGER exposure_counted_by_day AFTER INSERT ON exposures
BEGIN
  INSERT INTO experiment_days (phase, variant, day, exposed, first_exposed_at)
    VALUES (NEW.phase, NEW.variant, date(NEW.exposed_at / 1000, 'unixepoch'), 1, NEW.exposed_at)
    ON CONFLICT (phase, variant, day) DO UPDATE SET
      exposed = exposed + 1,
      first_exposed_at = min(first_exposed_at, excluded.first_exposed_at);
END`,
    `CREATE TRIGGER exposure_outcome_counted_by_day
AFTER UPDATE OF reached_lookup, signed_up, reached_checkout, purchased ON exposures
BEGIN
  UPDATE experiment_days SET
    reached_lookup = reached_lookup + NEW.reached_lookup - OLD.reached_lookup,
    signed_up = signed_up + NEW.signed_up - OLD.signed_up,
    reached_checkout = reached_checkout + NEW.reached_checkout - OLD.reached_checkout,
    purchased = purchased + NEW.purchased - OLD.purchased
  WHERE phase = NEW.phase AND variant = NEW.variant
    AND day = date(NEW.exposed_at / 1000, 'unixepoch');
END`,
    `CREATE TRIGGER experiment_purchase_counted_by_day AFTER INSERT ON experiment_purchases
WHEN NEW.amount_minor > 0 AND NEW.currency IS NOT NULL
BEGIN
  UPDATE experiment_day_revenue SET visitors = visitors - 1
  WHERE phase = NEW.phase AND variant = NEW.variant AND currency = NEW.currency
    AND day = (
      SELECT date(exposed_at / 1000, 'unixepoch') FROM exposures
      WHERE visitor_id = NEW.visitor_id
    )
    AND revenue_minor = (
      SELECT SUM(amount_minor) FROM experiment_purchases
      WHERE visitor_id = NEW.visitor_id AND currency = NEW.currency
    ) - NEW.amount_minor;
  DELETE FROM experiment_day_revenue
  WHERE phase = NEW.phase AND variant = NEW.variant AND currency = NEW.currency AND visitors = 0;
  INSERT INTO experiment_day_revenue (phase, variant, day, currency, revenue_minor, visitors)
    SELECT NEW.phase, NEW.variant, date(e.exposed_at / 1000, 'unixepoch'), NEW.currency,
           (SELECT SUM(amount_minor) FROM experiment_purchases
            WHERE visitor_id = NEW.visitor_id AND currency = NEW.currency), 1
    FROM exposures AS e WHERE e.visitor_id = NEW.visitor_id
    ON CONFLICT (phase, variant, day, currency, revenue_minor) DO UPDATE SET
      visitors = visitors + 1;
END`,
  ],
  // 0007_routes_in_experiments.sql: each exposure's route and source, and first visits by route
  // and day. ALTER TABLE ... ADD COLUMN rewrites no row: a shard's existing visitors read NULL.
  [
    'ALTER TABLE exposures ADD COLUMN route TEXT',
    'ALTER TABLE exposures ADD COLUMN source TEXT',
    `CREATE TABLE route_days (
  route TEXT NOT NULL,
  day TEXT NOT NULL,
  visits INTEGER NOT NULL,
  PRIMARY KEY (route, day)
) WITHOUT ROWID`,
  ],
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
];
