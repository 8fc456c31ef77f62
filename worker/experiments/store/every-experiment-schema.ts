/**
 * The shard migration that counts every experiment of the `experiments` section, the split
 * included from then on (shard-schema.ts SHARD_MIGRATIONS appends it). Tables are prefixed
 * `xp_`: they live in the shards only, never in EVENTS_DB, whose experiment tables hold the split's
 * visitors from before the shards and keep the split's own schema (shard-schema.ts).
 *
 * As for the split: a visitor's rows exist only to count them once (their exposure to each
 * experiment, each step, each purchase, each lifecycle event), and triggers keep the per-arm
 * totals, counts by exposure day, segment counts and revenue histograms in the same transaction,
 * so the results read a few rows per arm, never the visitors'.
 *
 * - `xp_segment_sets`: each distinct set of segments captured at exposure, once; an exposure
 *   names its set by id (1–3 bytes), not its six texts (about 35 bytes): the sets a shard sees
 *   are bounded by the levels that occur, never by visitors, and are not deleted.
 * - `xp_exposures`: a visitor's first exposure to an experiment (one row per visitor and
 *   experiment, whatever the phase) and the steps reached after it (0/1 flags).
 * - `xp_arms`, `xp_days`, `xp_segments`: the totals of each arm, by exposure day (UTC), and by
 *   segment level.
 * - `xp_purchases`: each verified purchase counted once per subscription in each experiment the
 *   buyer was exposed to before it; `upsell` for a plan whose role is not main.
 * - `xp_money`: a buyer's revenue per experiment and currency: `paid_minor` the first payments
 *   after exposure, `net_minor` those plus renewals, less refunds and chargebacks, after exposure.
 *   Their arm and exposure day are copied in (buyers only), so the histograms' triggers need no
 *   join. `xp_revenue`/`xp_day_revenue` count visitors by paid amount, `xp_net_revenue`/
 *   `xp_day_net_revenue` by net amount; an amount of 0 is in no bucket.
 * - `xp_revenue_events`: the lifecycle event ids taken, each counted once.
 *
 * Never edit this once deployed: a change is a new migration.
 */

/**
 * The steps a visitor reaches after exposure, in funnel order: 0/1 flags on an exposure, counts
 * on the arms, days and segments. The outcomes add a decline and a refund, which the days do not
 * count.
 */
const STEPS = ['reached_lookup', 'signed_up', 'reached_checkout', 'purchased', 'upsold'];
const OUTCOMES = [...STEPS, 'declined', 'refunded'];

/** The counters' column definitions, each line ending in a comma. */
const columns = (names: readonly string[]) =>
  names.map((name) => `  ${name} INTEGER NOT NULL DEFAULT 0,`).join('\n');

/** An update's SET list that moves each counter by its exposure flag's change. */
const changes = (names: readonly string[]) =>
  names.map((name) => `    ${name} = ${name} + NEW.${name} - OLD.${name}`).join(',\n');

/** A segment set's dimensions as (name, level) rows, for the segment triggers. */
const SEGMENT_LEVELS = `SELECT d.column1 AS dimension, CASE d.column1
      WHEN 'country' THEN s.country WHEN 'source' THEN s.source WHEN 'platform' THEN s.platform
      WHEN 'in_app' THEN s.in_app WHEN 'language' THEN s.language ELSE s.route END AS level
    FROM xp_segment_sets AS s,
      (VALUES ('country'), ('source'), ('platform'), ('in_app'), ('language'), ('route')) AS d
    WHERE s.id = NEW.segments`;

/** The statements of one histogram pair (total and by day) moved off `old` onto `amount`. */
function histogramMove(total: string, byDay: string, old: string | null, amount: string): string {
  const leave =
    old === null
      ? ''
      : `UPDATE ${total} SET visitors = visitors - 1
  WHERE ${old} <> 0 AND experiment = NEW.experiment AND phase = NEW.phase
    AND variant = NEW.variant AND currency = NEW.currency AND revenue_minor = ${old};
  DELETE FROM ${total} WHERE experiment = NEW.experiment AND phase = NEW.phase
    AND variant = NEW.variant AND currency = NEW.currency AND revenue_minor = ${old} AND visitors = 0;
  UPDATE ${byDay} SET visitors = visitors - 1
  WHERE ${old} <> 0 AND experiment = NEW.experiment AND phase = NEW.phase
    AND variant = NEW.variant AND day = NEW.day AND currency = NEW.currency
    AND revenue_minor = ${old};
  DELETE FROM ${byDay} WHERE experiment = NEW.experiment AND phase = NEW.phase
    AND variant = NEW.variant AND day = NEW.day AND currency = NEW.currency
    AND revenue_minor = ${old} AND visitors = 0;
`;
  return `${leave}  INSERT INTO ${total} (experiment, phase, variant, currency, revenue_minor, visitors)
    SELECT NEW.experiment, NEW.phase, NEW.variant, NEW.currency, ${amount}, 1 WHERE ${amount} <> 0
    ON CONFLICT (experiment, phase, variant, currency, revenue_minor) DO UPDATE SET
      visitors = visitors + 1;
  INSERT INTO ${byDay} (experiment, phase, variant, day, currency, revenue_minor, visitors)
    SELECT NEW.experiment, NEW.phase, NEW.variant, NEW.day, NEW.currency, ${amount}, 1
    WHERE ${amount} <> 0
    ON CONFLICT (experiment, phase, variant, day, currency, revenue_minor) DO UPDATE SET
      visitors = visitors + 1;`;
}

const histogramTable = (name: string, day: boolean) => `CREATE TABLE ${name} (
  experiment TEXT NOT NULL,
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,${day ? '\n  day TEXT NOT NULL,' : ''}
  currency TEXT NOT NULL,
  revenue_minor INTEGER NOT NULL,
  visitors INTEGER NOT NULL,
  PRIMARY KEY (experiment, phase, variant,${day ? ' day,' : ''} currency, revenue_minor)
) WITHOUT ROWID`;

export const EVERY_EXPERIMENT_MIGRATION: readonly string[] = [
  `CREATE TABLE xp_segment_sets (
  id INTEGER PRIMARY KEY,
  country TEXT NOT NULL,
  source TEXT NOT NULL,
  platform TEXT NOT NULL,
  in_app TEXT NOT NULL,
  language TEXT NOT NULL,
  route TEXT NOT NULL,
  UNIQUE (country, source, platform, in_app, language, route)
)`,
  `CREATE TABLE xp_exposures (
  visitor_id TEXT NOT NULL,
  experiment TEXT NOT NULL,
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  config_version TEXT NOT NULL,
  exposed_at INTEGER NOT NULL,
  segments INTEGER NOT NULL,
${columns(OUTCOMES)}
  PRIMARY KEY (visitor_id, experiment)
) WITHOUT ROWID`,
  `CREATE TABLE xp_arms (
  experiment TEXT NOT NULL,
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  exposed INTEGER NOT NULL DEFAULT 0,
${columns(OUTCOMES)}
  purchases INTEGER NOT NULL DEFAULT 0,
  unpriced_purchases INTEGER NOT NULL DEFAULT 0,
  bots INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (experiment, phase, variant)
) WITHOUT ROWID`,
  `CREATE TABLE xp_days (
  experiment TEXT NOT NULL,
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  day TEXT NOT NULL,
  exposed INTEGER NOT NULL DEFAULT 0,
${columns(STEPS)}
  first_exposed_at INTEGER NOT NULL,
  PRIMARY KEY (experiment, phase, variant, day)
) WITHOUT ROWID`,
  // Keyed dimension first, so one dimension's rows are one range.
  `CREATE TABLE xp_segments (
  experiment TEXT NOT NULL,
  phase INTEGER NOT NULL,
  dimension TEXT NOT NULL,
  level TEXT NOT NULL,
  variant TEXT NOT NULL,
  exposed INTEGER NOT NULL DEFAULT 0,
${columns(OUTCOMES)}
  PRIMARY KEY (experiment, phase, dimension, level, variant)
) WITHOUT ROWID`,
  `CREATE TABLE xp_purchases (
  visitor_id TEXT NOT NULL,
  experiment TEXT NOT NULL,
  subscription_id TEXT NOT NULL,
  upsell INTEGER NOT NULL,
  amount_minor INTEGER,
  currency TEXT,
  PRIMARY KEY (visitor_id, experiment, subscription_id)
) WITHOUT ROWID`,
  `CREATE TABLE xp_money (
  visitor_id TEXT NOT NULL,
  experiment TEXT NOT NULL,
  currency TEXT NOT NULL,
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  day TEXT NOT NULL,
  paid_minor INTEGER NOT NULL DEFAULT 0,
  net_minor INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (visitor_id, experiment, currency)
) WITHOUT ROWID`,
  histogramTable('xp_revenue', false),
  histogramTable('xp_day_revenue', true),
  histogramTable('xp_net_revenue', false),
  histogramTable('xp_day_net_revenue', true),
  `CREATE TABLE xp_revenue_events (
  event_id TEXT PRIMARY KEY,
  at INTEGER NOT NULL
) WITHOUT ROWID`,
  `CREATE TRIGGER xp_exposure_counted AFTER INSERT ON xp_exposures
BEGIN
  INSERT INTO xp_arms (experiment, phase, variant, exposed)
    VALUES (NEW.experiment, NEW.phase, NEW.variant, 1)
    ON CONFLICT (experiment, phase, variant) DO UPDATE SET exposed = exposed + 1;
  INSERT INTO xp_days (experiment, phase, variant, day, exposed, first_exposed_at)
    VALUES (NEW.experiment, NEW.phase, NEW.variant, date(NEW.exposed_at / 1000, 'unixepoch'), 1,
            NEW.exposed_at)
    ON CONFLICT (experiment, phase, variant, day) DO UPDATE SET
      exposed = exposed + 1,
      first_exposed_at = min(first_exposed_at, excluded.first_exposed_at);
  INSERT INTO xp_segments (experiment, phase, variant, dimension, level, exposed)
    SELECT NEW.experiment, NEW.phase, NEW.variant, levels.dimension, levels.level, 1
    FROM (${SEGMENT_LEVELS}) AS levels WHERE true
    ON CONFLICT (experiment, phase, dimension, level, variant) DO UPDATE SET exposed = exposed + 1;
END`,
  `CREATE TRIGGER xp_exposure_outcome_counted
AFTER UPDATE OF reached_lookup, signed_up, reached_checkout, purchased, upsold, declined, refunded
ON xp_exposures
BEGIN
  UPDATE xp_arms SET
${changes(OUTCOMES)}
  WHERE experiment = NEW.experiment AND phase = NEW.phase AND variant = NEW.variant;
  UPDATE xp_days SET
${changes(STEPS)}
  WHERE experiment = NEW.experiment AND phase = NEW.phase AND variant = NEW.variant
    AND day = date(NEW.exposed_at / 1000, 'unixepoch');
  UPDATE xp_segments SET
${changes(OUTCOMES)}
  WHERE experiment = NEW.experiment AND phase = NEW.phase AND variant = NEW.variant
    AND (dimension, level) IN (${SEGMENT_LEVELS});
END`,
  `CREATE TRIGGER xp_purchase_counted AFTER INSERT ON xp_purchases
BEGIN
  UPDATE xp_exposures SET purchased = 1
  WHERE visitor_id = NEW.visitor_id AND experiment = NEW.experiment AND NEW.upsell = 0
    AND purchased = 0;
  UPDATE xp_exposures SET upsold = 1
  WHERE visitor_id = NEW.visitor_id AND experiment = NEW.experiment AND NEW.upsell = 1
    AND upsold = 0;
  UPDATE xp_arms SET
    purchases = purchases + 1,
    unpriced_purchases = unpriced_purchases + (NEW.amount_minor IS NULL OR NEW.currency IS NULL)
  WHERE (experiment, phase, variant) IN (
    SELECT experiment, phase, variant FROM xp_exposures
    WHERE visitor_id = NEW.visitor_id AND experiment = NEW.experiment
  );
  INSERT INTO xp_money (visitor_id, experiment, currency, phase, variant, day, paid_minor, net_minor)
    SELECT NEW.visitor_id, NEW.experiment, NEW.currency, phase, variant,
           date(exposed_at / 1000, 'unixepoch'), NEW.amount_minor, NEW.amount_minor
    FROM xp_exposures
    WHERE visitor_id = NEW.visitor_id AND experiment = NEW.experiment
      AND NEW.amount_minor > 0 AND NEW.currency IS NOT NULL
    ON CONFLICT (visitor_id, experiment, currency) DO UPDATE SET
      paid_minor = paid_minor + excluded.paid_minor,
      net_minor = net_minor + excluded.net_minor;
END`,
  `CREATE TRIGGER xp_money_counted AFTER INSERT ON xp_money
BEGIN
${histogramMove('xp_revenue', 'xp_day_revenue', null, 'NEW.paid_minor')}
${histogramMove('xp_net_revenue', 'xp_day_net_revenue', null, 'NEW.net_minor')}
END`,
  `CREATE TRIGGER xp_paid_moved AFTER UPDATE OF paid_minor ON xp_money
WHEN OLD.paid_minor <> NEW.paid_minor
BEGIN
${histogramMove('xp_revenue', 'xp_day_revenue', 'OLD.paid_minor', 'NEW.paid_minor')}
END`,
  `CREATE TRIGGER xp_net_moved AFTER UPDATE OF net_minor ON xp_money
WHEN OLD.net_minor <> NEW.net_minor
BEGIN
${histogramMove('xp_net_revenue', 'xp_day_net_revenue', 'OLD.net_minor', 'NEW.net_minor')}
END`,
];
