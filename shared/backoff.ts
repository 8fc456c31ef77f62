/**
 * The one capped doubling every retry of ours waits by: the browser's payment polling and
 * analytics uploads, and the queue consumer's retries. Hand-written rather than a library:
 * three lines, and a library would cost every page's bundle bytes for them.
 */

/** The pause after `previous`: twice it, at most `cap`. */
export function doubled(previous: number, cap: number): number {
  return Math.min(previous * 2, cap);
}

/** The pause before try number `attempt` (1 = the first retry): `first`, doubling, at most `cap`. */
export function backoffFor(attempt: number, first: number, cap: number): number {
  return Math.min(first * 2 ** Math.max(0, attempt - 1), cap);
}

/** Waits `ms` milliseconds (the browser's and Node's timers alike). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
