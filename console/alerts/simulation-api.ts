import {
  CONSOLE_SIMULATE_PATH,
  type SimulationBatch,
  type SimulationBatchAnswer,
  type SimulationStart,
  type SimulationStarted,
} from '../../shared/console-api/simulation';
import { failureText, isCallFailure } from '../kit/error-texts';

/** The simulator's answer, or what it refused with, in its own words (development and staging). */
export type SimulatorAnswer<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * One call to the worker's simulator through the console's door (worker/console/routes.ts), as
 * `npm run experiments -- simulate` makes them through its own: it answers `{ error }` in words a
 * marketer can act on (an experiment still a draft, a variant it lacks), which are shown as they
 * are.
 */
async function simulatorCall<T>(
  step: 'start' | 'batch',
  body: object,
): Promise<SimulatorAnswer<T>> {
  let response: Response;
  try {
    response = await fetch(`${CONSOLE_SIMULATE_PATH}/${step}`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    return {
      ok: false,
      message: 'The worker could not be reached. Check the connection and try again.',
    };
  }
  const answer = (await response.json().catch(() => null)) as {
    ok?: unknown;
    error?: unknown;
  } | null;
  if (response.ok && answer !== null) return { ok: true, value: answer as T };
  // The console's own refusal (its Access or write guards): `{ ok: false, error: <code> }`.
  if (answer?.ok === false && isCallFailure(answer.error))
    return { ok: false, message: failureText(answer.error) };
  return {
    ok: false,
    message:
      typeof answer?.error === 'string'
        ? answer.error
        : `The simulator answered HTTP ${response.status}: it runs only under npm start and on staging.`,
  };
}

export const startSimulation = (body: SimulationStart) =>
  simulatorCall<SimulationStarted>('start', body);

export const simulateBatch = (body: SimulationBatch) =>
  simulatorCall<SimulationBatchAnswer>('batch', body);
