import { OFFER_SECONDS, type OfferClock } from '../../shared/plans/offer-clock';
import type { Bindings } from '../env';
import { cookieKey, type SignedCookies, VISIT_COOKIE_OPTIONS } from '../request/cookies';
import type { Arms } from '../request/envs';

/**
 * The offer's deadline for one visitor (SPEC.md §4: the countdown runs 300 s): fixed the first
 * time a page shows them the countdown, and kept for the visit in `gf_offer`, signed for the
 * visitor id (worker/signing.ts) so it cannot be edited, copied from another visitor or
 * typed by hand. The value is the deadline in whole seconds since the epoch. A reload or a
 * decline shows the time left, not the full length again; once it passes, the offer it names
 * ends for that visitor: the pages show the regular prices and the offer gate
 * (./offer-gate.ts) charges nothing else.
 *
 * A cookie whose signature does not hold ends the offer (it is replaced by one whose deadline is
 * now): a forged or replayed deadline can shorten the offer, never lengthen or restore it.
 * Without a signing key (outside development, COOKIE_SIGNING_KEY unset) no deadline could be
 * kept, so no countdown is shown and none is enforced: an offer that restarted on every page
 * would be a false claim of limited time.
 */
const OFFER_COOKIE = 'gf_offer';

/** The visit's length as the first touch keeps it (30 days): after that a visit is new. */
const OFFER_COOKIE_OPTIONS = VISIT_COOKIE_OPTIONS;

/** A deadline as the cookie holds it: whole seconds, at most 12 digits. */
const DEADLINE = /^\d{1,12}$/;

type DeadlineRead = { state: 'none' } | { state: 'invalid' } | { state: 'valid'; at: number };

/** Where the deadline is kept: the request's signed cookies, under the bindings' key. */
interface KeptIn {
  env: Bindings;
  cookies: SignedCookies;
}

async function readDeadline(cookies: SignedCookies): Promise<DeadlineRead> {
  const cookie = await cookies.read(OFFER_COOKIE);
  if (cookie.state === 'none') return cookie;
  if (cookie.state === 'invalid') {
    cookies.reportInvalid(OFFER_COOKIE, cookie.reason);
    return { state: 'invalid' };
  }
  if (!DEADLINE.test(cookie.value)) return { state: 'invalid' };
  return { state: 'valid', at: Number(cookie.value) * 1000 };
}

function clockAt(deadlineMs: number, nowMs: number): OfferClock {
  const left = Math.ceil((deadlineMs - nowMs) / 1000);
  return left > 0 ? { state: 'running', secondsLeft: left } : { state: 'ended' };
}

/**
 * The countdown a page shows the visitor, fixing its deadline on the first page that shows one.
 * `countdown` false (the route or variant turned it off): `off`. A marketer's preview keeps
 * nothing: it shows the full length and writes no cookie. Only the preview the experiments
 * middleware honoured counts (the arms' `preview`): a preview cookie copied from the marketer's
 * browser must not give a visitor an offer that never ends.
 */
export async function pageOfferClock(
  page: KeptIn,
  preview: Arms['preview'],
  countdown: boolean,
  nowMs: number,
): Promise<OfferClock> {
  if (!countdown || cookieKey(page.env) === null) return { state: 'off' };
  if (preview !== undefined) {
    return { state: 'running', secondsLeft: OFFER_SECONDS };
  }
  const read = await readDeadline(page.cookies);
  if (read.state === 'valid') return clockAt(read.at, nowMs);
  const seconds = Math.floor(nowMs / 1000);
  // A cookie that is not ours ends the offer now, and is replaced so it is reported once.
  const deadline = read.state === 'invalid' ? seconds : seconds + OFFER_SECONDS;
  await page.cookies.write(OFFER_COOKIE, String(deadline), OFFER_COOKIE_OPTIONS);
  return clockAt(deadline * 1000, nowMs);
}

/**
 * Whether the visitor's offer has ended, for the charge (./offer-gate.ts): the deadline passed,
 * or the cookie is not one we signed. A visitor no page showed a countdown has none: nothing
 * was promised to end.
 */
export async function offerEndedForCharge(
  charge: KeptIn,
  countdown: boolean,
  nowMs: number,
): Promise<boolean> {
  if (!countdown || cookieKey(charge.env) === null) return false;
  const read = await readDeadline(charge.cookies);
  if (read.state === 'none') return false;
  return read.state === 'invalid' || read.at <= nowMs;
}
