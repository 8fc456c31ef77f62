import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONSOLE_API, type ConsoleState } from '../../../shared/console-api/config';
import {
  CONSOLE_SIMULATE_PATH,
  type SimulationBatch,
  type SimulationBatchAnswer,
  type SimulationStart,
  type SimulationStarted,
} from '../../../shared/console-api/simulation';
import { ACCESS_TOKEN_HEADER, accessKeySets } from '../../../worker/access/console-access';
import { SIMULATION_CALLS_PER_AUTHOR } from '../../../worker/console/routes';
import { simulator } from '../../../worker/simulation/simulator';
import stagingWorker from '../../../worker/staging';
import {
  emptyExperiments,
  PRICE_TEST,
  putExperiments,
  shardRows,
} from '../experiments/experiment-fixtures';
import { ORIGIN, productionApp, putConfig } from '../fetch-app';
import { AUD, accessClaims, NOW_MS, type Signer, TEAM, teamAndStranger } from './access-tokens';

/**
 * Send test traffic on staging (docs/experiments.md, "Simulated visitors"): the console's door to
 * the simulator (worker/console/routes.ts), which the staging entry (worker/staging.ts) gives
 * production's app. Behind the console's Access check and write guards, where the guardrails are
 * rehearsed only, and never able to empty a phase there; production's app has no simulator.
 */

const STAGING = { ENVIRONMENT: 'staging', ACCESS_TEAM_DOMAIN: TEAM, ACCESS_AUD: AUD };
const SAME_ORIGIN_JSON = {
  'Sec-Fetch-Site': 'same-origin',
  Origin: ORIGIN,
  'Content-Type': 'application/json',
};
const START: SimulationStart = {
  experiment: 'pw-price',
  visitors: 300,
  days: 1,
  rates: {},
  vitals: {},
  harm: { cheap: { declines: 0.5 } },
  reset: false,
};

let team: Signer;

beforeAll(async () => {
  ({ team } = await teamAndStranger());
});
beforeEach(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  await emptyExperiments();
  await putExperiments({ 'pw-price': PRICE_TEST });
});
afterEach(async () => {
  await putConfig('experiments', { version: 'none', experiments: {} });
  vi.restoreAllMocks();
});

/**
 * An app as the staging entry builds it (with a simulator), or production's, over `bindings`,
 * asked by `email` through Access.
 */
function consoleOf(
  bindings: Record<string, string>,
  withSimulator = true,
  email = 'ada@example.com',
) {
  const certs = (async () => Response.json({ keys: [team.jwk] })) as unknown as typeof fetch;
  const fetchApp = productionApp(
    {
      accessKeys: accessKeySets({ fetch: certs }),
      now: () => NOW_MS,
      ...(withSimulator ? { simulator: simulator() } : {}),
    },
    bindings,
  );
  return async (path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetchApp(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        ...(body === undefined ? {} : SAME_ORIGIN_JSON),
        [ACCESS_TOKEN_HEADER]: await team.sign(accessClaims({ email })),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
}

const exposedRows = async () =>
  (await shardRows<{ n: number }>('SELECT COUNT(*) AS n FROM xp_exposures')).reduce(
    (total, row) => total + row.n,
    0,
  );

describe('Send test traffic on staging', () => {
  it('writes a run through the console’s door for a marketer Access let in, and says so in the state', async () => {
    const open = consoleOf(STAGING);
    const state = (await (await open(CONSOLE_API.state)).json()) as ConsoleState;
    expect(state).toMatchObject({ rehearsal: true, simulation: true });
    const start = await open(`${CONSOLE_SIMULATE_PATH}/start`, START);
    expect(start.status, await start.clone().text()).toBe(200);
    const started = (await start.json()) as SimulationStarted;
    expect(started).toMatchObject({ experiment: 'pw-price', visitors: 300, days: 1 });
    const batch: SimulationBatch = {
      experiment: started.experiment,
      phase: started.phase,
      rates: {},
      vitals: {},
      harm: START.harm,
      seed: 1,
      visitors: started.visitors,
      days: started.days,
      now: started.now,
      batch: 0,
    };
    const written = await open(`${CONSOLE_SIMULATE_PATH}/batch`, batch);
    expect(written.status).toBe(200);
    const answer = (await written.json()) as SimulationBatchAnswer;
    expect(answer.written.exposures).toBe(300);
    // The declines asked of the variant: what a guarded ramp's guardrail reads.
    expect(answer.written.declines).toBeGreaterThan(0);
    expect(await exposedRows()).toBe(300);
  });

  it('refuses a reset (staging cannot empty a phase), another site, and no Access, writing nothing', async () => {
    const open = consoleOf(STAGING);
    const reset = await open(`${CONSOLE_SIMULATE_PATH}/start`, { ...START, reset: true });
    expect(reset.status).toBe(403);
    expect(await reset.json()).toEqual({
      error: 'reset empties a phase only under npm start: run it without reset',
    });
    const crossSite = await open(`${CONSOLE_SIMULATE_PATH}/start`, START, {
      'Sec-Fetch-Site': 'cross-site',
    });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toEqual({ ok: false, error: 'cross_origin' });
    const unknownStep = await open(`${CONSOLE_SIMULATE_PATH}/reset`, START);
    expect(unknownStep.status).toBe(404);
    const withoutAccess = productionApp({ simulator: simulator() }, STAGING);
    const refused = await withoutAccess(`${CONSOLE_SIMULATE_PATH}/start`, {
      method: 'POST',
      headers: SAME_ORIGIN_JSON,
      body: JSON.stringify(START),
    });
    expect(refused.status).toBe(401);
    expect(await exposedRows()).toBe(0);
  });

  it('stops one marketer’s flood of calls at its limit, with Retry-After, writing nothing more', async () => {
    const open = consoleOf(STAGING, true, 'flood@example.com');
    const { limit } = SIMULATION_CALLS_PER_AUTHOR;
    // Starts plan a run and write nothing: the limit counts them as it counts batches.
    for (let call = 0; call < limit; call++) {
      const start = await open(`${CONSOLE_SIMULATE_PATH}/start`, START);
      expect(start.status, `call ${call + 1}`).toBe(200);
    }
    const batch = await open(`${CONSOLE_SIMULATE_PATH}/batch`, {
      experiment: 'pw-price',
      phase: 1,
      rates: {},
      vitals: {},
      seed: 1,
      visitors: 300,
      days: 1,
      now: Date.now(),
      batch: 0,
    } satisfies SimulationBatch);
    expect(batch.status).toBe(429);
    expect(await batch.json()).toEqual({ ok: false, error: 'rate_limited' });
    expect(Number(batch.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await exposedRows()).toBe(0);
    // Another marketer is not held up by it.
    const other = await consoleOf(
      STAGING,
      true,
      'grace@example.com',
    )(`${CONSOLE_SIMULATE_PATH}/start`, START);
    expect(other.status).toBe(200);
  });

  it('is no door in production, even in an app that carries a simulator', async () => {
    for (const open of [
      consoleOf({ ...STAGING, ENVIRONMENT: 'production' }),
      consoleOf(STAGING, false),
    ]) {
      const state = (await (await open(CONSOLE_API.state)).json()) as ConsoleState;
      expect(state.simulation).toBeUndefined();
      const start = await open(`${CONSOLE_SIMULATE_PATH}/start`, START);
      expect(start.status).toBe(404);
    }
    expect(await exposedRows()).toBe(0);
  });
});

describe('the staging entry', () => {
  it('gives the console a simulator that cannot empty a phase', async () => {
    // In development, where the console needs no Access, the entry's own app answers.
    const bindings = { ...env, ENVIRONMENT: 'development' };
    const ask = (path: string, body?: unknown) =>
      stagingWorker.fetch(
        new Request(`${ORIGIN}${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: body === undefined ? {} : SAME_ORIGIN_JSON,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
        bindings,
        createExecutionContext(),
      );
    const state = (await (await ask(CONSOLE_API.state)).json()) as ConsoleState;
    expect(state.simulation).toBe(true);
    const reset = await ask(`${CONSOLE_SIMULATE_PATH}/start`, { ...START, reset: true });
    expect(reset.status).toBe(403);
  });
});
