import { VITAL_METRICS } from '../shared/analytics/vitals';
import {
  HARMS,
  type HarmOverrides,
  type RateOverrides,
  SIMULATED_STEPS,
  type StepRates,
  type VitalsShifts,
} from '../shared/console-api/simulation';
import { CHALLENGER_RATES, CONTROL_RATES } from '../worker/simulation/simulated-visitors';
import { SIMULATED_VITALS, VITALS_SHIFT_RANGE } from '../worker/simulation/simulated-vitals';
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
       npm run experiments -- holdout <start|analysis|end> [options]   (holdout --help for more)
       npm run experiments -- ramp <command> <experiment id> (a guarded ramp; ramp --help)

Fills an experiment of the live config (the split when no id is given) with simulated visitors,
through the worker npm start runs: their exposures, with segments (country, source, platform,
in-app browser, language, route), spread over the last days; their steps and purchases (each
variant's own plans at the catalogue's USD prices); and what the product API reports afterwards
(renewals, refunds, chargebacks, failed renewals, recoveries, cancellations); and the field vitals (LCP, INP, CLS) of those in the worker's
vitals sample (its VITALS_SAMPLE_RATE, a tenth unless set), written by the code real visitors'
go through, a batch of visitors per request. Then the console's Results show them, segments,
mature view and page speed included.
Adds to what the phase holds; --reset empties the phase first. npm start must be running.

Options:
  --visitors <n>      exposed visitors to simulate (default 6000; for a price test, enough for
                      every variant's mature sample to reach the planned size; at most ${MAX_VISITORS})
  --days <n>          their exposures spread over the last n days, today included (default: the
                      mature view's wait, the longest intro + 3 days, plus two weeks; at most ${MAX_DAYS})
  --rates <rates>     per-variant rates (below)
  --vitals <changes>  per-variant field vitals, slower or faster than the others' (below)
  --harm <harm>       per-variant declined payments and failing page scripts (below)
  --seed <n>          seed of the draws, to repeat a run's numbers (default: a random one, printed)
  --reset             first delete every exposure, purchase and total of the experiment's phase
                      (simulated or not)
  --url <origin>      the worker to fill (default http://127.0.0.1:${DEFAULT_PORT}, npm start's)
  --port <n>          npm start's port on this machine, if not ${DEFAULT_PORT} (or give --url)
  --help              show this text

Rates: "<variant>:<name>=<share>,...;<variant>:..." where lookup, signup, checkout and purchase
are shares of the experiment's exposed visitors, each at most the one before (a buyer reached
checkout, signed up and started the lookup), and upsell is the share of buyers who also buy an
upsell. Only the steps after the experiment's trigger can be set (a paywall test's visitors
signed up before it exposed them). What is not given keeps its default, for a test exposing on
the first screen (a later trigger's are these divided by the share reaching it):
  the control      ${ratesText(CONTROL_RATES)}
  other variants   ${ratesText(CHALLENGER_RATES)}
Example: --rates "default:purchase=0.05;lp1ch2:signup=0.3,purchase=0.06"

Vitals: "<variant>:<metric>=<change>,...;<variant>:..." where the metric is lcp, inp or cls and
the change a percentage from ${VITALS_SHIFT_RANGE.min}% to +${VITALS_SHIFT_RANGE.max}%, by which every value the variant draws is
multiplied: +10% is a tenth slower. Unless given, every variant draws the same: LCP log-normal,
median ${SIMULATED_VITALS.lcp.median} ms, σ ${SIMULATED_VITALS.lcp.sigma}; INP on ${SIMULATED_VITALS.inp.share * 100}% of pages, log-normal, median ${SIMULATED_VITALS.inp.median} ms, σ ${SIMULATED_VITALS.inp.sigma};
CLS from Android and desktop only, 0 on ${SIMULATED_VITALS.cls.zeroShare * 100}% of pages, else log-normal, median ${SIMULATED_VITALS.cls.median}, σ ${SIMULATED_VITALS.cls.sigma}.
Example: --vitals "b:lcp=+10%,inp=-5%"

Harm: "<variant>:<name>=<share>,...;<variant>:..." where declines is the share of the variant's
visitors reaching the checkout whose card is declined (they do not buy) and errors the share of
its exposed visitors whose page's script fails, as a guarded ramp's guardrails read them: to
rehearse a rollback (then Check the guardrails now in the console's Alerts). None unless given.
Example: --harm "b:declines=0.6,errors=0.2"`;

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
  vitals: VitalsShifts;
  harm: HarmOverrides;
  reset: boolean;
  /** The local worker's origin: --url, else npm start's on --port. */
  origin: string;
}

const SIMULATE_OPTIONS = {
  visitors: { type: 'string' },
  days: { type: 'string' },
  rates: { type: 'string' },
  vitals: { type: 'string' },
  harm: { type: 'string' },
  seed: { type: 'string' },
  reset: { type: 'boolean' },
  port: { type: 'string' },
  url: { type: 'string' },
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
        '--persist-to: simulate writes through the running worker, which keeps its own state; name it with --url or --port',
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
      vitals: numbers.vitals,
      harm: numbers.harm,
      reset: values.reset ?? false,
      origin: numbers.origin,
    },
    options,
  };
}

/** The numbers simulate takes, each checked, or the first one refused. */
function readNumbers(
  values: Extract<ReturnType<typeof readSimulateArgs>, { ok: true }>['values'],
):
  | ({ ok: true } & Pick<
      SimulateCommand,
      'visitors' | 'days' | 'seed' | 'origin' | 'rates' | 'vitals' | 'harm'
    >)
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
  const origin = workerOrigin(values);
  if (!origin.ok) return origin;
  const rates =
    values.rates === undefined ? { ok: true as const, value: {} } : parseRates(values.rates);
  if (!rates.ok) return { ok: false, error: `--rates: ${rates.error}` };
  const vitals =
    values.vitals === undefined
      ? { ok: true as const, value: {} }
      : parseVitalsShifts(values.vitals);
  if (!vitals.ok) return { ok: false, error: `--vitals: ${vitals.error}` };
  const harm =
    values.harm === undefined ? { ok: true as const, value: {} } : parseHarm(values.harm);
  if (!harm.ok) return { ok: false, error: `--harm: ${harm.error}` };
  return {
    ok: true,
    visitors: visitors.count,
    days: days.count,
    seed,
    origin: origin.origin,
    rates: rates.value,
    vitals: vitals.value,
    harm: harm.value,
  };
}

/** A share: 0, 1, or a decimal between them (no percent sign, no exponent). */
const SHARE = /^(0(\.\d+)?|\.\d+|1(\.0+)?)$/;

/** A change in percent, signed or not: +10%, -5%, 12.5%. */
const PERCENT = /^[+-]?\d+(\.\d+)?%$/;

/** What one per-variant option reads after each `<name>=`. */
interface PerVariantValues<Name extends string> {
  names: readonly Name[];
  /** In `<variant>:<name>=<value>`, as the shape is named in its errors. */
  value: string;
  /** The value read, or null when it is not one. */
  read: (text: string) => number | null;
  /** What a value must be, after "<name> must be ". */
  expected: string;
  /** What is given, in "no … given". */
  plural: string;
}

/**
 * `<variant>:<name>=<value>,...;<variant>:...` (--rates, --vitals): the shape is checked here;
 * whether the variants exist (and the rates nest) is checked by the worker against the
 * experiment (worker/simulation/simulated-visitors.ts resolveRates, simulated-vitals.ts).
 */
function parsePerVariant<Name extends string>(
  text: string,
  values: PerVariantValues<Name>,
):
  | { ok: true; value: Record<string, Partial<Record<Name, number>>> }
  | { ok: false; error: string } {
  const overrides: Record<string, Partial<Record<Name, number>>> = {};
  const groups = text.split(';').map((group) => group.trim());
  for (const group of groups.filter((g) => g !== '')) {
    const colon = group.indexOf(':');
    const variant = group.slice(0, colon).trim();
    if (colon < 0 || variant === '') {
      return { ok: false, error: `"${group}" is not <variant>:<name>=${values.value},...` };
    }
    if (Object.hasOwn(overrides, variant)) {
      return { ok: false, error: `variant "${variant}" is given twice` };
    }
    const given: Partial<Record<Name, number>> = {};
    for (const pair of group.slice(colon + 1).split(',')) {
      const [name = '', value, ...extra] = pair.split('=').map((part) => part.trim());
      if (!(values.names as readonly string[]).includes(name)) {
        return {
          ok: false,
          error: `${variant}: "${name}" is not one of ${values.names.join(', ')}`,
        };
      }
      const read = value === undefined || extra.length > 0 ? null : values.read(value);
      if (read === null) {
        return {
          ok: false,
          error: `${variant}: ${name} must be ${values.expected}, not "${value ?? ''}"`,
        };
      }
      if (Object.hasOwn(given, name)) {
        return { ok: false, error: `${variant}: ${name} is given twice` };
      }
      given[name as Name] = read;
    }
    overrides[variant] = given;
  }
  if (Object.keys(overrides).length === 0) {
    return { ok: false, error: `no ${values.plural} given` };
  }
  return { ok: true, value: overrides };
}

/** `--rates`: per variant, the share of exposed visitors reaching each step. */
export function parseRates(
  text: string,
): { ok: true; value: RateOverrides } | { ok: false; error: string } {
  return parsePerVariant(text, {
    names: SIMULATED_STEPS,
    value: '<share>',
    read: (share) => (SHARE.test(share) ? Number(share) : null),
    expected: 'a share from 0 to 1 such as 0.05',
    plural: 'rates',
  });
}

/** `--harm`: per variant, the share of its visitors whose payment or page goes wrong. */
export function parseHarm(
  text: string,
): { ok: true; value: HarmOverrides } | { ok: false; error: string } {
  return parsePerVariant(text, {
    names: HARMS,
    value: '<share>',
    read: (share) => (SHARE.test(share) ? Number(share) : null),
    expected: 'a share from 0 to 1 such as 0.5',
    plural: 'harms',
  });
}

/** `--vitals`: per variant, each metric's change in percent, within VITALS_SHIFT_RANGE. */
export function parseVitalsShifts(
  text: string,
): { ok: true; value: VitalsShifts } | { ok: false; error: string } {
  const { min, max } = VITALS_SHIFT_RANGE;
  return parsePerVariant(text, {
    names: VITAL_METRICS,
    value: '<change>',
    read: (change) => {
      const percent = PERCENT.test(change) ? Number(change.slice(0, -1)) : Number.NaN;
      return percent >= min && percent <= max ? percent : null;
    },
    expected: `a change from ${min}% to +${max}% such as +10%`,
    plural: 'changes',
  });
}

/** The worker simulate writes through: `--url`'s origin, else npm start's on `--port`. */
function workerOrigin(values: {
  port?: string;
  url?: string;
}): { ok: true; origin: string } | { ok: false; error: string } {
  if (values.url !== undefined) {
    if (values.port !== undefined) {
      return { ok: false, error: '--port and --url name the worker twice: give one' };
    }
    const url = URL.canParse(values.url) ? new URL(values.url) : null;
    if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      return {
        ok: false,
        error: `--url takes an http(s) origin such as http://127.0.0.1:${DEFAULT_PORT}, not "${values.url}"`,
      };
    }
    return { ok: true, origin: url.origin };
  }
  if (values.port === undefined) return { ok: true, origin: `http://127.0.0.1:${DEFAULT_PORT}` };
  const port = parseCount(values.port, { min: 1, max: 65535 });
  return port.ok
    ? { ok: true, origin: `http://127.0.0.1:${port.count}` }
    : { ok: false, error: `--port: ${port.error}` };
}
