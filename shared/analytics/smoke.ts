import { COLLECTOR_PATH } from './tracking';

/**
 * `npm run smoke` (scripts/smoke/) as the worker knows it: the User-Agent every request of the
 * smoke carries, and where it asks which of its events reached the event archive
 * (worker/collector/smoke-receipts.ts; docs/operate.md, "After a deploy").
 *
 * The agent is a known bot's (worker/experiments/assignment/bots.ts), so the smoke's page loads
 * expose it to no arm and its steps count in no result; anyone may send it, and all it earns
 * them is to be left out of the results and Amplitude the same way.
 */
export const SMOKE_AGENT = 'geofunnel-smoke';

/** `GET` it with the visitor's cookies: the events of that visitor the archive holds. */
export const SMOKE_RECEIPTS_PATH = `${COLLECTOR_PATH}/smoke`;

/** One event of the asking visitor's that the archive holds. */
export interface SmokeReceipt {
  insert_id: string;
  event_type: string;
  /** The archive object it was written in (worker/collector/archive-layout.ts). */
  object: string;
}

/** The answer of SMOKE_RECEIPTS_PATH. */
export interface SmokeReceipts {
  archived: SmokeReceipt[];
}

/** Whether a request's User-Agent is the smoke's. */
export function isSmokeAgent(userAgent: string | null | undefined): boolean {
  return (userAgent ?? '').toLowerCase().includes(SMOKE_AGENT);
}
