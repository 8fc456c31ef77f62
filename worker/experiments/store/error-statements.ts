import type { Statement } from './split-statements';
import {
  countVisitorsOnce,
  latestPerVisitor,
  type OutcomeFamily,
  outcomeRowsStatement,
} from './visitor-outcomes';

/**
 * The errors exposed visitors met, per arm, in every experiment's tables (the shards only), each
 * visitor once per kind after their exposure: one family of the outcomes counted once per visitor
 * (visitor-outcomes.ts), its bits in `xp_exposures.error_kinds` and its counts in `xp_errors`. A
 * guarded ramp watches them (shared/ramps.ts `server_errors`, `client_errors`):
 * - `server_error`: the worker answered one of the visitor's requests with a 5xx
 *   (worker/middleware/server-errors.ts), which no browser can claim;
 * - `client_error`: the visitor's own browser reported an island or script that failed, or the
 *   checkout's error state (worker/collector/consumer/experiment-outcomes.ts), which a visitor
 *   can forge for their own row only.
 */
export const ERROR_KINDS = ['server_error', 'client_error'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** Each kind's bit in `xp_exposures.error_kinds`: a bit, once given, keeps its kind. */
const ERROR_BITS: Record<ErrorKind, number> = { server_error: 1, client_error: 2 };

const ERRORS: OutcomeFamily = { table: 'xp_errors', kindColumn: 'kind', bitsColumn: 'error_kinds' };

export const ERRORS_MIGRATION: readonly string[] = [
  // ALTER TABLE … ADD COLUMN rewrites no row, and a 0 is only its type byte in a record's header.
  'ALTER TABLE xp_exposures ADD COLUMN error_kinds INTEGER NOT NULL DEFAULT 0',
  `CREATE TABLE xp_errors (
  experiment TEXT NOT NULL,
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  kind TEXT NOT NULL,
  visitors INTEGER NOT NULL,
  PRIMARY KEY (experiment, phase, variant, kind)
) WITHOUT ROWID`,
];

/** An error one visitor met, when (epoch ms): it counts where they were exposed at or before. */
export interface VisitorError {
  visitorId: string;
  kind: ErrorKind;
  at: number;
}

/** Two statements per kind the errors name; a visitor's latest error of a kind decides. */
export function errorStatements(errors: readonly VisitorError[]): Statement[] {
  return ERROR_KINDS.flatMap((kind) =>
    countVisitorsOnce(
      ERRORS,
      kind,
      ERROR_BITS[kind],
      latestPerVisitor(errors, (error) => error.kind === kind),
    ),
  );
}

/** An arm's visitors who met one kind of error. */
export interface ErrorRow {
  variant: string;
  kind: ErrorKind;
  visitors: number;
}

export function errorRowsStatement(experiment: string, phase: number): Statement {
  return outcomeRowsStatement(ERRORS, experiment, phase);
}
