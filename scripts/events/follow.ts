import { eventsAfter } from '../../worker/collector/event-log';
import { formatEventLine } from './format';

/** `tail` asks for new events this often. */
export const POLL_INTERVAL_MS = 1000;
/** Rows read per query, so a large store is printed in pages, not held in memory at once. */
export const PAGE_SIZE = 500;

export interface FollowIo {
  print(line: string): void;
  /** Waits `ms`, or less when stopped. */
  sleep(ms: number): Promise<void>;
  /** True once the user pressed Ctrl-C. */
  stopped(): boolean;
}

/**
 * Prints every stored event in arrival order, then polls for new ones until stopped. Returns
 * how many it printed. Arrival order is the store's seq, so an event is printed once even when
 * its visitor's clock put it earlier than ones already shown.
 */
export async function followEvents(db: D1Database, io: FollowIo): Promise<number> {
  let last = 0;
  let printed = 0;
  while (!io.stopped()) {
    const rows = await eventsAfter(db, last, PAGE_SIZE);
    for (const row of rows) {
      io.print(formatEventLine(row));
      last = row.seq;
      printed += 1;
    }
    if (rows.length < PAGE_SIZE) await io.sleep(POLL_INTERVAL_MS);
  }
  return printed;
}
