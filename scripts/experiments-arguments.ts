import {
  CHALLENGER_RATES,
  CONTROL_RATES,
  type RateOverrides,
  SIMULATED_STEPS,
  type SimulatedStep,
  type StepRates,
} from '../worker/dev/simulated-visitors';
import { type ParsedArgs, parseCount, parseLocalArgs, readArgs } from './cli';

/** The arguments of `npm run experiments` (experiments-cli.ts). */

const MAX_VISITORS = 1_000_000;
const MAX_DAYS = 90;
const MAX_SEED = 2 ** 32 - 1;
/** `npm start`'s port (package.json: wrangler dev --port 8787). */
export const DEFAULT_PORT = 8787;

const ratesText = (rates: StepRates) =>
  SIMULATED_STEPS.map((name) => `${name}=${rates[name]}`).join(',');

export const EXPERIMENTS_CLI_USAGE = `Usage: npm run experiments -- simulate [<experiment id>] [options]

Fills an experiment of the live config (the split when no id is given) with simulated visitors,
through the worker npm start runs: their exposures, with segments (country, source, platform,
in-app browser, language, route), spread over the last days; their steps and purchases (each
variant's own plans at the catalogue's USD prices); and what the product API reports afterwards
(renewals, refunds, chargebacks), written by the code real visitors' go through, a batch of
visitors per request. Then the console's Results show them, segments and mature view included.
Adds to what the phase holds; --reset empties the phase first. npm start must be running.

Options:
  --visitors <n>      exposed visitors to simulate (default 6000; for a price test, enough for
                      every variant's mature sample to reach the planned size; at most ${MAX_VISITORS})
  --days <n>          their exposures spread over the last n days, today included (default: the
                      mature view's wait, the longest intro + 3 days, plus two weeks; at most ${MAX_DAYS})
  --rates <rates>     per-variant rates (below)
  --seed <n>          seed of the draws, to repeat a run's numbers (default: a random one, printed)
  --reset             first delete every exposure, purchase and total of the experiment's phase
                      (simulated or not)
  --port <n>          the port npm start serves on (default ${DEFAULT_PORT})
  --help              show this text

Rates: "<variant>:<name>=<share>,...;<variant>:..." where lookup, signup, checkout and purchase
are shares of the experiment's exposed visitors, each at most the one before (a buyer reached
checkout, signed up and started the lookup), and upsell is the share of buyers who also buy an
upsell. Only the steps after the experiment's trigger can be set (a paywall test's visitors
signed up before it exposed them). What is not given keeps its default, for a test exposing on
the first screen (a later trigger's are these divided by the share reaching it):
  the control      ${ratesText(CONTROL_RATES)}
  other variants   ${ratesText(CHALLENGER_RATES)}
Example: --rates "default:purchase=0.05;lp1ch2:signup=0.3,purchase=0.06"`;

export interface SimulateCommand {
  name: 'simulate';
  /** Null: the split. */
  experiment: string | null;
  /** Null: the worker's default for the experiment. */
  visitors: number | null;
  days: number | null;
  /** Null: draw one and print it. */
  seed: number | null;
  rates: RateOverrides;
  reset: boolean;
  port: number;
}

const SIMULATE_OPTIONS = {
  visitors: { type: 'string' },
  days: { type: 'string' },
  rates: { type: 'string' },
  seed: { type: 'string' },
  reset: { type: 'boolean' },
  port: { type: 'string' },
} as const;

const readSimulateArgs = (argv: readonly string[]) => readArgs(argv, SIMULATE_OPTIONS);

/**
 * Only the local worker is ever written: a synthetic experiment in the deployed store would be
 * read as a real one.
 */
export function parseExperimentsArgs(argv: readonly string[]): ParsedArgs<SimulateCommand> {
  const parsed = readSimulateArgs(argv);
  if (!parsed.ok) return { kind: 'usage-error', error: parsed.error };
  const { values, positionals } = parsed;
  // The options every tool takes are left to cli.ts, so they are read and refused alike.
  const args = parseLocalArgs(
    [
      ...(values.help ? ['--help'] : []),
      ...(values.remote ? ['--remote'] : []),
      ...(values.env === undefined ? [] : [`--env=${values.env}`]),
      '--',
      ...positionals,
    ],
    'simulate writes only local state; a synthetic experiment must never reach the deployed store',
  );
  if (args.kind !== 'command') return args;
  const { name, rest, options } = args;
  if (name !== 'simulate') return { kind: 'usage-error', error: `unknown command "${name}"` };
  if (values['persist-to'] !== undefined) {
    return {
      kind: 'usage-error',
      error:
        '--persist-to: simulate writes through the running worker, which keeps its own state; name its port with --port',
    };
  }
  if (rest.length > 1) {
    return { kind: 'usage-error', error: 'simulate takes one experiment id at most' };
  }
  const [experiment = null] = rest;
  if (experiment !== null && !/^[a-z0-9][a-z0-9_-]{0,99}$/.test(experiment)) {
    return {
      kind: 'usage-error',
      error: `"${experiment}" is not an experiment id (lower-case letters, digits, - and _, as the console shows it)`,
    };
  }

  const numbers = readNumbers(values);
  if (!numbers.ok) return { kind: 'usage-error', error: numbers.error };

  return {
    kind: 'run',
    command: {
      name: 'simulate',
      experiment,
      visitors: numbers.visitors,
      days: numbers.days,
      seed: numbers.seed,
      rates: numbers.rates,
      reset: values.reset ?? false,
      port: numbers.port,
    },
    options,
  };
}

/** The numbers simulate takes, each checked, or the first one refused. */
function readNumbers(
  values: Extract<ReturnType<typeof readSimulateArgs>, { ok: true }>['values'],
):
  | ({ ok: true } & Pick<SimulateCommand, 'visitors' | 'days' | 'seed' | 'port' | 'rates'>)
  | { ok: false; error: string } {
  const count = (option: 'visitors' | 'days', max: number) => {
    const text = values[option];
    if (text === undefined) return { ok: true as const, count: null };
    const parsedCount = parseCount(text, { min: 1, max });
    return parsedCount.ok
      ? parsedCount
      : { ok: false as const, error: `--${option}: ${parsedCount.error}` };
  };
  const visitors = count('visitors', MAX_VISITORS);
  if (!visitors.ok) return visitors;
  const days = count('days', MAX_DAYS);
  if (!days.ok) return days;
  let seed: number | null = null;
  if (values.seed !== undefined) {
    const parsedSeed = parseCount(values.seed, { min: 0, max: MAX_SEED });
    if (!parsedSeed.ok) return { ok: false, error: `--seed: ${parsedSeed.error}` };
    seed = parsedSeed.count;
  }
  let port = DEFAULT_PORT;
  if (values.port !== undefined) {
    const parsedPort = parseCount(values.port, { min: 1, max: 65535 });
    if (!parsedPort.ok) return { ok: false, error: `--port: ${parsedPort.error}` };
    port = parsedPort.count;
  }
  const rates =
    values.rates === undefined ? { ok: true as const, value: {} } : parseRates(values.rates);
  if (!rates.ok) return { ok: false, error: `--rates: ${rates.error}` };
  return {
    ok: true,
    visitors: visitors.count,
    days: days.count,
    seed,
    port,
    rates: rates.value,
  };
}

/** A share: 0, 1, or a decimal between them (no percent sign, no exponent). */
const SHARE = /^(0(\.\d+)?|\.\d+|1(\.0+)?)$/;

/**
 * `<variant>:<name>=<share>,...;<variant>:...`: the shape is checked here; whether the variants
 * exist and the steps nest is checked by the worker against the experiment
 * (worker/dev/simulated-visitors.ts resolveRates).
 */
export function parseRates(
  text: string,
): { ok: true; value: RateOverrides } | { ok: false; error: string } {
  const overrides: RateOverrides = {};
  const groups = text.split(';').map((group) => group.trim());
  for (const group of groups.filter((g) => g !== '')) {
    const colon = group.indexOf(':');
    const variant = group.slice(0, colon).trim();
    if (colon < 0 || variant === '') {
      return { ok: false, error: `"${group}" is not <variant>:<name>=<share>,...` };
    }
    if (Object.hasOwn(overrides, variant)) {
      return { ok: false, error: `variant "${variant}" is given twice` };
    }
    const rates: Partial<StepRates> = {};
    for (const pair of group.slice(colon + 1).split(',')) {
      const [name = '', share, ...extra] = pair.split('=').map((part) => part.trim());
      if (!(SIMULATED_STEPS as readonly string[]).includes(name)) {
        return {
          ok: false,
          error: `${variant}: "${name}" is not one of ${SIMULATED_STEPS.join(', ')}`,
        };
      }
      if (share === undefined || extra.length > 0 || !SHARE.test(share)) {
        return {
          ok: false,
          error: `${variant}: ${name} must be a share from 0 to 1 such as 0.05, not "${share ?? ''}"`,
        };
      }
      if (Object.hasOwn(rates, name)) {
        return { ok: false, error: `${variant}: ${name} is given twice` };
      }
      rates[name as SimulatedStep] = Number(share);
    }
    overrides[variant] = rates;
  }
  if (Object.keys(overrides).length === 0) {
    return { ok: false, error: 'no rates given' };
  }
  return { ok: true, value: overrides };
}
