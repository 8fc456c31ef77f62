import { describeError } from '../../shared/log';
import type { PortalSend } from './portal-transport';

/** What came of one request to the portal, before any reading of its meaning. */
export type PortalOutcome =
  | { kind: 'answered'; status: number; text: string; ms: number }
  | { kind: 'unavailable'; detail: string; ms: number }
  | { kind: 'timed_out'; ms: number };

/**
 * Sends the request and reads the whole answer within `timeoutMs`. The deadline covers the body
 * too (a portal that sends headers and then stalls is as stuck as one that never answers), and
 * it is a race, not only an abort signal, so a transport that ignores the signal cannot hang the
 * visitor's request either: a portal call ends in an answer or a timeout, never a hang.
 */
export async function exchangeWithPortal(
  send: PortalSend,
  request: Request,
  timeoutMs: number,
  now: () => number = () => performance.now(),
): Promise<PortalOutcome> {
  const started = now();
  const elapsed = () => Math.round(now() - started);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<'timed_out'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve('timed_out');
    }, timeoutMs);
  });
  const attempt = (async () => {
    const response = await send(new Request(request, { signal: controller.signal }));
    return { status: response.status, text: await response.text() };
  })();
  // Once the deadline has won, a late failure of the attempt is of no interest.
  attempt.catch(() => {});
  try {
    const result = await Promise.race([attempt, deadline]);
    if (result === 'timed_out') return { kind: 'timed_out', ms: elapsed() };
    return { kind: 'answered', status: result.status, text: result.text, ms: elapsed() };
  } catch (error) {
    const detail = describeError(error);
    return { kind: 'unavailable', detail, ms: elapsed() };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** SPEC.md §7's per-call wait, unless PORTAL_TIMEOUT_MS overrides every call (tests shorten it). */
export function portalTimeoutMs(callTimeoutMs: number, override: string | undefined): number {
  const value = Number(override);
  return override !== undefined && override !== '' && Number.isFinite(value) && value > 0
    ? value
    : callTimeoutMs;
}
