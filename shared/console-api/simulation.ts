import type { VitalMetric } from '../analytics/vitals';

/**
 * The simulator (worker/simulation/simulator.ts, never in production): what
 * `npm run experiments -- simulate` and the console's Send test traffic send and get back.
 * `POST <door>/start` a SimulationStart, answered SimulationStarted; then each
 * `POST <door>/batch` a SimulationBatch, answered SimulationBatchAnswer; a refusal is
 * `{ error }` in words a marketer can act on.
 *
 * SIMULATE_PATH: the development entry's door, for the CLI and the MCP server under `npm start`
 * (worker/dev/simulate-route.ts).
 */
export const SIMULATE_PATH = '/__dev/experiments/simulate';

/**
 * The console's door, in development and on staging, behind the console's Access check
 * (worker/console/routes.ts): the console's Send test traffic.
 */
export const CONSOLE_SIMULATE_PATH = '/console/api/simulate';

/**
 * The steps a visitor takes in funnel order, then the upsell: a share of buyers at each screen
 * selling after the main purchase that their flow has (the upsell, the guide).
 */
export const SIMULATED_STEPS = ['lookup', 'signup', 'checkout', 'purchase', 'upsell'] as const;
export type SimulatedStep = (typeof SIMULATED_STEPS)[number];
export type StepRates = Record<SimulatedStep, number>;
/** `--rates` as given: per variant key, the steps it sets. */
export type RateOverrides = Record<string, Partial<StepRates>>;

/**
 * What goes wrong for a variant's visitors (`--harm`, the console's Send test traffic), as a
 * guarded ramp's guardrails read it: `declines`, the share of those who reach the checkout whose
 * card is declined (they do not buy); `errors`, the share of exposed visitors whose page's script
 * fails (a client error). None by default.
 */
export const HARMS = ['declines', 'errors'] as const;
export type Harm = Record<(typeof HARMS)[number], number>;
export type HarmOverrides = Record<string, Partial<Harm>>;

/** `--vitals` as given: per variant key, each metric's change in percent (+10 is 10 % slower). */
export type VitalsShifts = Record<string, Partial<Record<VitalMetric, number>>>;

/** `start`: the run asked for; null: the worker's default. */
export interface SimulationStart {
  /** Null: the split. */
  experiment: string | null;
  visitors: number | null;
  days: number | null;
  rates: RateOverrides;
  vitals: VitalsShifts;
  harm?: HarmOverrides;
  reset: boolean;
}

/** `batch`: one batch of the run `start` answered, drawn from `seed`. */
export interface SimulationBatch {
  experiment: string;
  phase: number;
  rates: RateOverrides;
  vitals: VitalsShifts;
  harm?: HarmOverrides;
  seed: number;
  visitors: number;
  days: number;
  /** Epoch ms: every batch of a run shares the start's window. */
  now: number;
  batch: number;
}

/** What `start` answers: the run as it will be, defaults filled in. */
export interface SimulationStarted {
  experiment: string;
  name: string;
  phase: number;
  configVersion: string;
  variants: string[];
  control: string;
  /** The share of its visitors each variant draws. */
  shares: Record<string, number>;
  priceTest: boolean;
  /**
   * The first step counted after exposure; null: none. `upsell`: the visitors are buyers of a
   * main plan, exposed when the upsell opened, and the planned sample counts them.
   */
  countsFrom: SimulatedStep | null;
  primaryMetric: string;
  matureAfterDays: number;
  plannedPerArm: number;
  visitors: number;
  days: number;
  now: number;
  batchSize: number;
  /** Of the run's visitors, the share the mature view counts at `now`. */
  matureShare: number;
  /** When the experiment started (ISO), if the config says. */
  startedAt: string | null;
  /** The share of its visitors whose field vitals are written: the worker's VITALS_SAMPLE_RATE. */
  vitalsSampleRate: number;
}

/** What a `batch` answers: what it added per variant, and what it cost. */
export interface SimulationBatchAnswer {
  tallies: Record<string, VariantTally>;
  written: {
    exposures: number;
    outcomes: number;
    purchases: number;
    lifecycleEvents: number;
    /** Declined payments and pages whose script failed (`harm`). */
    declines: number;
    errors: number;
    /** Visitors whose page's field vitals were written. */
    vitals: number;
  };
  /** Calls to shards: the requests a deployed worker would pay for. */
  shardCalls: number;
}

/** What a batch adds to each variant: the run's summary, added up by the command. */
export interface VariantTally {
  exposed: number;
  lookup: number;
  signup: number;
  checkout: number;
  purchase: number;
  upsell: number;
  /** First payments, cents of SIMULATED_CURRENCY. */
  paidMinor: number;
  renewals: number;
  refunds: number;
  /** Renewals that failed, and those paid afterwards (recovered); cancellations. */
  renewalFailures: number;
  recovered: number;
  cancellations: number;
  /** First payments, renewals less refunds and chargebacks. */
  netMinor: number;
  /** Visitors whose page's field vitals were written (simulated-vitals.ts). */
  vitals: number;
  /** Declined payments and visitors whose page's script failed (Harm). */
  declined: number;
  errors: number;
}

/** What a run's batches wrote, added up variant by variant (each batch answers its own). */
export function addTallies(
  into: Record<string, VariantTally>,
  more: Record<string, VariantTally>,
): Record<string, VariantTally> {
  const sum: Record<string, VariantTally> = { ...into };
  for (const [variant, tally] of Object.entries(more)) {
    const before = sum[variant];
    sum[variant] = before
      ? (Object.fromEntries(
          Object.entries(tally).map(([key, value]) => [
            key,
            value + before[key as keyof VariantTally],
          ]),
        ) as unknown as VariantTally)
      : tally;
  }
  return sum;
}
