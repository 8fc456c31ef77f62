import { EVENTS_DB_RETENTION } from '../../../worker/collector/retention';
import { VISITOR_ROWS_KEPT_MS } from '../../../worker/experiments/assignment/assign';
import { ANSWERS_KEPT_MS } from '../../../worker/experiments/store/answer-statements';
import { PENDING_KEPT_MS } from '../../../worker/experiments/store/confirmation-statements';
import { FUNNEL_VISITORS_KEPT_MS } from '../../../worker/experiments/store/funnel-statements';

const DAY_MS = 24 * 3600 * 1000;

/**
 * How long each D1 table keeps a visitor's rows, read from the code that deletes them. A table
 * not listed keeps its rows for good (nothing deletes them), which the report says.
 */
export const TABLE_RETENTION: Readonly<Record<string, { days: number; source: string }>> = {
  // The hourly cron's list (worker/collector/retention.ts).
  ...Object.fromEntries(
    EVENTS_DB_RETENTION.map(({ table, keepMs }) => [
      `EVENTS_DB.${table}`,
      { days: keepMs / DAY_MS, source: 'retention.ts cron' },
    ]),
  ),
  // Deleted once expired, 15 minutes after they are made (worker/resume/resume-store.ts).
  'EVENTS_DB.resume_links': { days: 15 / (24 * 60), source: 'resume-store.ts' },
  // The experiment shards' tables their alarm empties sooner than the visitors' 13 months
  // (worker/experiments/store/experiment-shard.ts): the rest are read at the horizon.
  'EXPERIMENT_SHARDS.xp_answers': {
    days: ANSWERS_KEPT_MS / DAY_MS,
    source: 'answer-statements.ts',
  },
  'EXPERIMENT_SHARDS.fn_visitors': {
    days: FUNNEL_VISITORS_KEPT_MS / DAY_MS,
    source: 'funnel-statements.ts',
  },
  'EXPERIMENT_SHARDS.xp_pending_exposures': {
    days: PENDING_KEPT_MS / DAY_MS,
    source: 'confirmation-statements.ts',
  },
  'EXPERIMENT_SHARDS.xp_confirmed_visitors': {
    days: PENDING_KEPT_MS / DAY_MS,
    source: 'confirmation-statements.ts',
  },
};

/**
 * How long the experiment shards keep a visitor's rows (their alarm, worker/experiments/
 * experiment-shard.ts): the default horizon, so rows kept for good are read as they stand
 * when the oldest visitor's rows go.
 */
export const SHARD_ROWS_KEPT_DAYS = VISITOR_ROWS_KEPT_MS / DAY_MS;

export function retentionOf(binding: string, table: string): number | null {
  return TABLE_RETENTION[`${binding}.${table}`]?.days ?? null;
}
