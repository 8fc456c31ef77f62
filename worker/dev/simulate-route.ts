import { SIMULATE_PATH } from '../../shared/console-api/simulation';
import { SPLIT_EXPERIMENT_ID } from '../../shared/experiments';
import type { Bindings } from '../env';
import { isDevelopment } from '../environment';
import { EXPERIMENT_SHARD_COUNT, shardName } from '../experiments/assignment/assign';
import { type Simulator, simulator } from '../simulation/simulator';
import { emptyLegacyPhase } from './empty-legacy-phase';
import type { DevelopmentExperimentShard } from './experiment-shard';

/**
 * The development entry's simulator (worker/simulation/simulator.ts), which can empty a phase
 * (`reset`) through its shards' development method (./experiment-shard.ts): the console's Send
 * test traffic under `npm start` (passed to createApp in worker/dev.ts), and the door of
 * `npm run experiments -- simulate` and the MCP server, `POST /__dev/experiments/simulate/start`
 * and `/batch` (simulateRoute). That door answers only when ENVIRONMENT is exactly
 * 'development': anywhere else it is 404, so no one can write made-up results into a deployed
 * store through it.
 */
export const developmentSimulator: Simulator = simulator(emptyPhase);

/** The phase's rows gone from every shard, and for the split from EVENTS_DB's tables too. */
async function emptyPhase(env: Bindings, experiment: string, phase: number): Promise<void> {
  const shards =
    env.EXPERIMENT_SHARDS as unknown as DurableObjectNamespace<DevelopmentExperimentShard>;
  await Promise.all(
    Array.from({ length: EXPERIMENT_SHARD_COUNT }, (_, index) =>
      shards.get(shards.idFromName(shardName(index))).emptyExperimentPhase(experiment, phase),
    ),
  );
  if (experiment === SPLIT_EXPERIMENT_ID) await emptyLegacyPhase(env.EVENTS_DB, phase);
}

const refuse = (error: string, status = 400) => Response.json({ error }, { status });

export async function simulateRoute(request: Request, env: Bindings): Promise<Response | null> {
  const path = new URL(request.url).pathname;
  if (!path.startsWith(`${SIMULATE_PATH}/`)) return null;
  const step = path.slice(SIMULATE_PATH.length + 1);
  if (!isDevelopment(env) || request.method !== 'POST' || (step !== 'start' && step !== 'batch')) {
    return new Response('Not found', { status: 404 });
  }
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return refuse('the body is not JSON');
  }
  return developmentSimulator(step, body, env);
}
