import type { ApiCallName } from '../../shared/api/contract';
import type { RateRule } from './rate-limiter';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Who is asking and about what; the rules below turn it into counter keys. */
export interface RateSubject {
  visitorId: string;
  /** The client's address as counted (see ipSubject), or 'unknown'. */
  ip: string;
  /** The E.164 number of a phone lookup, else null. */
  phone: string | null;
}

export interface RateLimitRule extends RateRule {
  /** Stable name, used in counter keys and logged when the rule refuses. */
  name: string;
  /** The counter this request hits, or null when the rule does not apply to it. */
  key: (subject: RateSubject) => string | null;
  /**
   * 'each': every request counts. 'distinct-number': a number counts once per window, so looking
   * the same number up again (a reload, a second screen) never moves the counter.
   */
  counts: 'each' | 'distinct-number';
}

/** A number's prefix: E.164 without its last 3 digits, i.e. a block of 1000 numbers. */
export function numberPrefix(phone: string): string {
  return phone.slice(0, -3);
}

/**
 * The phone lookup makes the portal text the located person for consent (SPEC.md §6), so it is
 * what SMS-pumping fraud abuses: bots walk premium-rate number ranges from many addresses and
 * fresh cookies. A real visitor locates one or two numbers.
 */
const lookupsPerVisitor: RateLimitRule = {
  name: 'lookup_per_visitor',
  // Every lookup counts, which also caps how often one visitor can have one person texted.
  // Ten leaves room for the two searching screens, reloads and a corrected typo.
  limit: 10,
  windowMs: HOUR,
  key: (s) => s.visitorId,
  counts: 'each',
};

const lookupNumbersPerIp: RateLimitRule = {
  name: 'lookup_numbers_per_ip',
  // Cookies are free to drop, addresses are not. Distinct numbers only, and 30 rather than a
  // handful because mobile carriers put many real visitors behind one address (CGNAT).
  limit: 30,
  windowMs: HOUR,
  key: (s) => s.ip,
  counts: 'distinct-number',
};

const lookupNumbersPerPrefix: RateLimitRule = {
  name: 'lookup_numbers_per_prefix',
  // The signature of pumping whatever its source: many numbers of one 1000-number block in an
  // hour. Real visitors almost never look up neighbouring numbers.
  limit: 5,
  windowMs: HOUR,
  key: (s) => (s.phone ? numberPrefix(s.phone) : null),
  counts: 'distinct-number',
};

const signupsPerVisitor: RateLimitRule = {
  name: 'signup_per_visitor',
  // One account per visitor is the norm; five leaves room for a mistyped address and a retry.
  limit: 5,
  windowMs: 10 * MINUTE,
  key: (s) => s.visitorId,
  counts: 'each',
};

const signupsPerIp: RateLimitRule = {
  name: 'signup_per_ip',
  // Stops scripted account creation that drops its cookie each time; loose for shared addresses.
  limit: 20,
  windowMs: HOUR,
  key: (s) => s.ip,
  counts: 'each',
};

/** The limited calls and their rules; every key of a call is checked on each request. */
export const RATE_LIMITS: Partial<Record<ApiCallName, readonly RateLimitRule[]>> = {
  phoneInfo: [lookupsPerVisitor, lookupNumbersPerIp, lookupNumbersPerPrefix],
  // Email and Google sign-up share counters: both make an account.
  signup: [signupsPerVisitor, signupsPerIp],
  socialSignIn: [signupsPerVisitor, signupsPerIp],
};
