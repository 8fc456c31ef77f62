import type { Bindings } from '../env';
import type { RateLimitRule } from './rate-limits';

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
