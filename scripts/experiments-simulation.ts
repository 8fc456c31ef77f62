import { SPLIT_EXPERIMENT_ID } from '../shared/experiments';
import { PLAN_FAMILIES, type PlanFamilyId, type PlanId, planOf } from '../shared/plans/catalogue';
import type { Currency } from '../shared/plans/currency';
import { decimalString } from '../shared/plans/money';
import type { SplitConfig } from '../worker/config/schema';
import { fixedPlacement } from '../worker/experiments/assign';
import type { ExperimentStep } from '../worker/experiments/totals';
import type { RandomSource } from '../worker/funnel/split-test';

/**
 * The synthetic experiment of `npm run experiments -- simulate` (experiments-cli.ts writes it):
 * which variant each visitor gets, at the shares the edge's hash draws, how far down the funnel they
 * go and what they buy, at given rates. Pure, and seeded, so a run can be repeated.
 */

/** The steps in funnel order; a visitor who reached one reached every step before it. */
export const SIMULATED_STEPS: readonly ExperimentStep[] = [
  'lookup',
  'signup',
  'checkout',
  'purchase',
];

/** What `--rates` can set: each step's share of exposed visitors, and the upsell's of buyers. */
export const RATE_NAMES = [...SIMULATED_STEPS, 'upsell'] as const;
export type RateName = (typeof RATE_NAMES)[number];
export type VariantRates = Record<RateName, number>;
/** `--rates` as given: per variant key, the rates it sets. */
export type RateOverrides = Record<string, Partial<VariantRates>>;

/** The control's rates (the split's default variant) unless `--rates` says otherwise. */
export const CONTROL_RATES: VariantRates = {
  lookup: 0.6,
  signup: 0.3,
  checkout: 0.25,
  purchase: 0.05,
  upsell: 0.2,
};

/**
 * Every other variant's: as many start the lookup, more sign up, reach checkout and buy. With
 * the default 6,000 visitors over two arms, the purchase (the default primary metric), sign-up
 * and checkout come out *better* in about 19 runs of 20 and the lookup *no difference yet*, so
 * a newcomer's results page shows both kinds of row.
 */
export const CHALLENGER_RATES: VariantRates = {
  lookup: 0.6,
  signup: 0.36,
  checkout: 0.31,
  purchase: 0.08,
  upsell: 0.2,
};

type Result<T> = { ok: true; value: T } | { ok: false; error: string };

/** The variants the split draws (weight above 0), in the split's order. */
export function drawnVariants(split: SplitConfig): string[] {
  return Object.entries(split.variants)
    .filter(([, variant]) => variant.weight > 0)
    .map(([key]) => key);
}

/**
 * Each variant's rates: the defaults above with `--rates` laid over them. Refused when `--rates`
 * names a variant the split lacks (a typo would silently simulate nothing) or a step's share is
 * above the one before it (the steps are nested).
 */
export function resolveRates(
  split: SplitConfig,
  overrides: RateOverrides,
): Result<Record<string, VariantRates>> {
  const keys = Object.keys(split.variants);
  const unknown = Object.keys(overrides).filter((key) => !keys.includes(key));
  if (unknown.length > 0) {
    return {
      ok: false,
      error: `--rates names variant "${unknown[0]}", which the split in effect does not have (it has ${keys.join(', ')})`,
    };
  }
  const rates: Record<string, VariantRates> = {};
  for (const key of keys) {
    const base = key === split.defaultVariant ? CONTROL_RATES : CHALLENGER_RATES;
    const merged = { ...base, ...overrides[key] };
    for (let i = 1; i < SIMULATED_STEPS.length; i++) {
      const before = SIMULATED_STEPS[i - 1]!;
      const step = SIMULATED_STEPS[i]!;
      if (merged[step] > merged[before]) {
        return {
          ok: false,
          error: `--rates: variant "${key}" has ${step}=${merged[step]} above ${before}=${merged[before]}; the steps are nested (whoever reached ${step} reached ${before}), so each share is at most the one before`,
        };
      }
    }
    rates[key] = merged;
  }
  return { ok: true, value: rates };
}

/** Simulated purchases are charged in this currency, at the catalogue's prices. */
export const SIMULATED_CURRENCY: Currency = 'USD';

/**
 * The first charge of a plan of `role`, as the portal emulator takes it (the intro price where
 * there is one): what a buyer of that family pays on the day.
 */
function firstCharges(role: 'main' | 'upsell'): { planId: PlanId; amountMinor: number }[] {
  return (Object.keys(PLAN_FAMILIES) as PlanFamilyId[])
    .filter((family) => PLAN_FAMILIES[family].role === role)
    .map((family) => {
      const plan = planOf(family, SIMULATED_CURRENCY);
      return { planId: plan.id, amountMinor: plan.periodPrice };
    });
}

const MAIN_CHARGES = firstCharges('main');
const UPSELL_CHARGES = firstCharges('upsell');

export interface SimulatedPurchase {
  planId: PlanId;
  /** Cents of SIMULATED_CURRENCY. */
  amountMinor: number;
  /** Epoch ms. */
  at: number;
}

export interface SimulatedVisitor {
  variant: string;
  /** When the visitor was exposed (their first page), epoch ms. */
  exposedAt: number;
  /** How many of SIMULATED_STEPS they reached: 0 none, 4 bought. */
  reached: number;
  /** A buyer's plan, then an upsell if they took one. */
  purchases: SimulatedPurchase[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** A purchase follows its visitor's first page by up to this much. */
const PURCHASE_DELAY_MS = 30 * 60 * 1000;

/**
 * Exposures fall evenly from the start of the UTC day `days − 1` days before `now` until `now`:
 * on `days` calendar days, today's only as far as it has gone.
 */
export function exposureWindow(now: number, days: number): { from: number; to: number } {
  const startOfToday = now - (now % DAY_MS);
  return { from: startOfToday - (days - 1) * DAY_MS, to: now };
}

function pick<T>(items: readonly T[], random: RandomSource): T {
  return items[Math.min(items.length - 1, Math.floor(random() * items.length))]!;
}

/**
 * `count` visitors: each one's variant drawn at the shares the edge's hash gives `split`'s
 * weights, then each step reached with its rate given the step before (so a step's share of all
 * exposed visitors is its rate), and a buyer's purchase: one of the catalogue's main plans
 * alike, and an upsell at the upsell rate.
 */
export function simulateVisitors(options: {
  split: SplitConfig;
  rates: Record<string, VariantRates>;
  count: number;
  window: { from: number; to: number };
  random: RandomSource;
}): SimulatedVisitor[] {
  const { split, rates, count, window, random } = options;
  const visitors: SimulatedVisitor[] = [];
  const weights = Object.entries(split.variants).map(([key, { weight }]) => [key, weight] as const);
  for (let i = 0; i < count; i++) {
    // The hash's shares, as the edge places visitors (a random id's hash is a uniform draw).
    const variant = fixedPlacement(random).variant(SPLIT_EXPERIMENT_ID, '', weights)!;
    const rate = rates[variant]!;
    const exposedAt = Math.floor(window.from + random() * (window.to - window.from));
    let reached = 0;
    let previous = 1;
    for (const step of SIMULATED_STEPS) {
      const given = previous === 0 ? 0 : rate[step] / previous;
      if (random() >= given) break;
      reached++;
      previous = rate[step];
    }
    const purchases: SimulatedPurchase[] = [];
    if (reached === SIMULATED_STEPS.length) {
      const at = () => Math.min(window.to, exposedAt + Math.floor(random() * PURCHASE_DELAY_MS));
      purchases.push({ ...pick(MAIN_CHARGES, random), at: at() });
      if (random() < rate.upsell) purchases.push({ ...pick(UPSELL_CHARGES, random), at: at() });
    }
    visitors.push({ variant, exposedAt, reached, purchases });
  }
  return visitors;
}

/** One variant's line of the summary: what the store's totals gain from the run. */
export interface VariantTally {
  variant: string;
  exposed: number;
  steps: Record<ExperimentStep, number>;
  purchases: number;
  revenueMinor: number;
}

/** Per drawn variant, in the split's order (a variant no visitor drew shows zeros). */
export function tallyVisitors(
  split: SplitConfig,
  visitors: readonly SimulatedVisitor[],
): VariantTally[] {
  const tallies = new Map<string, VariantTally>(
    drawnVariants(split).map((variant) => [
      variant,
      {
        variant,
        exposed: 0,
        steps: { lookup: 0, signup: 0, checkout: 0, purchase: 0 },
        purchases: 0,
        revenueMinor: 0,
      },
    ]),
  );
  for (const visitor of visitors) {
    const tally = tallies.get(visitor.variant)!;
    tally.exposed++;
    for (const step of SIMULATED_STEPS.slice(0, visitor.reached)) tally.steps[step]++;
    tally.purchases += visitor.purchases.length;
    for (const purchase of visitor.purchases) tally.revenueMinor += purchase.amountMinor;
  }
  return [...tallies.values()];
}

/** The summary's columns, in order; `purchased` is the purchase step (visitors who bought). */
export const SUMMARY_COLUMNS = [
  'variant',
  'exposed',
  'lookup',
  'signup',
  'checkout',
  'purchased',
  'purchases',
  `revenue ${SIMULATED_CURRENCY}`,
] as const;

/** The tallies as a table: the variant left-aligned, the numbers right-aligned under their names. */
export function formatTallies(tallies: readonly VariantTally[]): string {
  const rows = tallies.map((t) => [
    t.variant,
    String(t.exposed),
    ...SIMULATED_STEPS.map((step) => String(t.steps[step])),
    String(t.purchases),
    decimalString(t.revenueMinor),
  ]);
  const table = [[...SUMMARY_COLUMNS], ...rows];
  const widths = SUMMARY_COLUMNS.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  return table
    .map((row) =>
      row
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
