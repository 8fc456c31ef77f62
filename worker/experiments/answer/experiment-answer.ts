import type {
  ExperimentResultsAnswer,
  SegmentDimension,
  SegmentResults,
} from '../../../shared/console-api/experiment-results';
import type { ExperimentDesign } from '../design/experiment-design';
import { adjustedReader } from '../results/adjusted-answer';
import { declinesByClass, errorsOf, lifecycleOf } from '../results/guardrails';
import { liftOverDays } from '../results/lift-over-days';
import { metricInputs } from '../results/metric-inputs';
import { sampleRatioAnswer } from '../results/sample-ratio-answer';
import { isSaveOfferTest, shownOf } from '../results/save-offer-answer';
import { segmentResults } from '../results/segment-results';
import { vitalsLooks } from '../results/vitals-looks';
import type { ExperimentPhaseRows } from '../store/phase-rows';
import { type Reading, variantResults, vitalsHistograms } from './variant-results';

/**
 * One experiment's results in one phase as the console shows them (ExperimentResultsAnswer),
 * from its rows (every shard's, added: phase-rows.ts) and its design (experiment-design.ts).
 * Pure: experiment-results.ts reads, this computes, with the statistics of the split's results
 * (always-valid intervals over daily looks, the sample-ratio alarm, the data gates).
 *
 * - Steps count only after exposure (the rows' flags), and only the steps from the trigger on are
 *   shown (design.metricsShown).
 * - `revenue` is first payments, capped at their 99th percentile; `net_revenue` adds what the
 *   product API reported since (renewals, less refunds and chargebacks), capped at its own;
 *   `mature_revenue` is net revenue over the visitors exposed at least `matureAfterDays` ago
 *   (whole UTC exposure days), so every one of them has had the chance to renew.
 * - A price test shows no verdict until every arm's mature sample reaches the planned size, and
 *   judges mature revenue in each currency paid in as well (currencyInputs).
 */

/**
 * The variants shown: the design's, the control first, then any seen in the rows that the design
 * no longer names (a variant removed in a later version still has its visitors).
 */
function variantsShown(design: ExperimentDesign, rows: ExperimentPhaseRows): string[] {
  const named = Object.keys(design.shares);
  const seen = rows.arms.map((row) => row.variant).filter((key) => !named.includes(key));
  return [design.control, ...named.filter((key) => key !== design.control), ...seen.sort()];
}

interface ResultsInput {
  design: ExperimentDesign;
  rows: ExperimentPhaseRows;
  phase: number;
  phases: readonly number[];
  configVersion: string;
  /** Epoch ms: what "mature" is measured from. */
  now: number;
  /** First visits on its routes since its phase began; null when unknown. */
  routeVisits: number | null;
  segment?: SegmentDimension;
}

/** The segment asked for, if any, over the variants shown. */
function segmentOf(
  input: ResultsInput,
  variants: string[],
  srmAlarm: boolean,
): SegmentResults | undefined {
  const { design } = input;
  return input.segment === undefined
    ? undefined
    : segmentResults({
        dimension: input.segment,
        rows: input.rows.segments,
        arms: input.rows.arms,
        variants,
        control: design.control,
        metrics: design.metricsShown,
        plannedPerArm: design.plannedPerArm,
        srmAlarm,
      });
}

/** What the answer repeats of the experiment's design, for the console to read its numbers by. */
function designShown(design: ExperimentDesign) {
  return {
    experiment: design.id,
    name: design.name,
    status: design.status,
    layer: design.layer,
    control: design.control,
    primaryMetric: design.primaryMetric,
    plannedPerArm: design.plannedPerArm,
    triggers: design.triggers,
    metricsShown: design.metricsShown,
    priceTest: design.priceTest,
    matureAfterDays: design.matureAfterDays,
  };
}

export function buildExperimentResults(input: ResultsInput): ExperimentResultsAnswer {
  const { design, rows } = input;
  const { inputs, totals, matureExposed, currencies } = metricInputs(
    design,
    rows,
    input.phase,
    input.now,
  );
  const variants = variantsShown(design, rows);
  const arms = new Map(rows.arms.map((row) => [row.variant, row]));
  // A save offer test exposes no visitor: the subscriptions shown its offer are its exposed.
  const saveOffers = isSaveOfferTest(design);
  const exposedOf = (variant: string) =>
    saveOffers ? shownOf(rows.saveOffers, variant) : (arms.get(variant)?.exposed ?? 0);

  const sampleRatio = sampleRatioAnswer(
    variants,
    design.shares,
    exposedOf,
    variants.some((variant) => exposedOf(variant) > 0),
  );
  const awaitingMatureSample =
    design.priceTest &&
    variants.some((variant) => (matureExposed.get(variant) ?? 0) < design.plannedPerArm);
  const reading: Reading = {
    design,
    inputs,
    totals,
    matureExposed,
    arms,
    srmAlarm: sampleRatio.alarm,
    awaitingMatureSample,
    currencies,
    vitals: vitalsHistograms(rows.vitals),
    vitalsLooks: vitalsLooks(rows),
    ...declinesByClass(rows.declines),
    ...lifecycleOf(rows),
    ...errorsOf(rows),
    saveOffers: {
      arms: rows.saveOffers,
      reasons: rows.saveOfferReasons,
      money: rows.saveOfferMoney,
    },
    exposedOf,
    adjusted: adjustedReader(rows, totals, design.plannedPerArm),
  };

  const exposed = variants.reduce((sum, variant) => sum + exposedOf(variant), 0);
  const firstExposed = rows.days.map((row) => row.first_exposed_at);
  const segment = segmentOf(input, variants, sampleRatio.alarm);
  return {
    ...designShown(design),
    phase: input.phase,
    phases: [...input.phases],
    configVersion: input.configVersion,
    startedAt: firstExposed.length === 0 ? null : new Date(Math.min(...firstExposed)).toISOString(),
    mainCurrency: totals.mainCurrency,
    revenueCap: totals.revenueCap,
    awaitingMatureSample,
    reach: {
      exposed,
      expectedAtMost:
        input.routeVisits === null ? null : Math.round(input.routeVisits * design.reachShare),
    },
    sampleRatio,
    variants: variants.map((variant) => variantResults(reading, variant)),
    liftOverDays: liftOverDays({
      looks: inputs.get(design.primaryMetric)?.looks ?? [],
      control: design.control,
      variants: variants.filter((variant) => variant !== design.control),
      plannedPerArm: design.plannedPerArm,
    }),
    ...(segment === undefined ? {} : { segment }),
  };
}
