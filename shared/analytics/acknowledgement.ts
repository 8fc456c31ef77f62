/**
 * How the collector tells a later page which batches it received. A batch sent by beacon (or a
 * keepalive fetch whose page went away) has no page left to hear its answer, so the tracker keeps
 * its events until the collector has acknowledged the batch: each `POST /e?b=<batch id>` that
 * the collector is done with (taken, or refused for good) adds its id to the ACK_COOKIE cookie on
 * its answer, and the tracker of a later page reads the cookie, forgets the batches it names and
 * removes them from the cookie. Ids are random per batch, so an acknowledgement cannot name
 * another visitor's events, and the cookie never holds more than ACK_KEPT of them.
 */

/** Readable by the page (not HttpOnly): the tracker consumes it. */
export const ACK_COOKIE = 'gf_ack';

/** The query parameter of `POST /e` naming the batch. */
export const BATCH_PARAM = 'b';

/** 12 lowercase hex digits: 48 random bits, per batch and per browser. */
const BATCH_ID = /^[0-9a-f]{12}$/;

/** At most this many ids in the cookie (about 110 bytes); older ones give way. */
export const ACK_KEPT = 8;

/** The acknowledgement cookie lives as long as the collector takes an event (7 days). */
export const ACK_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

export function isBatchId(value: unknown): value is string {
  return typeof value === 'string' && BATCH_ID.test(value);
}

/** The batch ids a cookie value names, in order, each once; anything else in it is ignored. */
export function acknowledgedIds(value: string | null | undefined): string[] {
  if (!value) return [];
  return [...new Set(value.split('.').filter(isBatchId))].slice(-ACK_KEPT);
}

/** The cookie value once `id` is acknowledged as well: the latest ACK_KEPT ids. */
export function withAcknowledged(value: string | null | undefined, id: string): string {
  const ids = acknowledgedIds(value).filter((each) => each !== id);
  return [...ids, id].slice(-ACK_KEPT).join('.');
}
