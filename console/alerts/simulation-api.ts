import {
  SIMULATE_PATH,
  type SimulationBatch,
  type SimulationBatchAnswer,
  type SimulationStart,
  type SimulationStarted,
} from '../../shared/console-api/simulation';

/** The simulator's answer, or what it refused with, in its own words (development only). */
export type SimulatorAnswer<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * One call to the local simulator (worker/dev/simulate-route.ts), as `npm run experiments --
 * simulate` makes them: it answers `{ error }` in words a marketer can act on (an experiment
 * still a draft, a variant it lacks), which are shown as they are.
 */
async function simulatorCall<T>(
  step: 'start' | 'batch',
  body: object,
): Promise<SimulatorAnswer<T>> {
  let response: Response;
  try {
    response = await fetch(`${SIMULATE_PATH}/${step}`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, message: 'The worker could not be reached. Is npm start running?' };
  }
  const answer = (await response.json().catch(() => null)) as { error?: unknown } | null;
  if (response.ok && answer !== null) return { ok: true, value: answer as T };
  return {
    ok: false,
    message:
      typeof answer?.error === 'string'
        ? answer.error
        : `The simulator answered HTTP ${response.status}: it runs only under npm start.`,
  };
}

export const startSimulation = (body: SimulationStart) =>
  simulatorCall<SimulationStarted>('start', body);

export const simulateBatch = (body: SimulationBatch) =>
  simulatorCall<SimulationBatchAnswer>('batch', body);
