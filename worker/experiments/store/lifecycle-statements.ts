import type { RevenueEvent } from './revenue-events';
import type { Statement } from './split-statements';
import { countOnceStatements, type OutcomeFamily, outcomeRowsStatement } from './visitor-outcomes';

/**
 * What happened to the subscriptions after their first payment, per arm, in every experiment's
 * tables (the shards only; docs/experiments.md, "After the first payment"): how many exposed
 * buyers had a renewal fail, had a failed renewal recovered, cancelled, and renewed (a renewal
 * paid: retention), each visitor once per outcome (one family of the outcomes counted once per
 * visitor, visitor-outcomes.ts: its bits in `xp_exposures.lifecycle_outcomes`), and
 * the recovered revenue per currency (`xp_recovered`: the renewals that paid a failed one, each
 * event once, as every lifecycle event is claimed once in xp_revenue_events). Counted where the
 * net revenue is: the experiments the buyer was exposed to before buying the subscription.
 */

/** The outcomes counted once per visitor, in the results' order. */
export const LIFECYCLE_OUTCOMES = ['renewal_failed', 'recovered', 'cancelled', 'renewed'] as const;
export type LifecycleOutcome = (typeof LIFECYCLE_OUTCOMES)[number];

/** Each outcome's bit in `xp_exposures.lifecycle_outcomes`: a bit, once given, keeps its outcome. */
const OUTCOME_BITS: Record<LifecycleOutcome, number> = {
  renewal_failed: 1,
  recovered: 2,
  cancelled: 4,
  renewed: 8,
};

const LIFECYCLE: OutcomeFamily = {
  table: 'xp_lifecycle',
  kindColumn: 'outcome',
  bitsColumn: 'lifecycle_outcomes',
};

export const LIFECYCLE_MIGRATION: readonly string[] = [
  // ALTER TABLE … ADD COLUMN rewrites no row, and a 0 is only its type byte in a record's header.
  'ALTER TABLE xp_exposures ADD COLUMN lifecycle_outcomes INTEGER NOT NULL DEFAULT 0',
  `CREATE TABLE xp_lifecycle (
  experiment TEXT NOT NULL,
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  outcome TEXT NOT NULL,
  visitors INTEGER NOT NULL,
  PRIMARY KEY (experiment, phase, variant, outcome)
) WITHOUT ROWID`,
  `CREATE TABLE xp_recovered (
  experiment TEXT NOT NULL,
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  currency TEXT NOT NULL,
  amount_minor INTEGER NOT NULL,
  renewals INTEGER NOT NULL,
  PRIMARY KEY (experiment, phase, variant, currency)
) WITHOUT ROWID`,
];

/**
 * The outcomes an event counts as: a renewal paid is `renewed` (retention: the buyer stayed a
 * period more), and `recovered` too when it paid a failed one.
 */
function outcomesOf(event: RevenueEvent): LifecycleOutcome[] {
  if (event.kind === 'renewal_failed') return ['renewal_failed'];
  if (event.kind === 'cancellation') return ['cancelled'];
  if (event.kind !== 'renewal') return [];
  return event.recovered === true ? ['recovered', 'renewed'] : ['renewed'];
}

/** The exposures an event counts in: its buyer's, at or before it, who bought its subscription after. */
const COUNTED_EXPOSURES = `xp_exposures.visitor_id = ?1 AND xp_exposures.exposed_at <= ?2
  AND EXISTS (
    SELECT 1 FROM xp_purchases AS bought
    WHERE bought.visitor_id = xp_exposures.visitor_id
      AND bought.experiment = xp_exposures.experiment
      AND bought.subscription_id = ?3
  )`;

/** What `outcome` adds in each arm where the event's buyer has not counted it yet, then its bit. */
function outcomeStatements(event: RevenueEvent, outcome: LifecycleOutcome): Statement[] {
  return countOnceStatements(LIFECYCLE, outcome, OUTCOME_BITS[outcome], {
    where: COUNTED_EXPOSURES,
    params: [event.visitorId, event.at, event.subscriptionId],
  });
}

/**
 * What a claimed event (revenue-events.ts revenueEventClaim: each event id once) adds: each of
 * its outcomes' count in each arm where the buyer has not counted it yet, then the bit; and for
 * a recovered renewal, its amount to the arm's recovered revenue in its currency.
 */
export function lifecycleStatements(event: RevenueEvent): Statement[] {
  const outcomes = outcomesOf(event);
  const counted = outcomes.flatMap((outcome) => outcomeStatements(event, outcome));
  const recovered = outcomes.includes('recovered');
  if (!recovered || event.currency === null || event.amountMinor <= 0) return counted;
  return [
    {
      sql: `INSERT INTO xp_recovered (experiment, phase, variant, currency, amount_minor, renewals)
            SELECT experiment, phase, variant, ?4, ?5, 1 FROM xp_exposures
            WHERE ${COUNTED_EXPOSURES}
            ON CONFLICT (experiment, phase, variant, currency) DO UPDATE SET
              amount_minor = amount_minor + excluded.amount_minor,
              renewals = renewals + 1`,
      params: [event.visitorId, event.at, event.subscriptionId, event.currency, event.amountMinor],
    },
    ...counted,
  ];
}

/** An arm's visitors with one outcome. */
export interface LifecycleRow {
  variant: string;
  outcome: LifecycleOutcome;
  visitors: number;
}

/** An arm's recovered revenue in one currency, and the renewals it came from. */
export interface RecoveredRow {
  variant: string;
  currency: string;
  amount_minor: number;
  renewals: number;
}

export function lifecycleRowsStatement(experiment: string, phase: number): Statement {
  return outcomeRowsStatement(LIFECYCLE, experiment, phase);
}

export function recoveredRowsStatement(experiment: string, phase: number): Statement {
  return {
    sql: `SELECT variant, currency, amount_minor, renewals FROM xp_recovered
          WHERE experiment = ?1 AND phase = ?2 ORDER BY variant, currency`,
    params: [experiment, phase],
  };
}
