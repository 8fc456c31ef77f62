import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CardNetwork } from '../../../shared/card-network';
import {
  type AttemptOutcome,
  type CardAttempt,
  type GovernorDecision,
  governAttempt,
  type Initiator,
  keptAttempts,
  type ProposedAttempt,
} from '../../../worker/retry-governor/governor';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 5, 1);

/** Visa category 1 codes as providers may spell them, and codes that stop nothing. */
const STOP_RESPONSES = ['04', '4', '14', '57', 'R1', ' r3 ', '46'];
const OTHER_RESPONSES = ['05', '51', '91', 'N7', '1A'];
/** Mastercard's stop advice as providers may spell it, and advice that stops nothing. */
const STOP_ADVICE = ['03', '3', '21'];
const OTHER_ADVICE = ['01', '02', '04', '24'];

const declined = (responseCode: string | null = '05', adviceCode: string | null = null) =>
  ({ result: 'declined', responseCode, adviceCode }) as const;

let ids = 0;
function attempt(
  at: number,
  outcome: AttemptOutcome,
  more: Partial<ProposedAttempt> = {},
): CardAttempt {
  ids += 1;
  return {
    id: `a${ids}`,
    at,
    network: 'visa',
    initiator: 'customer',
    provider: 'stripe',
    outcome,
    ...more,
  };
}

/** `count` declines of the card, `spacing` apart from `from`. */
function declines(count: number, from: number, spacing: number, more: Partial<ProposedAttempt>) {
  return Array.from({ length: count }, (_, i) => attempt(from + i * spacing, declined(), more));
}

function propose(at: number, more: Partial<ProposedAttempt> = {}): ProposedAttempt {
  return { at, network: 'visa', initiator: 'customer', provider: 'braintree', ...more };
}

describe('Visa', () => {
  it('allows 20 customer reattempts in 30 days, counting merchant ones apart', () => {
    const nineteen = declines(19, T0, HOUR, {});
    expect(governAttempt(nineteen, propose(T0 + DAY))).toEqual({ allowed: true });
    const twenty = [...nineteen, attempt(T0 + 19 * HOUR, declined())];
    expect(governAttempt(twenty, propose(T0 + DAY))).toEqual({
      allowed: false,
      rule: 'visa_customer_reattempts',
      until: T0 + 30 * DAY,
    });
    expect(governAttempt(twenty, propose(T0 + DAY, { initiator: 'merchant' }))).toEqual({
      allowed: true,
    });
    const merchant = declines(20, T0, HOUR, { initiator: 'merchant' });
    expect(governAttempt(merchant, propose(T0 + DAY, { initiator: 'merchant' }))).toMatchObject({
      rule: 'visa_merchant_reattempts',
    });
  });

  it('lets the window roll: exactly 30 days after the decline that makes the limit', () => {
    const twenty = declines(20, T0, HOUR, {});
    expect(governAttempt(twenty, propose(T0 + 30 * DAY - 1)).allowed).toBe(false);
    expect(governAttempt(twenty, propose(T0 + 30 * DAY))).toEqual({ allowed: true });
  });

  it.each(STOP_RESPONSES)('stops for 30 days after category 1 code %j', (code) => {
    const history = [attempt(T0, declined(code))];
    const stop = { allowed: false, rule: 'visa_category_1', until: null };
    expect(governAttempt(history, propose(T0 + 1))).toEqual(stop);
    expect(governAttempt(history, propose(T0 + 1, { initiator: 'merchant' }))).toEqual(stop);
    expect(governAttempt(history, propose(T0 + 30 * DAY - 1))).toEqual(stop);
    expect(governAttempt(history, propose(T0 + 30 * DAY))).toEqual({ allowed: true });
  });

  it('does not stop for other codes, nor a Mastercard card for a Visa code', () => {
    for (const code of OTHER_RESPONSES) {
      expect(governAttempt([attempt(T0, declined(code))], propose(T0 + 1)).allowed).toBe(true);
    }
    const history = [attempt(T0, declined('14'), { network: 'mastercard' })];
    expect(governAttempt(history, propose(T0 + 1, { network: 'mastercard' })).allowed).toBe(true);
  });
});

describe('Mastercard', () => {
  const mc = { network: 'mastercard' } as const;

  it('allows 10 attempts in 24 hours, customer and merchant together, to the millisecond', () => {
    const nine = [
      ...declines(5, T0, HOUR, mc),
      ...declines(4, T0 + 5 * HOUR, HOUR, { ...mc, initiator: 'merchant' }),
    ];
    expect(governAttempt(nine, propose(T0 + 9 * HOUR, mc))).toEqual({ allowed: true });
    const ten = [...nine, attempt(T0 + 9 * HOUR, declined(), mc)];
    const refused = { allowed: false, rule: 'mastercard_24_hours', until: T0 + DAY };
    expect(governAttempt(ten, propose(T0 + 10 * HOUR, mc))).toEqual(refused);
    expect(governAttempt(ten, propose(T0 + DAY - 1, { ...mc, initiator: 'merchant' }))).toEqual(
      refused,
    );
    expect(governAttempt(ten, propose(T0 + DAY, mc))).toEqual({ allowed: true });
  });

  it('allows 35 attempts in 30 days', () => {
    // Nine a day keeps under the 24-hour limit.
    const days = [0, 1, 2, 3].flatMap((day) => declines(9, T0 + day * DAY, HOUR, mc));
    const thirtyFive = days.slice(0, 35);
    expect(governAttempt(thirtyFive.slice(0, 34), propose(T0 + 5 * DAY, mc)).allowed).toBe(true);
    expect(governAttempt(thirtyFive, propose(T0 + 5 * DAY, mc))).toEqual({
      allowed: false,
      rule: 'mastercard_30_days',
      until: T0 + 30 * DAY,
    });
    expect(governAttempt(thirtyFive, propose(T0 + 30 * DAY, mc)).allowed).toBe(true);
  });

  it.each(STOP_ADVICE)('stops after merchant advice %j', (advice) => {
    const history = [attempt(T0, declined(null, advice), mc)];
    expect(governAttempt(history, propose(T0 + 1, mc))).toEqual({
      allowed: false,
      rule: 'mastercard_stop_advice',
      until: null,
    });
    expect(governAttempt(history, propose(T0 + 30 * DAY, mc)).allowed).toBe(true);
    for (const other of OTHER_ADVICE) {
      const soft = [attempt(T0, declined(null, other), mc)];
      expect(governAttempt(soft, propose(T0 + 1, mc)).allowed).toBe(true);
    }
  });
});

describe('the chain of reattempts', () => {
  const mc = { network: 'mastercard' } as const;

  it('ends at an approval, on either provider', () => {
    const history = [
      ...declines(9, T0, 60_000, mc),
      attempt(T0 + HOUR, { result: 'approved' }, { ...mc, provider: 'braintree' }),
      ...declines(9, T0 + 2 * HOUR, 60_000, mc),
    ];
    expect(governAttempt(history, propose(T0 + 3 * HOUR, mc))).toEqual({ allowed: true });
  });

  it('counts an attempt still pending as a decline', () => {
    const history = [...declines(9, T0, 60_000, mc), attempt(T0 + HOUR, { result: 'pending' }, mc)];
    expect(governAttempt(history, propose(T0 + 2 * HOUR, mc))).toMatchObject({ allowed: false });
  });

  it('gives an unknown network both rules', () => {
    const unknown = { network: 'unknown' } as const;
    expect(governAttempt(declines(10, T0, 1, unknown), propose(T0 + HOUR, unknown))).toMatchObject({
      rule: 'mastercard_24_hours',
    });
    const category1 = [attempt(T0, declined('R0'), unknown)];
    expect(governAttempt(category1, propose(T0 + 1, unknown))).toMatchObject({
      rule: 'visa_category_1',
    });
  });
});

// ---- Generated attempt streams ----

const GAPS = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 20 * 60_000 }) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 6 * HOUR }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 4 * DAY }) },
  { weight: 1, arbitrary: fc.constantFrom(DAY - 1, DAY, DAY + 1, 30 * DAY - 1, 30 * DAY) },
);

const OUTCOMES: fc.Arbitrary<AttemptOutcome> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ result: 'approved' } as const) },
  {
    weight: 12,
    arbitrary: fc.record({
      result: fc.constant('declined' as const),
      responseCode: fc.oneof(
        { weight: 12, arbitrary: fc.constant(null) },
        { weight: 6, arbitrary: fc.constantFrom(...OTHER_RESPONSES) },
        { weight: 1, arbitrary: fc.constantFrom(...STOP_RESPONSES) },
      ),
      adviceCode: fc.oneof(
        { weight: 12, arbitrary: fc.constant(null) },
        { weight: 6, arbitrary: fc.constantFrom(...OTHER_ADVICE) },
        { weight: 1, arbitrary: fc.constantFrom(...STOP_ADVICE) },
      ),
    }),
  },
);

const STEP = fc.record({
  gap: GAPS,
  initiator: fc.constantFrom<Initiator>('customer', 'merchant'),
  provider: fc.constantFrom('stripe', 'braintree'),
  outcome: OUTCOMES,
});

const STREAM = fc.record({
  network: fc.constantFrom<CardNetwork>('visa', 'mastercard', 'unknown'),
  steps: fc.array(STEP, { minLength: 1, maxLength: 160 }),
});

/** Every proposal asked of the governor in turn; the allowed ones made, with their outcome. */
function run(stream: {
  network: CardNetwork;
  steps: { gap: number; initiator: Initiator; provider: string; outcome: AttemptOutcome }[];
}) {
  const made: CardAttempt[] = [];
  let at = T0;
  stream.steps.forEach((step, index) => {
    at += step.gap;
    const proposed = {
      at,
      network: stream.network,
      initiator: step.initiator,
      provider: step.provider,
    };
    if (governAttempt(made, proposed).allowed) {
      made.push({ ...proposed, id: `s${index}`, outcome: step.outcome });
    }
  });
  return made;
}

const isDecline = (made: CardAttempt) => made.outcome.result === 'declined';
const appliesVisa = (network: CardNetwork) => network !== 'mastercard';
const appliesMastercard = (network: CardNetwork) => network !== 'visa';

/**
 * The most declines inside one window of `windowMs` (starting at any decline) between two
 * approvals, counted over what was made: what the networks count.
 */
function mostDeclinesInWindow(made: readonly CardAttempt[], windowMs: number): number {
  const segments: CardAttempt[][] = [[]];
  for (const each of made) {
    if (each.outcome.result === 'approved') segments.push([]);
    else (segments.at(-1) as CardAttempt[]).push(each);
  }
  let most = 0;
  for (const segment of segments) {
    for (const start of segment) {
      const inside = segment.filter((e) => e.at >= start.at && e.at < start.at + windowMs);
      most = Math.max(most, inside.filter(isDecline).length);
    }
  }
  return most;
}

function stoppedBy(
  made: CardAttempt,
  codes: readonly string[],
  key: 'responseCode' | 'adviceCode',
) {
  return made.outcome.result === 'declined' && codes.includes(made.outcome[key] ?? '');
}

describe('generated attempt streams', () => {
  it('make no attempt within 30 days of a category 1 decline or advice 03/21', () => {
    fc.assert(
      fc.property(STREAM, (stream) => {
        const made = run(stream);
        made.forEach((stop, i) => {
          const visaStop =
            appliesVisa(stream.network) && stoppedBy(stop, STOP_RESPONSES, 'responseCode');
          const mcStop =
            appliesMastercard(stream.network) && stoppedBy(stop, STOP_ADVICE, 'adviceCode');
          if (!visaStop && !mcStop) return;
          for (const later of made.slice(i + 1)) {
            expect(later.at - stop.at).toBeGreaterThanOrEqual(30 * DAY);
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  it('never exceed the windows, Visa counting customer and merchant apart', () => {
    fc.assert(
      fc.property(STREAM, (stream) => {
        const made = run(stream);
        if (appliesMastercard(stream.network)) {
          expect(mostDeclinesInWindow(made, DAY)).toBeLessThanOrEqual(10);
          expect(mostDeclinesInWindow(made, 30 * DAY)).toBeLessThanOrEqual(35);
        }
        if (appliesVisa(stream.network)) {
          for (const initiator of ['customer', 'merchant'] as const) {
            const own = made.filter((e) => e.initiator === initiator || !isDecline(e));
            expect(mostDeclinesInWindow(own, 30 * DAY)).toBeLessThanOrEqual(20);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reach the limits: a stream of declines is refused only once a window is full', () => {
    // Every few minutes a decline with no stop code: the governor lets exactly the limit through.
    const steps = Array.from({ length: 60 }, () => ({
      gap: 60_000,
      initiator: 'customer' as const,
      provider: 'stripe',
      outcome: declined(null, null),
    }));
    expect(run({ network: 'mastercard', steps })).toHaveLength(10);
    expect(run({ network: 'visa', steps })).toHaveLength(20);
    expect(run({ network: 'unknown', steps })).toHaveLength(10);
  });
});

const HISTORY = fc.array(
  fc.record({
    at: fc.integer({ min: T0 - 40 * DAY, max: T0 }),
    initiator: fc.constantFrom<Initiator>('customer', 'merchant'),
    outcome: fc.oneof(OUTCOMES, fc.constant({ result: 'pending' } as const)),
  }),
  { maxLength: 80 },
);

describe('the governor over any history', () => {
  const asHistory = (
    rows: { at: number; initiator: Initiator; outcome: AttemptOutcome }[],
    network: CardNetwork,
  ) => rows.map((row, i) => ({ ...row, id: `h${i}`, network, provider: 'stripe' }));

  it('gives an unknown network a refusal whenever Visa or Mastercard would refuse', () => {
    fc.assert(
      fc.property(HISTORY, fc.integer({ min: 0, max: 2 * DAY }), (rows, later) => {
        const at = T0 + later;
        const unknown = governAttempt(
          asHistory(rows, 'unknown'),
          propose(at, { network: 'unknown' }),
        );
        const visa = governAttempt(asHistory(rows, 'visa'), propose(at));
        const mc = governAttempt(
          asHistory(rows, 'mastercard'),
          propose(at, { network: 'mastercard' }),
        );
        expect(unknown.allowed).toBe(visa.allowed && mc.allowed);
      }),
    );
  });

  it('decides the same whatever the order, and over what the store keeps', () => {
    fc.assert(
      fc.property(HISTORY, fc.integer({ min: 0, max: 31 * DAY }), (rows, later) => {
        const whole = asHistory(rows, 'unknown');
        const proposal = propose(T0 + later, { network: 'unknown' });
        const decision = governAttempt(whole, proposal);
        expect(governAttempt([...whole].reverse(), proposal)).toEqual(decision);
        expect(governAttempt(keptAttempts(whole, T0), proposal)).toEqual(decision);
      }),
    );
  });

  it('lifts a refusal at its `until`, and not a millisecond before', () => {
    fc.assert(
      fc.property(HISTORY, (rows) => {
        const whole = asHistory(rows, 'unknown');
        const decision: GovernorDecision = governAttempt(
          whole,
          propose(T0, { network: 'unknown' }),
        );
        if (decision.allowed || decision.until === null) return;
        const before = governAttempt(whole, propose(decision.until - 1, { network: 'unknown' }));
        expect(before.allowed).toBe(false);
        const at = governAttempt(whole, propose(decision.until, { network: 'unknown' }));
        if (!at.allowed)
          expect(at.rule === decision.rule && at.until === decision.until).toBe(false);
      }),
    );
  });
});
