import { parseArgs as parseNodeArgs } from 'node:util';
import { type ParsedArgs, parseCount, parseLocalArgs } from './cli';
import {
  CHALLENGER_RATES,
  CONTROL_RATES,
  RATE_NAMES,
  type RateName,
  type RateOverrides,
  type VariantRates,
} from './experiments-simulation';

/** The arguments of `npm run experiments` (experiments-cli.ts). */

export const DEFAULT_VISITORS = 6000;
const MAX_VISITORS = 1_000_000;
export const DEFAULT_DAYS = 7;
const MAX_DAYS = 90;
const MAX_SEED = 2 ** 32 - 1;

const ratesText = (rates: VariantRates) =>
  RATE_NAMES.map((name) => `${name}=${rates[name]}`).join(',');

export const EXPERIMENTS_CLI_USAGE = `Usage: npm run experiments -- simulate [options]

Fills the local experiment store (EVENTS_DB, as npm start serves it) with a synthetic experiment
in the live phase of the split in effect, so that the console's Results page has something to
show: each visitor's variant is drawn by the split test's own code over the split's weights,
and the steps and purchases at the rates below, written by the store's own functions. Adds to
what the phase holds; --reset empties the phase first. The split must draw two or more variants.

Options:
  --visitors <n>      exposed visitors to simulate (default ${DEFAULT_VISITORS}, at most ${MAX_VISITORS})
  --days <n>          their first visits spread over the last n days, today included
                      (default ${DEFAULT_DAYS}, at most ${MAX_DAYS})
  --rates <rates>     per-variant rates (below)
  --seed <n>          seed of the draws, to repeat a run's numbers (default: a random one, printed)
  --reset             first delete every exposure and experiment purchase of the phase (simulated
                      or not) and its totals
  --persist-to <dir>  local state directory, as for wrangler dev (default .wrangler/state)
  --help              show this text

Rates: "<variant>:<name>=<share>,...;<variant>:..." where lookup, signup, checkout and purchase
are shares of exposed visitors, each at most the one before (a buyer reached checkout, signed up
and started the lookup), and upsell is the share of buyers who also buy an upsell. What is not
given keeps its default:
  the split's default variant  ${ratesText(CONTROL_RATES)}
  every other variant          ${ratesText(CHALLENGER_RATES)}
A buyer pays the first charge of one of the catalogue's main plans, drawn alike, in USD.
Example: --rates "default:purchase=0.05;lp1ch2:signup=0.3,purchase=0.06"`;

export interface SimulateCommand {
  name: 'simulate';
  visitors: number;
  days: number;
  /** Null: draw one and print it. */
  seed: number | null;
  rates: RateOverrides;
  reset: boolean;
}

const SIMULATE_OPTIONS = {
  visitors: { type: 'string' },
  days: { type: 'string' },
  rates: { type: 'string' },
  seed: { type: 'string' },
  reset: { type: 'boolean' },
} as const;

/**
 * Only local state is ever written: a synthetic experiment in the deployed store would be read
 * as a real one.
 */
export function parseExperimentsArgs(argv: readonly string[]): ParsedArgs<SimulateCommand> {
  let parsed: ReturnType<typeof parseWithStoreOptions>;
  try {
    parsed = parseWithStoreOptions(argv);
  } catch (error) {
    return { kind: 'usage-error', error: (error as Error).message.split('. ')[0] ?? '' };
  }
  const { values, positionals } = parsed;
  // The options every tool takes are left to cli.ts, so they are read and refused alike.
  const args = parseLocalArgs(
    [
      ...(values.help ? ['--help'] : []),
      ...(values.remote ? ['--remote'] : []),
      ...(values['persist-to'] === undefined ? [] : [`--persist-to=${values['persist-to']}`]),
      '--',
      ...positionals,
    ],
    'simulate writes only local state; a synthetic experiment must never reach the deployed store',
  );
  if (args.kind !== 'command') return args;
  const { name, rest, options } = args;
  if (name !== 'simulate') return { kind: 'usage-error', error: `unknown command "${name}"` };
  if (rest.length > 0) return { kind: 'usage-error', error: 'simulate takes only options' };

  const visitors = parseCount(values.visitors ?? String(DEFAULT_VISITORS), {
    min: 1,
    max: MAX_VISITORS,
  });
  if (!visitors.ok) return { kind: 'usage-error', error: `--visitors: ${visitors.error}` };
  const days = parseCount(values.days ?? String(DEFAULT_DAYS), { min: 1, max: MAX_DAYS });
  if (!days.ok) return { kind: 'usage-error', error: `--days: ${days.error}` };
  let seed: number | null = null;
  if (values.seed !== undefined) {
    const parsedSeed = parseCount(values.seed, { min: 0, max: MAX_SEED });
    if (!parsedSeed.ok) return { kind: 'usage-error', error: `--seed: ${parsedSeed.error}` };
    seed = parsedSeed.count;
  }
  const rates =
    values.rates === undefined ? { ok: true as const, value: {} } : parseRates(values.rates);
  if (!rates.ok) return { kind: 'usage-error', error: `--rates: ${rates.error}` };

  return {
    kind: 'run',
    command: {
      name: 'simulate',
      visitors: visitors.count,
      days: days.count,
      seed,
      rates: rates.value,
      reset: values.reset ?? false,
    },
    options,
  };
}

function parseWithStoreOptions(argv: readonly string[]) {
  return parseNodeArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      ...SIMULATE_OPTIONS,
      remote: { type: 'boolean' },
      'persist-to': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** A share: 0, 1, or a decimal between them (no percent sign, no exponent). */
const SHARE = /^(0(\.\d+)?|\.\d+|1(\.0+)?)$/;

/**
 * `<variant>:<name>=<share>,...;<variant>:...`: the shape is checked here; whether the variants
 * exist and the steps nest is checked against the split in effect (resolveRates).
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
    const rates: Partial<VariantRates> = {};
    for (const pair of group.slice(colon + 1).split(',')) {
      const [name = '', share, ...extra] = pair.split('=').map((part) => part.trim());
      if (!(RATE_NAMES as readonly string[]).includes(name)) {
        return {
          ok: false,
          error: `${variant}: "${name}" is not one of ${RATE_NAMES.join(', ')}`,
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
      rates[name as RateName] = Number(share);
    }
    overrides[variant] = rates;
  }
  if (Object.keys(overrides).length === 0) {
    return { ok: false, error: 'no rates given' };
  }
  return { ok: true, value: overrides };
}
