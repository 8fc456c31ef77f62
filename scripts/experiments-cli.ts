import { consolePath } from '../shared/console-api/pages';
import {
  addTallies,
  SIMULATE_PATH,
  type SimulationBatch,
  type SimulationBatchAnswer,
  type SimulationStart,
  type SimulationStarted,
  type VariantTally,
} from '../shared/console-api/simulation';
import { SPLIT_EXPERIMENT_ID } from '../shared/experiments';
import { EXIT_OK, fail, runTool } from './cli';
import {
  EXPERIMENTS_CLI_USAGE,
  parseExperimentsArgs,
  type SimulateCommand,
} from './experiments-arguments';
import { formatTallies, matureNote, vitalsNote } from './experiments-simulation';
import { HOLDOUT_USAGE, parseHoldoutArgs, runHoldout } from './holdout-command';
import { parseRampArgs, RAMP_CLI_USAGE, runRamp } from './ramp-cli';
import type { WranglerRunner } from './wrangler-cli';

/**
 * `npm run experiments -- holdout start|analysis|end` moves the holdout (holdout-command.ts).
 *
 * `npm run experiments -- simulate [<experiment id>]`: a simulated experiment in the local
 * stores, so that a newcomer sees full results (segments, mature revenue, a price test's
 * verdict) right after `npm start`. The visitors are drawn and written by the running worker's
 * development route (worker/dev/simulate-route.ts), through the experiment shards and the code
 * real visitors' rows go through: the shards, Durable Objects, are out of reach of wrangler's
 * platform proxy. This file asks for the run, then for its batches one after the other, and
 * prints what they added.
 */

/** Why the worker could not be asked, in a marketer's words. */
class Unreachable extends Error {}

/** The connection failures that mean no worker listens there, as Node's fetch names its cause. */
const NOTHING_LISTENS = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'EADDRNOTAVAIL']);

async function post<T>(origin: string, path: string, body: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${origin}${SIMULATE_PATH}/${path}`, {
      method: 'POST',
      // A connection of its own for each batch: one kept from the batch before, which workerd
      // may close as the next is written ("other side closed"), once lost a batch of a loaded
      // run, and the run with it.
      headers: { 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify(body),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if (cause?.code && NOTHING_LISTENS.has(cause.code)) {
      throw new Unreachable(
        `nothing answers on ${origin}: run npm start in another terminal first (or name it with --url)`,
      );
    }
    throw new Unreachable(
      `the worker on ${origin} dropped the connection before answering (${cause?.message ?? String(error)}): run the command again`,
    );
  }
  if (response.status === 404) {
    throw new Unreachable(
      `the worker on ${origin} has no simulation route: simulate needs npm start's development worker (ENVIRONMENT=development)`,
    );
  }
  const answer = (await response.json().catch(() => null)) as T | { error?: string } | null;
  if (!response.ok) {
    const error = (answer as { error?: string } | null)?.error;
    throw new Error(error ?? `the worker answered HTTP ${response.status}`);
  }
  return answer as T;
}

async function simulate(command: SimulateCommand): Promise<number> {
  const origin = command.origin;
  const began = performance.now();
  const startBody: SimulationStart = {
    experiment: command.experiment,
    visitors: command.visitors,
    days: command.days,
    rates: command.rates,
    vitals: command.vitals,
    harm: command.harm,
    reset: command.reset,
  };
  const started = await post<SimulationStarted>(origin, 'start', startBody);
  const seed = command.seed ?? crypto.getRandomValues(new Uint32Array(1))[0]!;
  const batches = Math.ceil(started.visitors / started.batchSize);
  let tallies: Record<string, VariantTally> = {};
  let shardCalls = 0;
  for (let batch = 0; batch < batches; batch++) {
    const body: SimulationBatch = {
      experiment: started.experiment,
      phase: started.phase,
      rates: command.rates,
      vitals: command.vitals,
      harm: command.harm,
      seed,
      visitors: started.visitors,
      days: started.days,
      now: started.now,
      batch,
    };
    const answer = await post<SimulationBatchAnswer>(origin, 'batch', body);
    tallies = addTallies(tallies, answer.tallies);
    shardCalls += answer.shardCalls;
  }
  const seconds = ((performance.now() - began) / 1000).toFixed(1);

  const held = command.reset ? 'the phase was emptied first' : 'added to what the phase held';
  console.log(
    `Simulated ${started.visitors} visitors of "${started.experiment}" (${started.name}) in phase ${started.phase} (config ${started.configVersion}) over the last ${started.days} day(s), seed ${seed}; ${held}:`,
  );
  console.log(formatTallies(tallies, started.variants));
  console.log(`\n${matureNote(started)}`);
  console.log(vitalsNote(started, command.vitals));
  console.log(
    `${batches + 1} requests to the worker, ${shardCalls} calls to the experiment shards, ${seconds} s.`,
  );
  // The split has no card: its results are the console's Results page; an experiment's are on
  // its own page (shared/console-api/pages.ts).
  const resultsPage =
    started.experiment === SPLIT_EXPERIMENT_ID
      ? consolePath('results')
      : consolePath('experiments', started.experiment);
  const resultsUrl = new URL(resultsPage, command.origin.replace('127.0.0.1', 'localhost')).href;
  console.log(`\nThe results of ${started.name}: ${resultsUrl}`);
  return EXIT_OK;
}

/**
 * The CLI on `argv` (the words after `npm run experiments --`): prints as the tool does and
 * returns its exit code. scripts/experiments.ts runs it as a process; tests call it in-process.
 */
export function runExperimentsCli(
  argv: readonly string[],
  wrangler?: WranglerRunner,
): Promise<number> {
  // `ramp …` publishes a guarded ramp's changes, local or remote (ramp-cli.ts).
  if (argv.find((word) => !word.startsWith('-')) === 'ramp')
    return runTool(argv, { usage: RAMP_CLI_USAGE, parseArgs: parseRampArgs, run: runRamp });
  // `holdout` is no experiment id (the holdout's own, reserved), so never simulate's argument.
  if (argv.includes('holdout')) {
    return runTool(argv, {
      usage: HOLDOUT_USAGE,
      parseArgs: parseHoldoutArgs,
      run: (command, options) => runHoldout(command, options, wrangler),
    });
  }
  return runTool(argv, {
    usage: EXPERIMENTS_CLI_USAGE,
    parseArgs: parseExperimentsArgs,
    run: async (command) => {
      try {
        return await simulate(command);
      } catch (error) {
        // runTool prints any other failure (the worker's refusal) as its one error line too.
        if (error instanceof Unreachable) return fail(error.message);
        throw error;
      }
    },
  });
}
