import type { PageVitals } from '../../shared/analytics/tracking';
import { base64urlBytes, hmacSign } from '../signing';
import { readPageTicket, signPageTicket } from './page-ticket';

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

/** The name the tickets are signed under (./page-ticket.ts), so no other's passes for one. */
const TICKET_NAME = 'web_vitals';

/** What the sample's hash is taken of, apart from any other use of the key. */
const SAMPLE_NAME = 'web_vitals_sample';

/** The hash's resolution: shares in steps of 1/10 000. */
const STEPS = 10_000;

export function vitalsSampleRate(env: { VITALS_SAMPLE_RATE?: string }): number {
  const text = env.VITALS_SAMPLE_RATE?.trim();
  const rate = text === undefined || text === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(rate)) return DEFAULT_VITALS_SAMPLE_RATE;
  return Math.min(1, Math.max(0, rate));
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
  return {
    arms: Object.fromEntries(arms().map(({ experiment, variant }) => [experiment, variant])),
    ticket: await signPageTicket(key, TICKET_NAME, visitorId, draw.now),
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
  const read = await readPageTicket(key, TICKET_NAME, visitorId, ticket, {
    now,
    ttlMs: VITALS_TICKET_TTL_MS,
  });
  return read?.pageView ?? null;
}
