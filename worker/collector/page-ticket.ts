import { signCookie, verifyCookie } from '../signing';

/**
 * A page's ticket: proof, handed back by the page's own script, that the worker served that page
 * to the visitor who sends it. Signed under the cookies' key for the visitor's id (any case),
 * under a name of its use, so no signed cookie's value and no ticket of another use passes for
 * it; it names a random page view and the second the page was served. The field vitals
 * (./vitals-sample.ts) and the exposures' confirmation (./exposure-ticket.ts) each sign theirs
 * under their own name and take it back within their own time.
 */

/** How far ahead of the verifying worker's clock a ticket's time may be: the worker's clocks agree. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** A page view's id in a ticket: 16 random bytes as hex. */
const PAGE_VIEW = /^[0-9a-f]{32}$/;

function pageViewId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A fresh page view's ticket of use `name`, for `visitorId`, served at `now` (epoch ms). */
export function signPageTicket(
  key: string,
  name: string,
  visitorId: string,
  now: number,
): Promise<string> {
  const value = `${pageViewId()}.${Math.floor(now / 1000)}`;
  return signCookie(key, name, visitorId.toLowerCase(), value);
}

/** What a valid ticket names: its page view, and when its page was served (epoch ms). */
export interface PageTicket {
  pageView: string;
  servedAt: number;
}

/**
 * The page view a ticket names, if `key` signed it under `name` for `visitorId` and its page was
 * served within `ttlMs` of `now`; else null. One HMAC verify.
 */
export async function readPageTicket(
  key: string,
  name: string,
  visitorId: string,
  ticket: unknown,
  { now, ttlMs }: { now: number; ttlMs: number },
): Promise<PageTicket | null> {
  if (typeof ticket !== 'string') return null;
  const verdict = await verifyCookie(key, name, visitorId.toLowerCase(), ticket);
  if (!verdict.ok) return null;
  const [pageView = '', seconds = ''] = verdict.value.split('.');
  const servedAt = Number(seconds) * 1000;
  if (!PAGE_VIEW.test(pageView) || !/^\d{1,12}$/.test(seconds)) return null;
  if (servedAt > now + CLOCK_SKEW_MS || now - servedAt > ttlMs) return null;
  return { pageView, servedAt };
}
