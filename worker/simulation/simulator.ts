import * as z from 'zod';
import { VITAL_METRICS } from '../../shared/analytics/vitals';
import {
  HARMS,
  SIMULATED_STEPS,
  type SimulationBatch,
  type SimulationBatchAnswer,
  type SimulationStart,
  type SimulationStarted,
} from '../../shared/console-api/simulation';
import { seededRandom } from '../../shared/seeded-random';
import { vitalsSampleRate } from '../collector/vitals-sample';
import { createConfigSource } from '../config/load';
import type { Bindings } from '../env';
import { fnv1a, groupByShard } from '../experiments/assignment/assign';
import { recordPurchases } from '../experiments/store/experiment-purchase';
import { experimentStores, shardStub } from '../experiments/store/experiment-stores';
import { recordDeclines, recordErrors, recordOutcomes } from '../experiments/store/record-outcomes';
import { recordVitals } from '../experiments/store/record-vitals';
import type { VitalsSample } from '../experiments/store/vitals-statements';
import { applyToExperiments } from '../lifecycle/apply';
import { type SimulatedBatch, simulateBatch, tallyBatch } from './simulated-visitors';
import { simulateVitals, VITALS_SHIFT_RANGE } from './simulated-vitals';
import {
  defaultDays,
  defaultVisitors,
  exposureWindow,
  matureShare,
  type PlannedRun,
  planSimulation,
} from './simulation-plan';

/**
 * The simulator (docs/experiments.md, "Simulated visitors"): simulated visitors of any experiment
 * of the live config (simulated-visitors.ts), written by the functions real ones go through:
 * their exposures with segments and first visits to their shards as worker/middleware/exposure.ts
 * writes them, their steps and purchases as the events queue's consumer does (recordOutcomes,
 * recordPurchases; declines and failing scripts asked for with `harm` as recordDeclines and
 * recordErrors), and renewals, refunds and chargebacks as the lifecycle endpoint passes them on
 * (applyToExperiments), and the field vitals of those in the worker's vitals sample
 * (VITALS_SAMPLE_RATE, as vitals-sample.ts reads it) as the consumer counts a sampled page's
 * report (recordVitals; simulated-vitals.ts draws them). So the results, their segments, the
 * mature view, the page speed and a guarded ramp's guardrails read them as they would real
 * visitors'.
 *
 * Never in the bundle production ships (test/unit/production-bundle.test.ts). Its doors: the
 * development entry's `/__dev/experiments/simulate/*` for `npm run experiments -- simulate` and
 * the MCP server (worker/dev/simulate-route.ts), and, in development and on staging, the
 * console's Send test traffic behind the console's Access check (worker/console/routes.ts). `start`
 * plans the run (and with `reset`, where the entry can empty a phase, empties it); each `batch`
 * writes BATCH_SIZE visitors in one request, a few requests per shard they touch.
 */

/** Visitors per batch request: about 200 shard calls and 60 ms of local writes each. */
const BATCH_SIZE = 1000;

const MAX_VISITORS = 1_000_000;
const MAX_DAYS = 90;

const share = z.number().min(0).max(1);
const rates = z.record(z.string(), z.partialRecord(z.enum(SIMULATED_STEPS), share));
const experiment = z.string().min(1).max(100).nullable();
/** `--vitals`: per variant, each metric's change in percent. */
const vitalsShifts = z.record(
  z.string(),
  z.partialRecord(
    z.enum(VITAL_METRICS),
    z.number().min(VITALS_SHIFT_RANGE.min).max(VITALS_SHIFT_RANGE.max),
  ),
);

/** `--harm`: per variant, the share of its visitors whose payment or page goes wrong. */
const harms = z.record(z.string(), z.partialRecord(z.enum(HARMS), share)).optional();

const startBody: z.ZodType<SimulationStart> = z.strictObject({
  experiment,
  visitors: z.number().int().min(1).max(MAX_VISITORS).nullable(),
  days: z.number().int().min(1).max(MAX_DAYS).nullable(),
  rates,
  vitals: vitalsShifts,
  harm: harms,
  reset: z.boolean(),
});

const batchBody: z.ZodType<SimulationBatch> = z.strictObject({
  experiment: z.string().min(1).max(100),
  phase: z.number().int().positive(),
  rates,
  vitals: vitalsShifts,
  harm: harms,
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1),
  visitors: z.number().int().min(1).max(MAX_VISITORS),
  days: z.number().int().min(1).max(MAX_DAYS),
  /** Epoch ms: every batch of a run shares the start's window. */
  now: z.number().int().positive(),
  batch: z.number().int().min(0),
});

const configSource = createConfigSource();

const refuse = (error: string, status = 400) => Response.json({ error }, { status });

/** A run's step, as its door names it: `start` plans it, `batch` writes one batch of it. */
export type SimulationStep = 'start' | 'batch';

/** Empties an experiment's phase in every store (the development entry's shards only). */
export type PhaseEmptier = (env: Bindings, experiment: string, phase: number) => Promise<void>;

/**
 * The simulator as an entry offers it: `step` with its posted `body`, answered as JSON (a
 * SimulationStarted or SimulationBatchAnswer, or `{ error }` in words a marketer can act on).
 */
export type Simulator = (step: SimulationStep, body: unknown, env: Bindings) => Promise<Response>;

/**
 * The simulator of an entry that can empty a phase with `emptyPhase`, or none: a `reset` is then
 * refused rather than run over the visitors already counted.
 */
export function simulator(emptyPhase?: PhaseEmptier): Simulator {
  return async function simulate(step, body, env) {
    const config = await configSource.load(env.FUNNEL_CONFIG, 0);
    if (step === 'start') {
      const parsed = startBody.safeParse(body);
      if (!parsed.success) return refuse(z.prettifyError(parsed.error));
      if (parsed.data.reset && !emptyPhase)
        return refuse('reset empties a phase only under npm start: run it without reset', 403);
      const run = planSimulation(config, parsed.data.experiment, parsed.data);
      if (!run.ok) return refuse(run.error, 422);
      return Response.json(await start(env, run.value, parsed.data, emptyPhase));
    }
    const parsed = batchBody.safeParse(body);
    if (!parsed.success) return refuse(z.prettifyError(parsed.error));
    const run = planSimulation(config, parsed.data.experiment, parsed.data);
    if (!run.ok) return refuse(run.error, 422);
    if (run.value.plan.phase !== parsed.data.phase) {
      return refuse(
        `"${parsed.data.experiment}" is in phase ${run.value.plan.phase} now, not ${parsed.data.phase}: its config changed during the run; run simulate again`,
        409,
      );
    }
    const written = await writeBatch(env, run.value, parsed.data);
    return written instanceof Response ? written : Response.json(written);
  };
}

async function start(
  env: Bindings,
  { plan, design }: PlannedRun,
  body: SimulationStart,
  emptyPhase: PhaseEmptier | undefined,
): Promise<SimulationStarted> {
  const now = Date.now();
  const days = body.days ?? defaultDays(design);
  if (body.reset) await emptyPhase?.(env, plan.experiment, plan.phase);
  return {
    experiment: plan.experiment,
    name: design.name,
    phase: plan.phase,
    configVersion: plan.configVersion,
    variants: Object.keys(design.names),
    control: design.control,
    shares: design.shares,
    priceTest: design.priceTest,
    countsFrom: plan.first,
    primaryMetric: design.primaryMetric,
    matureAfterDays: design.matureAfterDays,
    plannedPerArm: design.plannedPerArm,
    visitors: body.visitors ?? defaultVisitors(design, now, days),
    days,
    now,
    batchSize: BATCH_SIZE,
    matureShare: matureShare(now, days, design.matureAfterDays),
    startedAt: plan.startedAt,
    vitalsSampleRate: vitalsSampleRate(env),
  };
}

/**
 * Batch `batch` of the run: its visitors drawn from the seed and the batch's number (so a run's
 * numbers repeat whatever its batches' order), named afresh (a run repeated adds visitors).
 */
async function writeBatch(
  env: Bindings,
  { plan, vitals: factors }: PlannedRun,
  body: SimulationBatch,
): Promise<SimulationBatchAnswer | Response> {
  const count = Math.min(BATCH_SIZE, body.visitors - body.batch * BATCH_SIZE);
  if (count <= 0) return refuse(`batch ${body.batch} is past the run's ${body.visitors} visitors`);
  const batch = simulateBatch(plan, {
    count,
    window: exposureWindow(body.now, body.days),
    random: seededRandom(fnv1a(`${body.seed}:${body.batch}`)),
    newId: () => crypto.randomUUID(),
  });
  // A stream of its own, so a run's conversions are the same whatever the sample rate.
  const vitals = simulateVitals(batch.exposures, {
    random: seededRandom(fnv1a(`${body.seed}:${body.batch}:vitals`)),
    sampleRate: vitalsSampleRate(env),
    factors,
  });
  const shardCalls = await writeVisitors(env, batch, vitals);
  return {
    tallies: tallyBatch(Object.keys(plan.rates), batch, vitals),
    written: {
      exposures: batch.exposures.length,
      outcomes: batch.outcomes.length,
      purchases: batch.purchases.length,
      lifecycleEvents: batch.revenueEvents.length,
      vitals: vitals.length,
      declines: batch.declines.length,
      errors: batch.errors.length,
    },
    shardCalls,
  };
}

/**
 * The batch through the real writers, in the order real visitors' rows arrive: exposures (and
 * first visits) first, since a step, purchase, lifecycle event or vitals report counts only where
 * its visitor was exposed at or before it; then the steps, purchases and vitals; then the
 * lifecycle events, which follow the purchase they concern. Returns the shard calls made.
 */
async function writeVisitors(
  env: Bindings,
  batch: SimulatedBatch,
  vitals: readonly VitalsSample[],
): Promise<number> {
  const stores = experimentStores(env);
  const exposures = groupByShard(batch.exposures, (exposure) => exposure.visitorId);
  const visits = groupByShard(batch.firstVisits, (visit) => visit.visitorId);
  const touched = new Set([...exposures.keys(), ...visits.keys()]);
  // One call per shard for its visitors' exposures and first visits, as one page's are one;
  // then one for their page scripts' confirmations, as a real visitor's beacon is one more.
  await Promise.all(
    [...touched].map((index) =>
      shardStub(stores, index).recordExperimentExposures(
        exposures.get(index) ?? [],
        visits.get(index) ?? [],
      ),
    ),
  );
  await Promise.all(
    [...exposures].map(([index, group]) =>
      shardStub(stores, index).confirmExposures(
        group.map((exposure) => ({ visitorId: exposure.visitorId, until: exposure.at })),
      ),
    ),
  );
  await Promise.all([
    recordOutcomes(stores, batch.outcomes),
    recordPurchases(stores, batch.purchases),
    recordVitals(stores, vitals),
    recordDeclines(stores, batch.declines),
    recordErrors(stores, batch.errors),
  ]);
  await applyToExperiments(env, batch.revenueEvents);
  const shardsOf = (items: readonly { visitorId: string }[]) =>
    groupByShard(items, (item) => item.visitorId).size;
  return (
    touched.size +
    exposures.size +
    shardsOf(batch.outcomes) +
    shardsOf(batch.purchases) +
    shardsOf(vitals) +
    shardsOf(batch.declines) +
    shardsOf(batch.errors) +
    shardsOf(batch.revenueEvents)
  );
}
