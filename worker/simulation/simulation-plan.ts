import { screensInCode } from '../../shared/composed-screens';
import type { ContentDocument } from '../../shared/config/content';
import type { ExperimentDocument } from '../../shared/config/experiments';
import type {
  HarmOverrides,
  RateOverrides,
  SimulatedStep,
  VitalsShifts,
} from '../../shared/console-api/simulation';
import { SPLIT_EXPERIMENT_ID } from '../../shared/experiments';
import type { FunnelConfig } from '../config/load';
import { experimentFromSplit } from '../experiments/config/migrate-split';
import { experimentTriggers } from '../experiments/config/triggers';
import { type ExperimentDesign, experimentDesign } from '../experiments/design/experiment-design';
import { applyChange, type FunnelShape, routeFunnel } from '../funnel/flow';
import { offersOf, type SimulatedOffers } from './simulated-offers';
import {
  CONTROL_RATES,
  resolveHarm,
  resolveRates,
  SIMULATED_CURRENCY,
  type SimulationPlan,
  triggerShare,
} from './simulated-visitors';
import { resolveVitalsShifts, type VitalsFactors } from './simulated-vitals';

/**
 * Which experiment `npm run experiments -- simulate` fills and how (simulate-route.ts): the
 * experiment as the live config has it, its design as the results read it
 * (worker/experiments/design/experiment-design.ts), and the run's defaults. Pure.
 */

type Result<T> = { ok: true; value: T } | { ok: false; error: string };

const DAY_MS = 24 * 60 * 60 * 1000;

/** Visitors a run exposes unless told, but for a price test (defaultVisitors). */
export const DEFAULT_VISITORS = 6000;
/**
 * Days of exposures beyond the mature view's wait, so that it has two weeks of visitors: more
 * days mature a larger share of a run, so a price test's default run needs fewer visitors
 * (about 38,000 rather than 54,000 with one week, at 10,000 per variant and 10 days' wait).
 */
const MATURE_DAYS_SHOWN = 14;
/** How much more than the planned sample a price test's default run matures, for the draws' spread. */
const MATURE_MARGIN = 1.1;

/**
 * Exposures fall evenly from the start of the UTC day `days − 1` days before `now` until `now`:
 * on `days` calendar days, today's only as far as it has gone.
 */
export function exposureWindow(now: number, days: number): { from: number; to: number } {
  const startOfToday = now - (now % DAY_MS);
  return { from: startOfToday - (days - 1) * DAY_MS, to: now };
}

/** The days a run spreads its exposures over unless told: two weeks of mature visitors. */
export function defaultDays(design: Pick<ExperimentDesign, 'matureAfterDays'>): number {
  return design.matureAfterDays + MATURE_DAYS_SHOWN + 1;
}

/**
 * The share of a run's visitors in the mature view at `now`: those exposed on a UTC day that
 * ended at least `matureAfterDays` ago (experiments/results/metric-inputs.ts lastMatureDay).
 */
export function matureShare(now: number, days: number, matureAfterDays: number): number {
  const window = exposureWindow(now, days);
  const dayEnd = now - matureAfterDays * DAY_MS;
  const matureUntil = dayEnd - (dayEnd % DAY_MS);
  return Math.max(0, Math.min(1, (matureUntil - window.from) / (window.to - window.from)));
}

/**
 * Visitors a run exposes unless told: DEFAULT_VISITORS, or for a price test enough that every
 * variant's mature sample reaches the planned size (no verdict before: experiments/answer/experiment-answer.ts).
 */
export function defaultVisitors(design: ExperimentDesign, now: number, days: number): number {
  if (!design.priceTest) return DEFAULT_VISITORS;
  const drawn = Object.values(design.shares).filter((share) => share > 0);
  const mature = matureShare(now, days, design.matureAfterDays);
  if (drawn.length === 0 || mature === 0) return DEFAULT_VISITORS;
  const needed = (design.plannedPerArm * MATURE_MARGIN) / Math.min(...drawn) / mature;
  return Math.max(DEFAULT_VISITORS, Math.ceil(needed / 1000) * 1000);
}

/** The experiment `id` names in the live config: the split is the experiment it became. */
function experimentOf(config: FunnelConfig, id: string): ExperimentDocument | null {
  if (id === SPLIT_EXPERIMENT_ID) return experimentFromSplit(config.split);
  return Object.hasOwn(config.experiments.experiments, id)
    ? config.experiments.experiments[id]!
    : null;
}

/** The first step the results count after exposure, from the metrics they show. */
function firstCounted(design: ExperimentDesign): SimulatedStep | null {
  const steps: readonly string[] = ['lookup', 'signup', 'checkout', 'purchase', 'upsell'];
  return (design.metricsShown.find((metric) => steps.includes(metric)) ??
    null) as SimulatedStep | null;
}

export interface PlannedRun {
  plan: SimulationPlan;
  design: ExperimentDesign;
  /** What each variant's field vitals are multiplied by (simulated-vitals.ts). */
  vitals: VitalsFactors;
}

/** What a visitor of `shape` can buy from its `from`th screen on, a composed screen as its own. */
function shapeOffers(content: ContentDocument, shape: FunnelShape, from: number) {
  const screens = screensInCode(content, shape.screens);
  return offersOf({ ...shape, screens }, SIMULATED_CURRENCY, from);
}

/**
 * The experiment `named` as a run can draw it, or why it cannot: the live config lacks it, it is
 * a draft (it exposes no one), or it draws fewer than two variants.
 */
function drawnExperiment(
  config: FunnelConfig,
  named: string,
): Result<{ experiment: ExperimentDocument; drawn: [string, { weight: number }][] }> {
  const others = Object.keys(config.experiments.experiments).filter(
    (key) => config.experiments.experiments[key]!.status === 'running',
  );
  const running = others.length > 0 ? others.join(', ') : 'none yet';
  const experiment = experimentOf(config, named);
  if (experiment === null) {
    return {
      ok: false,
      error: `the live config has no experiment "${named}" (running: ${running}; the split is "${SPLIT_EXPERIMENT_ID}")`,
    };
  }
  if (experiment.status === 'draft') {
    return {
      ok: false,
      error: `"${named}" is a draft, which exposes no one: start it in the console (Experiments → Start) first`,
    };
  }
  const drawn = Object.entries(experiment.variants).filter(([, variant]) => variant.weight > 0);
  if (drawn.length < 2) {
    const split = named === SPLIT_EXPERIMENT_ID;
    return {
      ok: false,
      error: `${split ? 'the split in effect' : `"${named}"`} draws one variant (${drawn.map(([key]) => key).join(', ')}), so there is nothing to compare: ${split ? `name a running experiment (${running}), or publish a split with two or more variants (npm start, then http://localhost:8787/console → Edit and publish)` : 'give two or more variants a weight in the console first'}`,
    };
  }
  return { ok: true, value: { experiment, drawn } };
}

/**
 * What each variant's visitor walks on each route (its flow, screens and plans), as the
 * triggers read it; what they can buy from the trigger on.
 */
function variantOffers(
  config: FunnelConfig,
  experiment: ExperimentDocument,
  triggers: ReturnType<typeof experimentTriggers>,
  variants: readonly string[],
  routes: readonly string[],
): Record<string, Record<string, SimulatedOffers>> {
  const offers: Record<string, Record<string, SimulatedOffers>> = {};
  for (const variant of variants) {
    offers[variant] = {};
    for (const route of routes) {
      const document = config.routing.routes.find((candidate) => candidate.id === route)!;
      const change = experiment.variants[variant]?.change ?? {};
      const shape = applyChange(routeFunnel(document, config.flows), change, config.flows);
      offers[variant][route] = shapeOffers(config.content, shape, triggers.get(route)!.index);
    }
  }
  return offers;
}

/**
 * The plan of a run on experiment `id` (the split when null), or why there is none: an
 * experiment the live config lacks, a draft (it exposes no one), one drawing fewer than two
 * variants or shown on no route, or `--rates`, `--vitals` or `--harm` that do not fit it.
 */
export function planSimulation(
  config: FunnelConfig,
  id: string | null,
  overrides: { rates: RateOverrides; vitals: VitalsShifts; harm?: HarmOverrides },
): Result<PlannedRun> {
  const named = id ?? SPLIT_EXPERIMENT_ID;
  const found = drawnExperiment(config, named);
  if (!found.ok) return found;
  const { experiment, drawn } = found.value;
  const triggers = experimentTriggers(named, experiment, config);
  const design = experimentDesign(named, experiment, triggers);
  const routes = design.triggers
    .filter((trigger) => trigger.screen !== null)
    .map((trigger) => trigger.route);
  if (routes.length === 0) {
    return {
      ok: false,
      error: `"${named}" is shown on no route of the live config: no route's visitors reach its trigger`,
    };
  }
  const first = firstCounted(design);
  const variants = Object.keys(design.names);
  const rates = resolveRates({ variants, control: design.control, first }, overrides.rates);
  if (!rates.ok) return rates;
  const vitals = resolveVitalsShifts(variants, overrides.vitals);
  if (!vitals.ok) return vitals;
  const harm = resolveHarm(variants, overrides.harm ?? {});
  if (!harm.ok) return harm;
  const offers = variantOffers(config, experiment, triggers, variants, routes);
  return {
    ok: true,
    value: {
      design,
      vitals: vitals.value,
      plan: {
        experiment: named,
        phase: experiment.phase ?? 1,
        configVersion: config.version,
        startedAt: experiment.startedAt ?? null,
        weights: drawn.map(([key, variant]) => [key, variant.weight] as const),
        routes,
        offers,
        rates: rates.value,
        harm: harm.value,
        first,
        exposedShare: design.reachShare * triggerShare(CONTROL_RATES, first),
      },
    },
  };
}
