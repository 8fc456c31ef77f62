import type { ApiCallName } from '../../shared/api/contract';
import { logError } from '../../shared/log';
import type { Bindings } from '../env';
import type { Note } from '../http/answer';
import { type ApiRefusal, refusal } from '../http/api-json';
import type { RateDecision, RateRule } from './rate-limiter';

/**
 * The limits at work: asking the counters (./rate-limiter.ts, one Durable Object per key) and
 * what the browser's API, the collector and the pictures do with their answer.
 */

/** A limiter slower than this is treated as failed: the visitor is not kept waiting on it. */
export const LIMITER_TIMEOUT_MS = 2_000;

export interface RateLimitOutcome {
  /** The refusing rule with the longest wait, or null when every rule allowed (or failed). */
  refused: { rule: string; code: RateLimitRule['code']; retryAfterSeconds: number } | null;
  /** Rules whose counter could not be reached; they were treated as allowing. */
  failed: { rule: string; detail: string }[];
}

type RuleResult =
  | { rule: RateLimitRule; decision: RateDecision }
  | { rule: RateLimitRule; error: string };

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => {
    if (timer !== undefined) clearTimeout(timer);
  });
}

/**
 * Adds one hit to each rule's counter, whatever it decides: a fact to count (a decline), not a
 * request to let through. The member makes the same fact count once (a result polled again).
 * Failures are handed back, like checkRateLimits', for the caller to log.
 */
async function countHits(
  namespace: Bindings['RATE_LIMITER'],
  rules: readonly RateLimitRule[],
  subject: RateSubject,
  member: string,
  options: { timeoutMs?: number } = {},
): Promise<{ rule: string; detail: string }[]> {
  const timeoutMs = options.timeoutMs ?? LIMITER_TIMEOUT_MS;
  const failed = await Promise.all(
    rules.map(async (rule) => {
      const key = rule.key(subject);
      if (key === null) return null;
      try {
        const stub = namespace.get(namespace.idFromName(`${rule.name}:${key}`));
        const limits = { limit: rule.limit, windowMs: rule.windowMs };
        await withTimeout(Promise.resolve(stub.hit(limits, member)), timeoutMs);
        return null;
      } catch (error) {
        return { rule: rule.name, detail: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
  return failed.filter((failure) => failure !== null);
}

/**
 * Hits every counter of a call at once (one Durable Object per key, so the count holds across
 * isolates and locations) and refuses when any rule refuses; the longest Retry-After wins.
 *
 * A limiter that errs or hangs fails open: the limits guard against fraud at the margin, and
 * turning every visitor away because a counter is unreachable would cost far more than a few
 * unlimited lookups. The caller logs the failure so it is seen.
 */
export async function checkRateLimits(
  namespace: Bindings['RATE_LIMITER'],
  rules: readonly RateLimitRule[],
  subject: RateSubject,
  options: { timeoutMs?: number } = {},
): Promise<RateLimitOutcome> {
  const timeoutMs = options.timeoutMs ?? LIMITER_TIMEOUT_MS;
  const applicable = rules.flatMap((rule) => {
    const key = rule.key(subject);
    return key === null ? [] : [{ rule, key: `${rule.name}:${key}` }];
  });
  const results = await Promise.all(
    applicable.map(async ({ rule, key }): Promise<RuleResult> => {
      try {
        const stub = namespace.get(namespace.idFromName(key));
        // Only plain data crosses the RPC boundary: the rule's functions stay here.
        const limits = { limit: rule.limit, windowMs: rule.windowMs };
        const asking =
          rule.counts === 'elsewhere'
            ? stub.check(limits)
            : stub.hit(limits, memberOf(rule, subject));
        const decision = await withTimeout(Promise.resolve(asking), timeoutMs);
        return { rule, decision };
      } catch (error) {
        return { rule, error: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
  const outcome: RateLimitOutcome = { refused: null, failed: [] };
  for (const result of results) {
    if ('error' in result) {
      outcome.failed.push({ rule: result.rule.name, detail: result.error });
    } else if (!result.decision.allowed) {
      const { retryAfterSeconds } = result.decision;
      if (!outcome.refused || retryAfterSeconds > outcome.refused.retryAfterSeconds) {
        outcome.refused = { rule: result.rule.name, code: result.rule.code, retryAfterSeconds };
      }
    }
  }
  return outcome;
}

/**
 * One hit on an address's counter for `rule` (the collector's vitals, the exposures' budget):
 * whether it admits the request, and the rule that refused it. A counter that cannot be reached
 * is a `rate_limiter_failed` line, and admits the request only when the caller says the limit
 * fails open.
 */
export async function addressAdmits(
  namespace: Bindings['RATE_LIMITER'],
  rule: RateLimitRule,
  connectingIp: string | undefined,
  options: { requestId: string; failOpen: boolean; timeoutMs?: number },
): Promise<{ admitted: boolean; refusedBy: string | null }> {
  const subject = { visitorId: '', ip: addressSubject(connectingIp), phone: null };
  const outcome = await checkRateLimits(namespace, [rule], subject, {
    timeoutMs: options.timeoutMs,
  });
  for (const failure of outcome.failed) {
    logError('rate_limiter_failed', {
      id: options.requestId,
      rule: failure.rule,
      detail: failure.detail,
    });
  }
  const reached = options.failOpen || outcome.failed.length === 0;
  return {
    admitted: reached && outcome.refused === null,
    refusedBy: outcome.refused?.rule ?? null,
  };
}

/** What a request is about, beyond who sends it: the number looked up, the card charged. */
export type RateTopic = Pick<RateSubject, 'phone' | 'card' | 'email'>;

/**
 * Who sends the request: the visitor, and the address (`CF-Connecting-IP`) it comes from; with
 * the bindings that hold the counters and name the limits' profile, and the request id and the
 * note on its log line a refusal is logged under. A handler reads it from its `c` (request/visit.ts
 * rateAskerOf).
 */
export interface RateAsker {
  env: Bindings;
  visitorId: string;
  connectingIp: string | undefined;
  requestId: string;
  note: Note;
}

function subjectOf(asker: RateAsker, topic: RateTopic): RateSubject {
  return { visitorId: asker.visitorId, ip: addressSubject(asker.connectingIp), ...topic };
}

/**
 * Hits the call's counters (the rules above, as this worker applies them: rulesFor); a refusal
 * carries its Retry-After and its code: 'rate_limited', or 'payment_rate_limited' for the
 * card-testing limits, each logged under its code with the rule that refused.
 */
export async function rateLimitRefusal(
  asker: RateAsker,
  call: ApiCallName,
  topic: RateTopic,
): Promise<ApiRefusal | null> {
  const rules = RATE_LIMITS[call];
  return rules ? limitRefusal(asker, call, rules, topic) : null;
}

/** rateLimitRefusal for a call of the worker's own (`call` names it in the log lines). */
export async function limitRefusal(
  asker: RateAsker,
  call: string,
  rules: readonly RateLimitRule[],
  topic: RateTopic,
): Promise<ApiRefusal | null> {
  const outcome = await checkRateLimits(
    asker.env.RATE_LIMITER,
    rulesFor(asker.env, rules),
    subjectOf(asker, topic),
  );
  const id = asker.requestId;
  for (const failure of outcome.failed) {
    logError('rate_limiter_failed', { id, call, rule: failure.rule, detail: failure.detail });
  }
  if (!outcome.refused) return null;
  const { rule, code, retryAfterSeconds } = outcome.refused;
  logError(code, { id, call, rule, retry_after: retryAfterSeconds });
  asker.note('rule', rule);
  return { ...refusal(code), retryAfterSeconds };
}

/**
 * Counts a decline the product API answered against the visitor, the address and the card that
 * made it (the card-testing limits). `declineId` names the decline (its polling id, or the
 * attempt's key), so reading the same declined result again counts it once.
 */
export async function recordDecline(
  asker: RateAsker,
  declineId: string,
  card: string | null,
): Promise<void> {
  const failed = await countHits(
    asker.env.RATE_LIMITER,
    rulesFor(asker.env, DECLINE_RULES),
    subjectOf(asker, { phone: null, card }),
    declineId,
  );
  for (const failure of failed) {
    logError('rate_limiter_failed', {
      id: asker.requestId,
      rule: failure.rule,
      detail: failure.detail,
    });
  }
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Who is asking and about what; the rules below turn it into counter keys. */
export interface RateSubject {
  visitorId: string;
  /** The client's address as counted (addressSubject below), or 'unknown'. */
  ip: string;
  /** The E.164 number of a phone lookup, else null. */
  phone: string | null;
  /**
   * The card of a charge or of a decline: its fingerprint where the provider gives one
   * (worker/checkout/charge-call.ts), else null.
   */
  card?: string | null;
  /**
   * The email address a request names (the contract page's declaration), as a digest that does
   * not name it (worker/contract-page/contract-route.tsx), else absent.
   */
  email?: string | null;
}

export interface RateLimitRule extends RateRule {
  /** Stable name, used in counter keys and logged when the rule refuses. */
  name: string;
  /** The counter this request hits, or null when the rule does not apply to it. */
  key: (subject: RateSubject) => string | null;
  /**
   * 'each': every request counts. 'distinct-number': a number counts once per window, so looking
   * the same number up again (a reload, a second screen) never moves the counter. 'elsewhere':
   * the request only checks the count, which something else adds to (a decline, recordDecline).
   */
  counts: 'each' | 'distinct-number' | 'elsewhere';
  /** What a refusal answers: the general limit, or the card-testing one with its own text. */
  code: 'rate_limited' | 'payment_rate_limited';
}

/** The counter member a request adds for a rule: undefined for a fresh one per hit. */
function memberOf(rule: RateLimitRule, subject: RateSubject): string | undefined {
  return rule.counts === 'distinct-number' ? (subject.phone ?? undefined) : undefined;
}

/** A number's prefix: E.164 without its last 3 digits, i.e. a block of 1000 numbers. */
export function numberPrefix(phone: string): string {
  return phone.slice(0, -3);
}

/** Whose counter a request hits. */
export const byVisitor = (s: RateSubject) => s.visitorId;
export const byIp = (s: RateSubject) => s.ip;

/** A rule every request counts against, refused with the general limit's text. */
export function everyRequest(
  name: string,
  key: RateLimitRule['key'],
  limit: number,
  windowMs: number,
): RateLimitRule {
  return { name, limit, windowMs, key, counts: 'each', code: 'rate_limited' };
}

/** A rule on the distinct numbers looked up in an hour (see RateLimitRule.counts). */
function distinctNumbersAnHour(
  name: string,
  key: RateLimitRule['key'],
  limit: number,
): RateLimitRule {
  return { name, limit, windowMs: HOUR, key, counts: 'distinct-number', code: 'rate_limited' };
}

/** A rule on the declines of an hour, which recordDecline adds and the next charge checks. */
function declinesAnHour(name: string, key: RateLimitRule['key'], limit: number): RateLimitRule {
  return { name, limit, windowMs: HOUR, key, counts: 'elsewhere', code: 'payment_rate_limited' };
}

/*
 * The phone lookup makes the portal text the located person for consent (SPEC.md §6), so it is
 * what SMS-pumping fraud abuses: bots walk premium-rate number ranges from many addresses and
 * fresh cookies. A real visitor locates one or two numbers.
 */

// Every lookup counts, which also caps how often one visitor can have one person texted.
// Ten leaves room for the two searching screens, reloads and a corrected typo.
const lookupsPerVisitor = everyRequest('lookup_per_visitor', byVisitor, 10, HOUR);

// Cookies are free to drop, addresses are not. Distinct numbers only, and 30 rather than a
// handful because mobile carriers put many real visitors behind one address (CGNAT).
const lookupNumbersPerIp = distinctNumbersAnHour('lookup_numbers_per_ip', byIp, 30);

// The signature of pumping whatever its source: many numbers of one 1000-number block in an
// hour. Real visitors almost never look up neighbouring numbers.
const lookupNumbersPerPrefix = distinctNumbersAnHour(
  'lookup_numbers_per_prefix',
  (s) => (s.phone ? numberPrefix(s.phone) : null),
  5,
);

// One account per visitor is the norm; five leaves room for a mistyped address and a retry.
const signupsPerVisitor = everyRequest('signup_per_visitor', byVisitor, 5, 10 * MINUTE);

// Stops scripted account creation that drops its cookie each time; loose for shared addresses.
const signupsPerIp = everyRequest('signup_per_ip', byIp, 20, HOUR);

/*
 * Card testing: bots run stolen card numbers through an open card form, paying with
 * small charges to learn which cards work, from fresh cookies and many addresses. Declines are
 * what they leave behind; a real visitor declines once or twice, then pays or leaves. The
 * declines are counted per visitor, address and card when the product API answers one
 * (recordDecline), and checked before the next charge reaches it.
 */

// Five declines in an hour: after a typo, a wrong card and a card without funds a real
// visitor still has two tries left; a bot on one cookie is stopped at the sixth card.
const paymentDeclinesPerVisitor = declinesAnHour('payment_declines_per_visitor', byVisitor, 5);

// Bots drop their cookies; addresses cost them more. Twenty, because carriers put many real
// visitors behind one address (CGNAT), and one of them declining must not stop the others.
const paymentDeclinesPerIp = declinesAnHour('payment_declines_per_ip', byIp, 20);

// One card tried from many visitors and addresses (guessing its expiry or CVC): five declines
// an hour. A card that works is never held back by it, however often it pays.
const paymentDeclinesPerCard = declinesAnHour(
  'payment_declines_per_card',
  (s) => s.card ?? null,
  5,
);

/**
 * Resume links (worker/resume/): each stores a record and hands out a link that sets the visitor's
 * cookies, so a script must not mint them in bulk. A real visitor asks once or twice, when they
 * press "Open in browser" (and again if the first link timed out). Loose per address, as for
 * sign-ups: carriers put many real visitors behind one address (CGNAT).
 */
export const RESUME_LINK_RULES: readonly RateLimitRule[] = [
  everyRequest('resume_per_visitor', byVisitor, 10, 10 * MINUTE),
  everyRequest('resume_per_ip', byIp, 60, HOUR),
];

/**
 * The subscriber's page (worker/subscriber-links/): each open asks the product API for the
 * subscription, and each action changes one, so a burst from one address is cut short; a real
 * subscriber opens their link a few times and acts once. Per address only: the page has no
 * visitor cookie (an email is opened anywhere), and a guessed link fails its signature before
 * any count matters. Loose for carriers' shared addresses (CGNAT).
 */
export const SUBSCRIBER_PAGE_RULES: readonly RateLimitRule[] = [
  everyRequest('subscriber_page_per_ip', byIp, 30, 10 * MINUTE),
];

/**
 * The contract page's declarations (worker/contract-page/, docs/payments.md "Withdraw and cancel
 * online"): each post asks the product API to look an email and a reference up and to send an
 * email, so a script could probe for contracts or flood an inbox. A consumer declares once or
 * twice; a household behind one address a few times. Viewing the form counts nothing.
 */
export const CONTRACT_PAGE_RULES: readonly RateLimitRule[] = [
  everyRequest('contract_declarations_per_ip', byIp, 10, HOUR),
  everyRequest('contract_declarations_per_email', (s) => s.email ?? null, 5, HOUR),
];

/**
 * "Email me a link to my subscription" (the contract page's `/contract/link`): each ask makes the
 * product API send an email, so one inbox gets three an hour and one address asks ten.
 */
export const LINK_REQUEST_RULES: readonly RateLimitRule[] = [
  everyRequest('link_requests_per_ip', byIp, 10, HOUR),
  everyRequest('link_requests_per_email', (s) => s.email ?? null, 3, HOUR),
];

/**
 * Geocoding (worker/geocode/): each call Google answers is billed, and the city comes from the
 * page, so a script could name a fresh one every time. Only calls that reach Google count: a
 * cached point and the development kit's answers are free. A real visitor costs one per lookup at
 * most; thirty matches the lookups an address may make (lookup_numbers_per_ip), and a visitor
 * over it still sees the map, at the capital.
 */
export const GEOCODE_RULES: readonly RateLimitRule[] = [
  everyRequest('geocode_per_ip', byIp, 30, HOUR),
];

/**
 * The located area's picture (worker/area-map/): each image Google draws is billed. Only a point
 * the visitor's own geocoding answer signed can be asked for, and a drawn point is cached, so
 * only pictures that reach Google count. A real visitor costs one per located number; ten is
 * the lookups' own limit (lookup_per_visitor), thirty an address's (geocode_per_ip).
 */
export const AREA_MAP_RULES: readonly RateLimitRule[] = [
  everyRequest('area_map_per_visitor', byVisitor, 10, HOUR),
  everyRequest('area_map_per_ip', byIp, 30, HOUR),
];

/**
 * Every charge checks these, and each decline adds to them (worker/rate-limits/rate-limit-gate.ts).
 */
export const DECLINE_RULES: readonly RateLimitRule[] = [
  paymentDeclinesPerVisitor,
  paymentDeclinesPerIp,
  paymentDeclinesPerCard,
];

/** The limited calls and their rules; every key of a call is checked on each request. */
export const RATE_LIMITS: Partial<Record<ApiCallName, readonly RateLimitRule[]>> = {
  phoneInfo: [lookupsPerVisitor, lookupNumbersPerIp, lookupNumbersPerPrefix],
  // Email and Google sign-up share counters: both make an account.
  signup: [signupsPerVisitor, signupsPerIp],
  socialSignIn: [signupsPerVisitor, signupsPerIp],
  // Every charge: the card's first POST, the one after 3-D Secure, an upsell's.
  pollingSubscription: DECLINE_RULES,
  directSubscription: DECLINE_RULES,
};

/** The key of requests that carry no client address (only outside Cloudflare's edge). */
const UNKNOWN_ADDRESS = 'unknown';

/**
 * The client address as the rate limits count it: IPv4 as is, IPv6 by its /64. An IPv6 client is
 * handed a whole /64 by its provider and can take a fresh address from it for every request, so
 * counting single IPv6 addresses would count nothing.
 */
export function addressSubject(connectingIp: string | undefined): string {
  const ip = connectingIp?.trim().toLowerCase();
  if (!ip) return UNKNOWN_ADDRESS;
  if (!ip.includes(':')) return ip;
  const mapped = ip.match(/^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/);
  if (mapped?.[1]) return mapped[1];
  const [head = '', tail] = ip.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = Array.from(
    { length: Math.max(0, 8 - headGroups.length - tailGroups.length) },
    () => '0',
  );
  const groups = tail === undefined ? headGroups : [...headGroups, ...zeros, ...tailGroups];
  const network = groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, ''));
  return `${network.join(':')}::/64`;
}

/**
 * How many times production's limits `npm start` allows. A person testing the funnel walks it
 * again and again from one machine, one address and often one browser, and types the same or
 * neighbouring example numbers: at 50 journeys an hour, each with lookups on two searching
 * screens (two numbers of one 1000-number block: 100 an hour against production's 5), a sign-up
 * or two, a charge or two and a decline with the same test card (50 against production's 5), the
 * tightest rule needs 20 times production's. Bots do not reach a developer's machine.
 */
export const DEVELOPMENT_FACTOR = 20;

/**
 * Which limits a worker applies: 'development' only when ENVIRONMENT is exactly 'development'
 * and RATE_LIMITS is unset or 'development'; RATE_LIMITS=production (or any other value: a
 * misspelt switch fails closed) brings production's back under `npm start`. Every other worker
 * (production, staging, an unset or misspelt ENVIRONMENT) applies production's, whatever
 * RATE_LIMITS says, so no deployed worker can loosen them.
 */
export function rateLimitProfile(env: Bindings): 'production' | 'development' {
  if (env.ENVIRONMENT !== 'development') return 'production';
  return env.RATE_LIMITS === undefined || env.RATE_LIMITS === 'development'
    ? 'development'
    : 'production';
}

/** Each rule set's development copy, made once per isolate. */
const loosened = new WeakMap<readonly RateLimitRule[], readonly RateLimitRule[]>();

/**
 * `rules` as this worker applies them: as written in production, each limit DEVELOPMENT_FACTOR
 * times higher under the development profile. Same names and windows, so the counters are the
 * same ones and `RATE_LIMITS=production` judges what was already counted.
 */
export function rulesFor(env: Bindings, rules: readonly RateLimitRule[]): readonly RateLimitRule[] {
  if (rateLimitProfile(env) === 'production') return rules;
  let copy = loosened.get(rules);
  if (!copy) {
    copy = rules.map((rule) => ({ ...rule, limit: rule.limit * DEVELOPMENT_FACTOR }));
    loosened.set(rules, copy);
  }
  return copy;
}
