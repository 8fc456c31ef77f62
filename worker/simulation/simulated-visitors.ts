import {
  type Harm,
  type HarmOverrides,
  type RateOverrides,
  SIMULATED_STEPS,
  type SimulatedStep,
  type StepRates,
  type VariantTally,
} from '../../shared/console-api/simulation';
import { PLAN_FAMILIES, type PlanFamilyId, planOf } from '../../shared/plans/catalogue';
import type { Currency } from '../../shared/plans/currency';
import { fixedPlacement } from '../experiments/assignment/assign';
import type { VisitorError } from '../experiments/store/error-statements';
import type {
  ExperimentExposure,
  ExposureSegments,
} from '../experiments/store/every-experiment-statements';
import type { Outcome } from '../experiments/store/outcomes';
import type { RevenueEvent } from '../experiments/store/revenue-events';
import type { ExperimentPurchase, FirstVisit } from '../experiments/store/split-statements';
import type { VitalsSample } from '../experiments/store/vitals-statements';
import type { SimulatedOffers, SimulatedPlan } from './simulated-offers';

/**
 * The visitors of `npm run experiments -- simulate` (simulate-route.ts writes them): for one
 * experiment of the live config, who is exposed to which variant at the shares its weights draw,
 * when (back-dated over the last days), with the segments a real exposure is captured with
 * (worker/request/exposure-segments.ts), the steps they take after it, what they buy (their
 * funnel's plans, simulated-offers.ts, at what a visitor is charged) and what the product API
 * reports afterwards (renewals, refunds, chargebacks of each subscription). Pure and seeded: the
 * same plan, seed and ids draw the same visitors.
 */

const NO_HARM: Harm = { declines: 0, errors: 0 };

/** Each variant's harm, none where not given; refused: a variant the experiment lacks. */
export function resolveHarm(
  variants: readonly string[],
  overrides: HarmOverrides,
): Result<Record<string, Harm>> {
  const unknown = Object.keys(overrides).find((key) => !variants.includes(key));
  if (unknown !== undefined) {
    return {
      ok: false,
      error: `--harm names variant "${unknown}", which the experiment does not have (it has ${variants.join(', ')})`,
    };
  }
  return {
    ok: true,
    value: Object.fromEntries(variants.map((key) => [key, { ...NO_HARM, ...overrides[key] }])),
  };
}

/** The steps nested in one another: whoever reached one reached every one before it. */
const NESTED: readonly SimulatedStep[] = ['lookup', 'signup', 'checkout', 'purchase'];

/**
 * The control's rates as shares of the visitors who open the funnel's first screen (the upsell
 * as a share of buyers), unless `--rates` says otherwise.
 */
export const CONTROL_RATES: StepRates = {
  lookup: 0.6,
  signup: 0.3,
  checkout: 0.25,
  purchase: 0.05,
  upsell: 0.2,
};

/**
 * Every other variant's: as many start the lookup, more sign up, reach checkout and buy, so that
 * with the default run the purchase comes out *better* and the lookup *no difference yet*.
 */
export const CHALLENGER_RATES: StepRates = {
  lookup: 0.6,
  signup: 0.36,
  checkout: 0.31,
  purchase: 0.08,
  upsell: 0.2,
};

/** The funnel event that marks each step before the purchase (outcomes.ts). */
const STEP_EVENTS = {
  lookup: 'onboarding_start',
  signup: 'lead',
  checkout: 'checkout_screen_load',
} as const satisfies Partial<Record<SimulatedStep, Outcome['event']>>;

type Result<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * The share of the first screen's visitors who reach the step before `first`, the experiment's
 * first step after its trigger: its visitors were exposed there, so the default rates are
 * divided by it (a paywall test's visitor had signed up already).
 */
export function triggerShare(rates: StepRates, first: SimulatedStep | null): number {
  if (first === null || first === 'upsell') return rates.purchase;
  const at = NESTED.indexOf(first);
  return at <= 0 ? 1 : rates[NESTED[at - 1]!];
}

/**
 * The steps an experiment counts from `first` on; none (null) for a test whose trigger follows
 * the upsell, which counts only what the product API reports afterwards.
 */
function countedSteps(first: SimulatedStep | null): readonly SimulatedStep[] {
  return first === null ? [] : SIMULATED_STEPS.slice(SIMULATED_STEPS.indexOf(first));
}

/**
 * Each variant's rates as shares of its exposed visitors, from the experiment's first counted
 * step on (`first`: the steps before its trigger were taken before exposure and are not drawn):
 * the defaults above, scaled to the visitors who reached the trigger, with `--rates` over them.
 * Refused: a variant the experiment lacks, a step before the trigger, a step above the one
 * before it (the steps are nested).
 */
export function resolveRates(
  experiment: { variants: readonly string[]; control: string; first: SimulatedStep | null },
  overrides: RateOverrides,
): Result<Record<string, StepRates>> {
  const { variants, control, first } = experiment;
  const unknown = Object.keys(overrides).filter((key) => !variants.includes(key));
  if (unknown.length > 0) {
    return {
      ok: false,
      error: `--rates names variant "${unknown[0]}", which the experiment does not have (it has ${variants.join(', ')})`,
    };
  }
  const counted = countedSteps(first);
  const rates: Record<string, StepRates> = {};
  for (const key of variants) {
    const base = key === control ? CONTROL_RATES : CHALLENGER_RATES;
    const before = triggerShare(base, first);
    const scaled = { ...base };
    for (const step of NESTED) {
      scaled[step] = counted.includes(step) ? Math.min(1, base[step] / before) : 1;
    }
    const given = overrides[key] ?? {};
    const early = Object.keys(given).find((step) => !counted.includes(step as SimulatedStep));
    if (early !== undefined) {
      return {
        ok: false,
        error: `--rates: variant "${key}" sets ${early}, but this experiment ${first === null ? 'counts no step' : `counts from ${first} on`} (its visitors took ${early} before they were exposed)`,
      };
    }
    const merged = { ...scaled, ...given };
    for (let i = 1; i < NESTED.length; i++) {
      const step = NESTED[i]!;
      const previous = NESTED[i - 1]!;
      if (merged[step] > merged[previous]) {
        return {
          ok: false,
          error: `--rates: variant "${key}" has ${step}=${merged[step]} above ${previous}=${merged[previous]}; the steps are nested (whoever reached ${step} reached ${previous}), so each share is at most the one before`,
        };
      }
    }
    rates[key] = merged;
  }
  return { ok: true, value: rates };
}

/** Simulated purchases are charged in this currency (simulated-offers.ts: at the charged price). */
export const SIMULATED_CURRENCY: Currency = 'USD';

/** What one simulation draws from: the experiment as the live config has it. */
export interface SimulationPlan {
  experiment: string;
  phase: number;
  configVersion: string;
  /** When the experiment started (ISO), if the config says. */
  startedAt: string | null;
  /** Each variant's weight, as the experiment draws them. */
  weights: readonly (readonly [variant: string, weight: number])[];
  /** The routes it runs on (its visitors' route segment). */
  routes: readonly string[];
  /** What each variant offers on each route: its main plans, then its upsell's and guide's. */
  offers: Record<string, Record<string, SimulatedOffers>>;
  rates: Record<string, StepRates>;
  /** What goes wrong for each variant's visitors (resolveHarm); absent: nothing. */
  harm?: Record<string, Harm>;
  /** The first step counted after exposure (resolveRates); null: none. */
  first: SimulatedStep | null;
  /**
   * The share of a route's new visitors it exposes: the experiment's reach times the share
   * reaching its trigger. Each exposed visitor brings 1 / this first visits to their route, so
   * the reach the results show is the experiment's.
   */
  exposedShare: number;
}

/** What a renewal, a refund and a chargeback happen at. */
const LIFECYCLE_RATES = {
  /** Of buyers of an intro, who pay the full price when it ends. */
  afterIntro: 0.45,
  /** Of subscribers, who renew at the end of each later month or quarter. */
  renewal: 0.8,
  /** Of buyers, who have their first payment refunded within two days. */
  refund: 0.04,
  /** Of buyers, whose first payment comes back as a chargeback within three weeks. */
  chargeback: 0.005,
  /**
   * Of subscribers who stop, who stop because the renewal's charge failed (the rest cancel a day
   * before it), and of all who stop, whose failed renewal is paid three days later through the
   * recovery link (recovered) before they cancel; the others cancel two weeks after the failure.
   */
  failedOfStopped: 0.5,
  recoveredOfStopped: 0.2,
} as const;

/** The segment levels drawn, each with its share, as real exposures store them. */
const COUNTRIES = [
  ['US', 0.4, 'en'],
  ['DE', 0.15, 'de'],
  ['GB', 0.12, 'en'],
  ['BR', 0.1, 'pt'],
  ['FR', 0.08, 'fr'],
  ['CA', 0.08, 'en'],
  ['IN', 0.07, 'en'],
] as const;
const SOURCES = [
  ['tiktok', 0.35],
  ['meta', 0.25],
  ['google', 0.2],
  ['direct', 0.15],
  ['organic', 0.05],
] as const;
const PLATFORMS = [
  ['ios', 0.45],
  ['android', 0.4],
  ['desktop', 0.15],
] as const;
/** The in-app browser a visit from each network opens in, at this share of its mobile visits. */
const IN_APP = { tiktok: ['tiktok', 0.8], meta: ['instagram', 0.6] } as const;

const MINUTE_MS = 60 * 1000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export interface SimulatedBatch {
  exposures: ExperimentExposure[];
  /** Each exposed visitor's first visit, and those of the route's visitors never exposed. */
  firstVisits: FirstVisit[];
  outcomes: Outcome[];
  purchases: ExperimentPurchase[];
  revenueEvents: RevenueEvent[];
  /** Declined payments (Harm.declines), as the worker reads them from a charge's answer. */
  declines: (Outcome & { event: 'subs_purchase_failed' })[];
  /** Scripts that failed on visitors' pages (Harm.errors). */
  errors: VisitorError[];
}

type Random = () => number;

function weighted<T extends readonly [string, number, ...unknown[]]>(
  items: readonly T[],
  random: Random,
): T {
  let point = random() * items.reduce((sum, item) => sum + item[1], 0);
  for (const item of items) {
    point -= item[1];
    if (point < 0) return item;
  }
  return items[items.length - 1]!;
}

function pick<T>(items: readonly T[], random: Random): T {
  return items[Math.min(items.length - 1, Math.floor(random() * items.length))]!;
}

function segmentsOf(route: string, random: Random): ExposureSegments {
  const [country, , language] = weighted(COUNTRIES, random);
  const [source] = weighted(SOURCES, random);
  const [platform] = weighted(PLATFORMS, random);
  const inApp = Object.hasOwn(IN_APP, source) ? IN_APP[source as keyof typeof IN_APP] : null;
  const app = inApp && platform !== 'desktop' && random() < inApp[1] ? inApp[0] : 'none';
  // One in ten reads the funnel in English wherever they are.
  return {
    country,
    source,
    platform,
    in_app: app,
    language: random() < 0.1 ? 'en' : language,
    route,
  };
}

/**
 * The payments after a plan's first one, until `now`: the intro's end at the full price, then
 * every period, each with its renewal rate (a subscriber who stops once is gone). A one-time
 * plan (the guide) has none.
 */
function renewals(
  family: PlanFamilyId,
  boughtAt: number,
  now: number,
  random: Random,
): { paid: number[]; stop: { at: number; why: number } | null } {
  const definition = PLAN_FAMILIES[family];
  if (definition.billing.kind !== 'recurring') return { paid: [], stop: null };
  const periodMs = definition.billing.months * 30 * DAY_MS;
  const { intro } = definition.billing;
  const paid: number[] = [];
  let at = boughtAt + (intro ? intro.days * DAY_MS : periodMs);
  let rate: number = intro ? LIFECYCLE_RATES.afterIntro : LIFECYCLE_RATES.renewal;
  while (at <= now) {
    const draw = random();
    // The draw that stops the subscription, spread again over [0, 1): why it stopped.
    if (draw >= rate) return { paid, stop: { at, why: (draw - rate) / (1 - rate) } };
    paid.push(at);
    at += periodMs;
    rate = LIFECYCLE_RATES.renewal;
  }
  return { paid, stop: null };
}

/**
 * How a subscription that stopped at a renewal ended (`why` uniform in [0, 1)): its charge failed
 * (`renewal_failed`), then was paid three days later (a recovered renewal) or not, and it was
 * cancelled; or it was cancelled the day before. Only what happened by `now`.
 */
function stopEvents(
  stop: { at: number; why: number },
  price: number,
  now: number,
): {
  kind: RevenueEvent['kind'];
  amountMinor: number;
  at: number;
  currency?: null;
  recovered?: boolean;
}[] {
  const { at, why } = stop;
  const events =
    why >= LIFECYCLE_RATES.failedOfStopped
      ? [{ kind: 'cancellation' as const, amountMinor: 0, at: at - DAY_MS, currency: null }]
      : [
          { kind: 'renewal_failed' as const, amountMinor: 0, at },
          why < LIFECYCLE_RATES.recoveredOfStopped
            ? { kind: 'renewal' as const, amountMinor: price, at: at + 3 * DAY_MS, recovered: true }
            : {
                kind: 'cancellation' as const,
                amountMinor: 0,
                at: at + 14 * DAY_MS,
                currency: null,
              },
        ];
  return events.filter((event) => event.at <= now);
}

/** The plan a buyer picks: the preselected first more often than not. */
function pickPlan(plans: readonly SimulatedPlan[], random: Random): SimulatedPlan {
  return random() < 0.6 ? plans[0]! : pick(plans, random);
}

/** A subscription a simulated visitor bought, for what the product API reports after it. */
interface Bought {
  subscriptionId: string;
  plan: SimulatedPlan;
  at: number;
}

/**
 * What the product API reports after a first payment, until `now`: a refund or a chargeback of
 * it (what was paid, coupon and all), or else its renewals at the plan's recurring price, as the
 * embedded portal charges them (portal/lifecycle-event.ts: the coupon takes off the first
 * payment only, so an upsell bought at 30% off renews at its full price).
 */
function lifecycle(
  bought: Bought,
  now: number,
  random: Random,
): { kind: RevenueEvent['kind']; amountMinor: number; at: number; recovered?: boolean }[] {
  const luck = random();
  if (luck < LIFECYCLE_RATES.refund + LIFECYCLE_RATES.chargeback) {
    const refund = luck < LIFECYCLE_RATES.refund;
    const at = bought.at + Math.floor(random() * (refund ? 2 : 21) * DAY_MS);
    const kind = refund ? 'refund' : 'chargeback';
    return at <= now ? [{ kind, amountMinor: -bought.plan.firstMinor, at }] : [];
  }
  const { price } = planOf(bought.plan.family, SIMULATED_CURRENCY);
  const { paid, stop } = renewals(bought.plan.family, bought.at, now, random);
  return [
    ...paid.map((at) => ({ kind: 'renewal' as const, amountMinor: price, at })),
    ...(stop === null ? [] : stopEvents(stop, price, now)),
  ];
}

/** What every visitor of a batch shares: the plan's steps, the draws and the clock's end. */
interface BatchContext {
  plan: SimulationPlan;
  batch: SimulatedBatch;
  counted: readonly SimulatedStep[];
  random: Random;
  newId: () => string;
  now: number;
}

/** One exposed visitor, as the steps they took left them (`later` dates each next step). */
interface ExposedVisitor {
  visitorId: string;
  variant: string;
  route: string;
  exposedAt: number;
  later: () => number;
}

/**
 * The subscriptions a visitor who bought (or an upsell or end test's visitor, who bought before
 * exposure) holds, each upsell drawn at its rate, and what the product API reports after them.
 */
function simulatePurchases(context: BatchContext, visitor: ExposedVisitor, boughtBefore: boolean) {
  const { plan, batch, counted, random, newId, now } = context;
  const { visitorId, variant, route, exposedAt, later } = visitor;
  const rates = plan.rates[variant]!;
  const offers = plan.offers[variant]![route]!;
  const main: Bought = {
    subscriptionId: `sim_sub_${newId()}`,
    plan: pickPlan(offers.main, random),
    at: boughtBefore ? exposedAt - MINUTE_MS : later(),
  };
  const subscriptions = [main];
  // Only a visitor exposed at or before the purchase counts it: an upsell test's buyer paid
  // for the main plan before the upsell exposed them, so only the upsell is theirs.
  const purchase = ({ subscriptionId, plan: paid, at }: Bought, upsell: boolean) =>
    batch.purchases.push({
      subscriptionId,
      visitorId,
      amountMinor: paid.firstMinor,
      currency: SIMULATED_CURRENCY,
      upsell,
      at,
      route,
    });
  if (!boughtBefore) purchase(main, false);
  if (counted.includes('upsell')) {
    for (const offer of offers.after) {
      if (random() >= rates.upsell) continue;
      const extra: Bought = {
        subscriptionId: `sim_sub_${newId()}`,
        plan: pickPlan(offer.plans, random),
        at: later(),
      };
      purchase(extra, true);
      subscriptions.push(extra);
    }
  }
  // The main plan's lifecycle after an upsell test's exposure counts in its net revenue, as a
  // real buyer's would (revenue-events.ts: every experiment exposed before the event).
  for (const subscription of subscriptions) {
    for (const event of lifecycle(subscription, now, random)) {
      batch.revenueEvents.push({
        eventId: `sim_evt_${newId()}`,
        subscriptionId: subscription.subscriptionId,
        visitorId,
        currency: SIMULATED_CURRENCY,
        ...event,
      });
    }
  }
}

/** One visitor exposed in `window`, their first visits, the steps they took and what they bought. */
function simulateVisitor(
  context: BatchContext,
  window: { from: number; to: number },
  visitsPerExposed: number,
) {
  const { plan, batch, counted, random, newId, now } = context;
  const variant = fixedPlacement(random).variant(plan.experiment, '', plan.weights)!;
  const rates = plan.rates[variant]!;
  const route = pick(plan.routes, random);
  const visitorId = newId();
  const exposedAt = Math.floor(window.from + random() * (window.to - window.from));
  // A moment after exposure, never after now.
  let clock = exposedAt;
  const later = () => {
    clock = Math.min(now, clock + 1_000 + Math.floor(random() * 5 * MINUTE_MS));
    return clock;
  };
  const segments = segmentsOf(route, random);
  batch.exposures.push({
    experiment: plan.experiment,
    phase: plan.phase,
    variant,
    visitorId,
    configVersion: plan.configVersion,
    at: exposedAt,
    segments,
  });
  // Whoever the route brought that the experiment never exposed counts among its visits too.
  const visits = Math.floor(visitsPerExposed) + (random() < visitsPerExposed % 1 ? 1 : 0);
  for (let v = 0; v < Math.max(1, visits); v++) {
    batch.firstVisits.push({
      visitorId,
      route,
      at: exposedAt,
      source: segments.source,
      campaign: '',
    });
  }

  // Drawn only where harm is asked for, so a run without it draws the same visitors as before.
  const harm = plan.harm?.[variant] ?? NO_HARM;
  if (harm.errors > 0 && random() < harm.errors) {
    batch.errors.push({ visitorId, kind: 'client_error', at: later() });
  }
  let previous = 1;
  let bought = false;
  for (const step of NESTED) {
    if (!counted.includes(step)) continue;
    if (step === 'purchase' && harm.declines > 0 && random() < harm.declines) {
      const at = later();
      batch.declines.push({
        visitorId,
        event: 'subs_purchase_failed',
        at,
        route,
        declineClass: 'do_not_honour',
      });
      break;
    }
    const given = previous === 0 ? 0 : rates[step] / previous;
    if (random() >= given) break;
    previous = rates[step];
    if (step === 'purchase') bought = true;
    else {
      const event = STEP_EVENTS[step as keyof typeof STEP_EVENTS];
      batch.outcomes.push({ visitorId, event, at: later(), route });
    }
  }
  // An upsell or an end test's visitors bought their main plan before it exposed them.
  const boughtBefore = !counted.includes('purchase');
  if (!bought && !boughtBefore) return;
  simulatePurchases(context, { visitorId, variant, route, exposedAt, later }, boughtBefore);
}

/**
 * `count` exposed visitors of the plan, their first visits exposed between `window.from` and
 * `window.to` (which is now: nothing is dated later), with what follows their exposure. `newId`
 * names visitors, subscriptions and lifecycle events.
 */
export function simulateBatch(
  plan: SimulationPlan,
  options: {
    count: number;
    window: { from: number; to: number };
    random: Random;
    newId: () => string;
  },
): SimulatedBatch {
  const { count, window, random, newId } = options;
  const batch: SimulatedBatch = {
    exposures: [],
    firstVisits: [],
    outcomes: [],
    purchases: [],
    revenueEvents: [],
    declines: [],
    errors: [],
  };
  const context = { plan, batch, counted: countedSteps(plan.first), random, newId, now: window.to };
  const visitsPerExposed = 1 / Math.max(plan.exposedShare, 0.01);
  for (let i = 0; i < count; i++) simulateVisitor(context, window, visitsPerExposed);
  return batch;
}

export function tallyBatch(
  variants: readonly string[],
  batch: SimulatedBatch,
  vitals: readonly VitalsSample[] = [],
): Record<string, VariantTally> {
  const tallies: Record<string, VariantTally> = {};
  for (const variant of variants) {
    tallies[variant] = {
      exposed: 0,
      lookup: 0,
      signup: 0,
      checkout: 0,
      purchase: 0,
      upsell: 0,
      paidMinor: 0,
      renewals: 0,
      refunds: 0,
      renewalFailures: 0,
      recovered: 0,
      cancellations: 0,
      netMinor: 0,
      vitals: 0,
      declined: 0,
      errors: 0,
    };
  }
  const variantOf = new Map<string, string>();
  for (const exposure of batch.exposures) {
    variantOf.set(exposure.visitorId, exposure.variant);
    tallies[exposure.variant]!.exposed++;
  }
  const tallyOf = (visitorId: string) => tallies[variantOf.get(visitorId)!]!;
  const stepOf = { onboarding_start: 'lookup', lead: 'signup', checkout_screen_load: 'checkout' };
  for (const outcome of batch.outcomes) {
    const step = stepOf[outcome.event as keyof typeof stepOf];
    if (step !== undefined) tallyOf(outcome.visitorId)[step as 'lookup']++;
  }
  for (const purchase of batch.purchases) {
    const tally = tallyOf(purchase.visitorId);
    tally[purchase.upsell ? 'upsell' : 'purchase']++;
    tally.paidMinor += purchase.amountMinor ?? 0;
    tally.netMinor += purchase.amountMinor ?? 0;
  }
  for (const event of batch.revenueEvents) {
    const tally = tallyOf(event.visitorId);
    if (event.kind === 'renewal') tally.renewals++;
    if (event.recovered === true) tally.recovered++;
    if (event.kind === 'refund' || event.kind === 'chargeback') tally.refunds++;
    if (event.kind === 'renewal_failed') tally.renewalFailures++;
    if (event.kind === 'cancellation') tally.cancellations++;
    tally.netMinor += event.amountMinor;
  }
  for (const sample of vitals) tallyOf(sample.visitorId).vitals++;
  for (const decline of batch.declines) tallyOf(decline.visitorId).declined++;
  for (const error of batch.errors) tallyOf(error.visitorId).errors++;
  return tallies;
}
