import { DECLINE_CLASSES, type DeclineClass } from '../../../shared/decline-class';
import type { Outcome } from './outcomes';
import type { Statement } from './split-statements';
import {
  countVisitorsOnce,
  latestPerVisitor,
  type OutcomeFamily,
  outcomeRowsStatement,
} from './visitor-outcomes';

/**
 * The payment declines by class in every experiment's tables (the shards only): how many exposed
 * visitors of each arm had a decline of each class (shared/decline-class.ts) after their
 * exposure, each visitor once per class, like the `declined` flag: one family of the outcomes
 * counted once per visitor (visitor-outcomes.ts), its bits in `xp_exposures.decline_classes` and
 * its counts in `xp_declines`.
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

const DECLINES: OutcomeFamily = {
  table: 'xp_declines',
  kindColumn: 'decline_class',
  bitsColumn: 'decline_classes',
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
 * Two statements per class the outcomes name (visitor-outcomes.ts): the count into each arm its
 * visitors were exposed to at or before their decline, then the bit, both only where the bit is
 * not set yet (so a message delivered again counts nothing). A visitor's latest decline of a class decides, as for
 * the flag. Outcomes without a class (a technical failure, or a value that is no class) count in
 * none.
 */
export function declineStatements(outcomes: readonly Outcome[]): Statement[] {
  return DECLINE_CLASSES.flatMap((declineClass) =>
    countVisitorsOnce(
      DECLINES,
      declineClass,
      DECLINE_BITS[declineClass],
      latestPerVisitor(
        outcomes,
        (outcome) =>
          outcome.event === 'subs_purchase_failed' && outcome.declineClass === declineClass,
      ),
    ),
  );
}

/** An arm's visitors with a decline of one class. */
export interface DeclineRow {
  variant: string;
  decline_class: DeclineClass;
  visitors: number;
}

export function declineRowsStatement(experiment: string, phase: number): Statement {
  return outcomeRowsStatement(DECLINES, experiment, phase);
}
