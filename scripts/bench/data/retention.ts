import { SEEN_RETENTION_MS } from '../../../worker/collector/intake-rules';

const DAY_MS = 24 * 3600 * 1000;

/**
 * How long each D1 table keeps a visitor's rows, as read from the code that deletes them. A table
 * not listed keeps its rows for good (nothing deletes them), which the report says.
 */
export const TABLE_RETENTION: Readonly<Record<string, { days: number; source: string }>> = {
  // Pruned after an answer of /e, at most once a minute per isolate (worker/collector/seen-ids.ts).
  'EVENTS_DB.seen_events': { days: SEEN_RETENTION_MS / DAY_MS, source: 'seen-ids.ts pruner' },
  'EVENTS_DB.deliveries': { days: SEEN_RETENTION_MS / DAY_MS, source: 'seen-ids.ts pruner' },
  // Deleted once expired, 15 minutes after they are made (worker/resume/resume-store.ts).
  'EVENTS_DB.resume_links': { days: 15 / (24 * 60), source: 'resume-store.ts' },
};

export function retentionOf(binding: string, table: string): number | null {
  return TABLE_RETENTION[`${binding}.${table}`]?.days ?? null;
}
