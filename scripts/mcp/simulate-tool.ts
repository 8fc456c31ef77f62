import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { VITAL_METRICS } from '../../shared/analytics/vitals';
import {
  addTallies,
  HARMS,
  SIMULATE_PATH,
  SIMULATED_STEPS,
  type SimulationBatch,
  type SimulationStart,
  type SimulationStarted,
  type VariantTally,
} from '../../shared/console-api/simulation';
import type { ApiAnswer, ConsoleCall } from './console-client';
import { toolResult } from './tool-result';

/**
 * `simulate`: simulated visitors of an experiment written by a local worker's development route
 * (worker/dev/simulate-route.ts), as `npm run experiments -- simulate` writes them: `start` plans
 * the run, then each `batch` writes up to the start's batchSize visitors, one after the other.
 * Development only: a deployed worker has no such route and answers 404.
 */

/** Bounds one call, so an agent cannot keep the worker writing for minutes. */
const MAX_VISITORS = 100_000;

const share = z.number().min(0).max(1);

const simulationShape = {
  experiment: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe("An experiment's id of the live config; absent: the split"),
  visitors: z
    .number()
    .int()
    .min(1)
    .max(MAX_VISITORS)
    .optional()
    .describe("absent: the worker's default"),
  days: z
    .number()
    .int()
    .min(1)
    .max(90)
    .optional()
    .describe('Over how many past days; absent: the default'),
  rates: z
    .record(z.string(), z.partialRecord(z.enum(SIMULATED_STEPS), share))
    .default({})
    .describe('Per variant key, the share of visitors reaching each step (0-1)'),
  vitals: z
    .record(z.string(), z.partialRecord(z.enum(VITAL_METRICS), z.number()))
    .default({})
    .describe('Per variant key, each page-speed metric change in percent (+10: 10 % slower)'),
  harm: z
    .record(z.string(), z.partialRecord(z.enum(HARMS), share))
    .optional()
    .describe(
      "Per variant key, the share of visitors whose payment is declined or page's script fails",
    ),
  reset: z.boolean().default(false).describe("Empty the experiment's phase first"),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
};

type Simulation = z.infer<z.ZodObject<typeof simulationShape>>;

export function registerSimulateTool(server: McpServer, call: ConsoleCall): void {
  server.registerTool(
    'simulate',
    {
      description:
        "Development only (npm start): fills an experiment's results with simulated visitors, written through the worker's own code, so results and their segments have something to show. Writes local test data, never a deployed worker's.",
      inputSchema: simulationShape,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async (simulation) => toolResult(await simulate(call, simulation)),
  );
}

async function simulate(call: ConsoleCall, simulation: Simulation): Promise<ApiAnswer> {
  const { rates, vitals, harm } = simulation;
  const start: SimulationStart = {
    experiment: simulation.experiment ?? null,
    visitors: simulation.visitors ?? null,
    days: simulation.days ?? null,
    rates,
    vitals,
    harm,
    reset: simulation.reset,
  };
  const started = await call('POST', `${SIMULATE_PATH}/start`, start);
  if (!started.ok && started.status === 404) return { ...started, error: 'not_development' };
  if (!started.ok) return started;
  const run = started.body as SimulationStarted;
  const seed = simulation.seed ?? crypto.getRandomValues(new Uint32Array(1))[0] ?? 0;
  let tallies: Record<string, VariantTally> = {};
  const batches = Math.ceil(run.visitors / run.batchSize);
  for (let batch = 0; batch < batches; batch++) {
    const body: SimulationBatch = {
      ...{ experiment: run.experiment, phase: run.phase, rates, vitals, harm, seed },
      ...{ visitors: run.visitors, days: run.days, now: run.now, batch },
    };
    const written = await call('POST', `${SIMULATE_PATH}/batch`, body);
    if (!written.ok) return written;
    tallies = addTallies(
      tallies,
      (written.body as { tallies: Record<string, VariantTally> }).tallies,
    );
  }
  return { ok: true, status: 200, body: { run, seed, tallies } };
}
