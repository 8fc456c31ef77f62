import type { ExperimentDocument } from '../../../shared/config/experiments';
import {
  EXPERIMENT_RESULT_METRICS,
  type ExperimentResultMetric,
} from '../../../shared/console-api/experiment-results';
import type { Slot } from '../../../shared/experiments';
import { PLAN_FAMILIES, type PlanFamilyId } from '../../../shared/plans/catalogue';
import { PLAN_FIELD_NAMES } from '../../../shared/plans/screen-offers';
import { slotOf } from '../../funnel/flow';
import { pickedShares } from '../assignment/assign';
import type { Trigger } from '../config/triggers';

/**
 * How one experiment of the `experiments` section is read (../answer/experiment-answer.ts): its arms and
 * the shares the hash draws for them, where it counts visitors and so which steps its results
 * may show, and whether it tests prices. Pure: from the document as published and its triggers.
 */
export interface ExperimentDesign {
  id: string;
  name: string;
  status: string;
  layer: string;
  control: string;
  /** Each variant's name, by key, the control first. */
  names: Record<string, string>;
  /** The share of the experiment's visitors the hash draws for each variant (0–1). */
  shares: Record<string, number>;
  primaryMetric: ExperimentResultMetric;
  plannedPerArm: number;
  triggers: { route: string; screen: string | null }[];
  metricsShown: ExperimentResultMetric[];
  priceTest: boolean;
  matureAfterDays: number;
  /** The share of its routes' visitors it may take at most: its layer range times its coverage. */
  reachShare: number;
}

/**
 * The per-arm sample the always-valid intervals are tuned for when the split or the experiment does
 * not name one (`plannedPerArm`). A fixed number, never one taken from the data: the mixture's
 * guarantee holds for a tuning chosen before the data, and one that followed the control's rate
 * would move every interval with each day's numbers (and has nothing to go on before the first
 * purchase). 10 000 is at the low end of what funnel tests need (plannedVisitorsPerArm: 6 706 for
 * a 20% lift on a 10% rate, 25 696 for 10%, 140 512 for 10% on 2%), where a wrong guess costs
 * least: tuned too high, early intervals widen a lot (27% at a tenth of the tuning); tuned too
 * low, late ones widen little (7% at ten times it, 3.24 standard errors instead of 3.04).
 */
export const DEFAULT_PLANNED_PER_ARM = 10_000;

/** A price test's revenue matures once the longest intro has renewed, and a few days more. */
const MATURE_MARGIN_DAYS = 3;

/**
 * The first metric each slot's trigger can still count: a step the visitor took before they were
 * exposed is not the experiment's doing, and after the trigger nobody can take it again (a lookup
 * starts on the landing; the sign-up screen's visitor has looked up already).
 */
const FIRST_METRIC_AFTER: Record<Slot, ExperimentResultMetric> = {
  landing: 'lookup',
  searching: 'signup',
  signup: 'signup',
  paywall: 'checkout',
  upsell: 'upsell',
  end: 'net_revenue',
};

/**
 * The metrics an experiment's results show: those from its latest trigger on, so that every
 * route's visitors could have taken each step after being exposed. Revenue metrics follow every
 * trigger but the end's, where only what the product API reports afterwards can still move.
 */
export function metricsAfter(
  triggers: readonly { screen: string | null; slot?: Slot | null }[],
): ExperimentResultMetric[] {
  const order = EXPERIMENT_RESULT_METRICS;
  let from = 0;
  for (const trigger of triggers) {
    // A composed screen's slot is its `from`'s, which the trigger says (../config/triggers.ts).
    const { screen } = trigger;
    const slot = screen === null ? null : (trigger.slot ?? slotOf(screen));
    const first = slot === null ? 0 : order.indexOf(FIRST_METRIC_AFTER[slot]);
    from = Math.max(from, first);
  }
  const shown = order.slice(from);
  // An upsell test's first payments are its upsells: 'revenue' counts only purchases after
  // exposure, so it stays, before 'upsell' in the list's order.
  if (order[from] === 'upsell') return ['revenue', ...shown];
  return [...shown];
}

/** A plan family's price and intro price, the part a visitor pays that a test can change. */
function priceOf(family: string): string {
  const definition = PLAN_FAMILIES[family as PlanFamilyId];
  if (definition === undefined) return family;
  const intro = 'intro' in definition.billing ? definition.billing.intro : null;
  return `${definition.price}/${intro?.price ?? '-'}`;
}

/**
 * A plan-set test whose variants' plans (main, upsell or guide) differ in price: a price test.
 * A variant that keeps the route's plans is compared as such: its plans are not the others', so
 * a test giving some variants plans of their own may change the price, and is judged on revenue.
 */
export function isPriceTest(experiment: Pick<ExperimentDocument, 'variants'>): boolean {
  // Variants that make a country pay in another currency charge it other price points.
  const currencies = Object.values(experiment.variants).map((variant) =>
    JSON.stringify(Object.entries(variant.change.currencies ?? {}).sort()),
  );
  if (new Set(currencies).size > 1) return true;
  return PLAN_FIELD_NAMES.some((field) => {
    const sets = Object.values(experiment.variants).map((variant) => {
      const plans = variant.change[field];
      return plans === undefined ? null : plans.map(priceOf).sort().join(',');
    });
    if (sets.every((set) => set === null)) return false;
    return new Set(sets).size > 1;
  });
}

/** The longest intro among the plans the variants offer (7 days when one keeps the route's). */
export function matureAfterDays(experiment: Pick<ExperimentDocument, 'variants'>): number {
  let longest = 0;
  for (const variant of Object.values(experiment.variants)) {
    const plans = variant.change.plans;
    const families = plans ?? Object.keys(PLAN_FAMILIES);
    for (const family of families) {
      const definition = PLAN_FAMILIES[family as PlanFamilyId];
      if (definition?.role !== 'main') continue;
      const intro = 'intro' in definition.billing ? definition.billing.intro : null;
      longest = Math.max(longest, intro?.days ?? 0);
    }
  }
  return longest + MATURE_MARGIN_DAYS;
}

export function experimentDesign(
  id: string,
  experiment: ExperimentDocument,
  triggers: ReadonlyMap<string, Trigger | null>,
): ExperimentDesign {
  const keys = Object.keys(experiment.variants);
  const ordered = [experiment.control, ...keys.filter((key) => key !== experiment.control)];
  const weighted = ordered.map((key) => [key, experiment.variants[key]?.weight ?? 0] as const);
  const routeTriggers = [...triggers].map(([route, trigger]) => ({
    route,
    screen: trigger?.screen ?? null,
  }));
  const priceTest = isPriceTest(experiment);
  const [from, to] = experiment.range ?? [0, 1];
  return {
    id,
    name: experiment.name,
    status: experiment.status,
    layer: experiment.layer,
    control: experiment.control,
    names: Object.fromEntries(ordered.map((key) => [key, experiment.variants[key]?.name ?? key])),
    shares: pickedShares(weighted),
    primaryMetric: experiment.metrics?.primary ?? (priceTest ? 'mature_revenue' : 'purchase'),
    plannedPerArm: experiment.metrics?.plannedPerArm ?? DEFAULT_PLANNED_PER_ARM,
    triggers: routeTriggers,
    metricsShown: metricsAfter([...triggers.values()].filter((trigger) => trigger !== null)),
    priceTest,
    matureAfterDays: matureAfterDays(experiment),
    reachShare: Math.max(0, to - from) * experiment.coverage,
  };
}
