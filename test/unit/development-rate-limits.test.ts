import { describe, expect, it } from 'vitest';
import type { Bindings } from '../../worker/env';
import {
  DECLINE_RULES,
  RATE_LIMITS,
  type RateLimitRule,
  rulesFor,
} from '../../worker/rate-limits/rate-limit-gate';

/**
 * What `npm start`'s rate limits promise (README, "Rate limits under npm start";
 * DEVELOPMENT_FACTOR): one person walks the funnel 50 times an hour from one machine, one address
 * and one browser, never limited. A journey looks up two new neighbouring numbers (one
 * 1000-number block) on the two searching screens, signs up, and has a charge declined with the
 * same test card; the last journey also pays. Worked out rule by rule from what each request adds
 * to each counter, all 50 journeys inside one window (as fast as a script walks them, inside even
 * sign-up's 10 minutes). Each rule's counting is held at production's boundaries in
 * test/worker/api/rate-limits.test.ts and test/worker/purchases/payment-limits.test.ts; that the
 * worker applies these limits under `npm start` (the tightest at its boundary, sign-ups and
 * declines past production's) in test/worker/api/development-limits.test.ts.
 */

const JOURNEYS = 50;

/**
 * The least limit that lets 50 journeys through, by rule. A rule that counts requests lets a
 * request in while fewer than its limit are counted, so n requests need a limit of n; a decline
 * rule lets a charge in while fewer declines than its limit are counted, and the last journey's
 * payment comes after all 50 declines.
 */
const LEAST_LIMIT: Record<string, number> = {
  // Every lookup counts: two a journey.
  lookup_per_visitor: 2 * JOURNEYS,
  // Distinct numbers: two new ones a journey, all from one address and one block.
  lookup_numbers_per_ip: 2 * JOURNEYS,
  lookup_numbers_per_prefix: 2 * JOURNEYS,
  // One sign-up a journey, from one browser and one address.
  signup_per_visitor: JOURNEYS,
  signup_per_ip: JOURNEYS,
  // One decline a journey, from one browser, one address and one card; then the payment.
  payment_declines_per_visitor: JOURNEYS + 1,
  payment_declines_per_ip: JOURNEYS + 1,
  payment_declines_per_card: JOURNEYS + 1,
};

const DEVELOPMENT = { ENVIRONMENT: 'development' } as Bindings;

/** Every rule a journey's requests are checked against, once each. */
function journeyRules(): RateLimitRule[] {
  const rules = [...Object.values(RATE_LIMITS).flat(), ...DECLINE_RULES];
  return [...new Map(rules.map((rule) => [rule.name, rule])).values()];
}

describe('npm start’s rate limits', () => {
  it('let one person from one machine walk 50 journeys in an hour: no rule’s limit is below what they add to it', () => {
    const rules = journeyRules();
    // Every rule is worked out: a new one must say what a journey adds to it.
    expect(rules.map((rule) => rule.name).sort()).toEqual(Object.keys(LEAST_LIMIT).sort());
    for (const rule of rulesFor(DEVELOPMENT, rules)) {
      expect(rule.limit, rule.name).toBeGreaterThanOrEqual(LEAST_LIMIT[rule.name]!);
    }
    // The tightest at its boundary, as development-limits.test.ts holds it in the worker.
    const prefix = rulesFor(DEVELOPMENT, rules).find(
      (rule) => rule.name === 'lookup_numbers_per_prefix',
    );
    expect(prefix?.limit).toBe(LEAST_LIMIT.lookup_numbers_per_prefix);
  });

  it('production’s would stop the same person: these journeys need the development profile', () => {
    const refused = rulesFor({ ENVIRONMENT: 'production' } as Bindings, journeyRules()).filter(
      (rule) => rule.limit < LEAST_LIMIT[rule.name]!,
    );
    expect(refused.map((rule) => rule.name)).toContain('lookup_numbers_per_prefix');
  });
});
