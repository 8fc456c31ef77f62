import type { PageVitals } from '../../shared/analytics/tracking';
import { base64urlBytes, hmacSign, signCookie, verifyCookie } from '../signing';

/**
 * Which visitors report their field Core Web Vitals (docs/analytics.md, "Field vitals"), and the
 * ticket that proves the worker served the page. A fixed share of visitors, in or out for every
 * page, by a keyed hash of their visitor id (HMAC under the cookies' key): a visitor who picks
 * their `userUuid` offline picks their arm, but cannot tell whether it is sampled without loading
 * a page. Per visitor, not per page, so which visitors report does not depend on how many pages a
 * variant shows them. A sampled page gets a ticket, signed for the visitor who was served it,
 * naming the page view and when; the collector takes a `web_vitals` event only with a ticket of
 * its sender's, once per page view (./vitals-intake.ts). So every sample is a page the worker
 * served, and a made-up report costs page loads and one of the few an address may send
 * (collector_vitals_per_ip).
 *
 * `VITALS_SAMPLE_RATE` sets the share, 0 to 1 (0 stops it; a test sets 1); unset or not a number,
 * the default: a tenth of the visitors, one small event per page of theirs.
 */
export const DEFAULT_VITALS_SAMPLE_RATE = 0.1;

/** How long after its page was served a ticket is taken: a tab left open for a day still reports. */
export const VITALS_TICKET_TTL_MS = 24 * 60 * 60 * 1000;

/** How far ahead of the collector's clock a ticket's time may be: the worker's clocks agree. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** The name the tickets are signed under, so no signed cookie's value passes for a ticket. */
const TICKET_NAME = 'web_vitals';

/** What the sample's hash is taken of, apart from any other use of the key. */
const SAMPLE_NAME = 'web_vitals_sample';

/** The hash's resolution: shares in steps of 1/10 000. */
const STEPS = 10_000;

/** A page view's id in a ticket: 16 random bytes as hex. */
const PAGE_VIEW = /^[0-9a-f]{32}$/;

export function vitalsSampleRate(env: { VITALS_SAMPLE_RATE?: string }): number {
  const text = env.VITALS_SAMPLE_RATE?.trim();
  const rate = text === undefined || text === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(rate)) return DEFAULT_VITALS_SAMPLE_RATE;
  return Math.min(1, Math.max(0, rate));
}

function pageViewId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Whether the visitor (any case of their uuid) is in a sample of `rate`, under `key`. */
export async function inVitalsSample(
  key: string,
  visitorId: string,
  rate: number,
): Promise<boolean> {
  if (rate <= 0) return false;
  const mac = base64urlBytes(await hmacSign(key, `${SAMPLE_NAME}\n${visitorId.toLowerCase()}`));
  const draw = mac === null ? 0 : new DataView(mac.buffer, mac.byteOffset).getUint32(0);
  return draw % STEPS < Math.round(rate * STEPS);
}

/** What drawing a page's sample needs: the rate, the signing key and the clock. */
export interface VitalsDraw {
  rate: number;
  /** The cookies' key (worker/request/cookies.ts); none, and no page is sampled. */
  key: string | null;
  now: number;
}

/**
 * What a page hands its tracker about vitals: nothing outside the sample (the arms are worked out
 * only for a page inside it), else its arms and its ticket.
 */
export async function pageVitals(
  draw: VitalsDraw,
  visitorId: string,
  arms: () => readonly { experiment: string; variant: string }[],
): Promise<PageVitals | undefined> {
  const { key } = draw;
  if (key === null || !(await inVitalsSample(key, visitorId, draw.rate))) return undefined;
  const value = `${pageViewId()}.${Math.floor(draw.now / 1000)}`;
  return {
    arms: Object.fromEntries(arms().map(({ experiment, variant }) => [experiment, variant])),
    ticket: await signCookie(key, TICKET_NAME, visitorId.toLowerCase(), value),
  };
}

/**
 * The page view a ticket names, if `key` signed it for `visitorId` and its page was served within
 * VITALS_TICKET_TTL_MS of `now`; else null. One HMAC verify.
 */
export async function ticketPageView(
  key: string,
  visitorId: string,
  ticket: unknown,
  now: number,
): Promise<string | null> {
  if (typeof ticket !== 'string') return null;
  const verdict = await verifyCookie(key, TICKET_NAME, visitorId.toLowerCase(), ticket);
  if (!verdict.ok) return null;
  const [pageView = '', seconds = ''] = verdict.value.split('.');
  const servedAt = Number(seconds) * 1000;
  if (!PAGE_VIEW.test(pageView) || !/^\d{1,12}$/.test(seconds)) return null;
  if (servedAt > now + CLOCK_SKEW_MS || now - servedAt > VITALS_TICKET_TTL_MS) return null;
  return pageView;
}
