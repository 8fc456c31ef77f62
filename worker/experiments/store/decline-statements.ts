import { DECLINE_CLASSES, type DeclineClass } from '../../../shared/decline-class';
import type { Outcome } from './outcomes';
import type { Statement } from './split-statements';

/**
 * The payment declines by class in every experiment's tables (the shards only): how many exposed
 * visitors of each arm had a decline of each class (shared/decline-class.ts) after their
 * exposure, each visitor once per class, like the `declined` flag. `xp_exposures.decline_classes`
 * keeps which classes a visitor has counted (a bit each), and `xp_declines` holds a row per arm
 * and class: nothing per visitor beyond the bits of a column that a 0 stores in no byte.
 */

/**
 * Each class's bit in `xp_exposures.decline_classes`. A bit, once given, keeps its class: a
 * class added later takes a new bit, and the rows hold the class by name.
 */
const DECLINE_BITS: Record<DeclineClass, number> = {
  insufficient_funds: 1,
  card_invalid: 2,
  do_not_honour: 4,
  authentication_failed: 8,
  processing_error: 16,
  fraud_suspected: 32,
  unknown: 64,
};

export const DECLINES_MIGRATION: readonly string[] = [
  // ALTER TABLE … ADD COLUMN rewrites no row, and a 0 is only its type byte in a record's header.
  'ALTER TABLE xp_exposures ADD COLUMN decline_classes INTEGER NOT NULL DEFAULT 0',
  `CREATE TABLE xp_declines (
  experiment TEXT NOT NULL,
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  decline_class TEXT NOT NULL,
  visitors INTEGER NOT NULL,
  PRIMARY KEY (experiment, phase, variant, decline_class)
) WITHOUT ROWID`,
];

/**
 * Two statements per class the outcomes name: the count into each arm its visitors were exposed
 * to at or before their decline, then the bit, both only where the bit is not set yet (so a
 * message delivered again counts nothing). A visitor's latest decline of a class decides, as for
 * the flag. Outcomes without a class (a technical failure, or a value that is no class) count in
 * none.
 */
export function declineStatements(outcomes: readonly Outcome[]): Statement[] {
  return DECLINE_CLASSES.flatMap((declineClass) => {
    const latest = new Map<string, number>();
    for (const outcome of outcomes) {
      if (outcome.event !== 'subs_purchase_failed' || outcome.declineClass !== declineClass) {
        continue;
      }
      latest.set(outcome.visitorId, Math.max(latest.get(outcome.visitorId) ?? 0, outcome.at));
    }
    if (latest.size === 0) return [];
    const bit = DECLINE_BITS[declineClass];
    const declines = `(SELECT json_extract(value, '$[0]') AS visitor_id,
                              json_extract(value, '$[1]') AS at
                       FROM json_each(?1)) AS d`;
    const where = `xp_exposures.visitor_id = d.visitor_id AND xp_exposures.exposed_at <= d.at
                   AND (xp_exposures.decline_classes & ?2) = 0`;
    const params = [JSON.stringify([...latest]), bit];
    return [
      {
        sql: `INSERT INTO xp_declines (experiment, phase, variant, decline_class, visitors)
              SELECT experiment, phase, variant, ?3, count(*) FROM xp_exposures JOIN ${declines}
              WHERE ${where}
              GROUP BY experiment, phase, variant
              ON CONFLICT (experiment, phase, variant, decline_class) DO UPDATE SET
                visitors = visitors + excluded.visitors`,
        params: [...params, declineClass],
      },
      {
        sql: `UPDATE xp_exposures SET decline_classes = decline_classes | ?2 FROM ${declines}
              WHERE ${where}`,
        params,
      },
    ];
  });
}

/** An arm's visitors with a decline of one class. */
export interface DeclineRow {
  variant: string;
  decline_class: DeclineClass;
  visitors: number;
}

export function declineRowsStatement(experiment: string, phase: number): Statement {
  return {
    sql: `SELECT variant, decline_class, visitors FROM xp_declines
          WHERE experiment = ?1 AND phase = ?2 ORDER BY variant, decline_class`,
    params: [experiment, phase],
  };
}
