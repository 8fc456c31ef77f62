import { readPageTicket, signPageTicket } from './page-ticket';

/**
 * The ticket of a page that may expose its visitor (docs/statistics.md, "What is counted"): the
 * page's script sends it back once its islands have hydrated, and only then do the visitor's
 * exposures count (./exposure-confirmation-route.ts). A script that loads pages and reads none of
 * them never sends it.
 */

/** The name the tickets are signed under (./page-ticket.ts), so no other's passes for one. */
const TICKET_NAME = 'exposure';

/**
 * How long after its page was served a ticket is taken: the script sends it within seconds of
 * the page; an hour leaves room for a page opened in a tab the browser holds back.
 */
export const EXPOSURE_TICKET_TTL_MS = 60 * 60 * 1000;

/** A page view's exposure ticket for `visitorId`, served at `now`. */
export function exposureTicket(key: string, visitorId: string, now: number): Promise<string> {
  return signPageTicket(key, TICKET_NAME, visitorId, now);
}

/**
 * When the page of a ticket `key` signed for `visitorId` was served (epoch ms), if within
 * EXPOSURE_TICKET_TTL_MS of `now`; else null.
 */
export async function exposureTicketServedAt(
  key: string,
  visitorId: string,
  ticket: unknown,
  now: number,
): Promise<number | null> {
  const read = await readPageTicket(key, TICKET_NAME, visitorId, ticket, {
    now,
    ttlMs: EXPOSURE_TICKET_TTL_MS,
  });
  return read?.servedAt ?? null;
}
