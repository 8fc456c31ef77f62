import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_DAYS,
  DEFAULT_VISITORS,
  parseExperimentsArgs,
} from '../../scripts/experiments-arguments';
import { runExperimentsCli } from '../../scripts/experiments-cli';
import {
  CHALLENGER_RATES,
  CONTROL_RATES,
  exposureWindow,
  resolveRates,
  SIMULATED_STEPS,
  SUMMARY_COLUMNS,
  simulateVisitors,
} from '../../scripts/experiments-simulation';
import { openLocalPlatform } from '../../scripts/local-platform';
import { seededRandom } from '../../shared/seeded-random';
import type { SplitConfig } from '../../worker/config/schema';
import { legacyResults } from '../../worker/experiments/experiment-stores';
import { checkSampleRatio } from '../../worker/experiments/statistics';
import { experimentTotals } from '../../worker/experiments/totals';

const TWO_ARMS: SplitConfig = {
  version: 'v9',
  phase: 3,
  defaultVariant: 'default',
  variants: { default: { weight: 30, flow: 'default' }, lp1ch2: { weight: 70 } },
};

describe('npm run experiments arguments', () => {
  it('simulate alone takes the defaults and local state', () => {
    expect(parseExperimentsArgs(['simulate'])).toEqual({
      kind: 'run',
      command: {
        name: 'simulate',
        visitors: DEFAULT_VISITORS,
        days: DEFAULT_DAYS,
        seed: null,
        rates: {},
        reset: false,
      },
      options: { remote: false, environment: 'development', persistTo: undefined },
    });
  });

  it('reads every option, and rates per variant with the steps each sets', () => {
    const parsed = parseExperimentsArgs([
      'simulate',
      '--visitors=500',
      '--days',
      '3',
      '--seed',
      '42',
      '--reset',
      '--rates',
      ' default:purchase=0.05 ; lp11ch8/vc:signup=.3, purchase=1 ;',
      '--persist-to',
      '/tmp/state',
    ]);
    expect(parsed).toEqual({
      kind: 'run',
      command: {
        name: 'simulate',
        visitors: 500,
        days: 3,
        seed: 42,
        rates: { default: { purchase: 0.05 }, 'lp11ch8/vc': { signup: 0.3, purchase: 1 } },
        reset: true,
      },
      options: { remote: false, environment: 'development', persistTo: '/tmp/state' },
    });
  });

  it.each([
    [
      ['simulate', '--remote'],
      '--remote: simulate writes only local state; a synthetic experiment must never reach the deployed store',
    ],
    [[], 'no command given'],
    [['simulate', 'now'], 'simulate takes only options'],
    [['replay'], 'unknown command "replay"'],
    [['simulate', '--visitor', '5'], "Unknown option '--visitor'"],
    [
      ['simulate', '--visitors', '0'],
      '--visitors: count must be a whole number from 1 to 1000000, not "0"',
    ],
    [['simulate', '--days', '91'], '--days: count must be a whole number from 1 to 90, not "91"'],
    [
      ['simulate', '--seed', '1.5'],
      '--seed: count must be a whole number from 0 to 4294967295, not "1.5"',
    ],
    [
      ['simulate', '--rates', 'purchase=0.05'],
      '--rates: "purchase=0.05" is not <variant>:<name>=<share>,...',
    ],
    [
      ['simulate', '--rates', 'default:buy=0.05'],
      '--rates: default: "buy" is not one of lookup, signup, checkout, purchase, upsell',
    ],
    [
      ['simulate', '--rates', 'default:purchase=5%'],
      '--rates: default: purchase must be a share from 0 to 1 such as 0.05, not "5%"',
    ],
    [
      ['simulate', '--rates', 'default:purchase=1.5'],
      '--rates: default: purchase must be a share from 0 to 1 such as 0.05, not "1.5"',
    ],
    [
      ['simulate', '--rates', 'default:purchase'],
      '--rates: default: purchase must be a share from 0 to 1 such as 0.05, not ""',
    ],
    [
      ['simulate', '--rates', 'default:purchase=0.1,purchase=0.2'],
      '--rates: default: purchase is given twice',
    ],
    [['simulate', '--rates', 'a:lookup=0.5;a:signup=0.2'], '--rates: variant "a" is given twice'],
    [['simulate', '--rates', ' ; '], '--rates: no rates given'],
  ])('%j is refused: %s', (argv, error) => {
    expect(parseExperimentsArgs(argv)).toEqual({ kind: 'usage-error', error });
  });
});

describe('the simulated experiment', () => {
  it('by default the split’s default variant is the control and every other converts better', () => {
    const rates = resolveRates(TWO_ARMS, {});
    expect(rates).toEqual({
      ok: true,
      value: { default: CONTROL_RATES, lp1ch2: CHALLENGER_RATES },
    });
    for (const step of ['signup', 'checkout', 'purchase'] as const) {
      expect(CHALLENGER_RATES[step]).toBeGreaterThan(CONTROL_RATES[step]);
    }
  });

  it('lays --rates over the defaults, and refuses unknown variants and unnested steps', () => {
    expect(resolveRates(TWO_ARMS, { lp1ch2: { purchase: 0.05 } })).toMatchObject({
      ok: true,
      value: { lp1ch2: { ...CHALLENGER_RATES, purchase: 0.05 } },
    });
    expect(resolveRates(TWO_ARMS, { lp2: { purchase: 0.05 } })).toEqual({
      ok: false,
      error:
        '--rates names variant "lp2", which the split in effect does not have (it has default, lp1ch2)',
    });
    expect(resolveRates(TWO_ARMS, { default: { purchase: 0.3 } })).toEqual({
      ok: false,
      error:
        '--rates: variant "default" has purchase=0.3 above checkout=0.25; the steps are nested (whoever reached purchase reached checkout), so each share is at most the one before',
    });
  });

  it('assigns by the split’s weights and reaches each step at its rate, nested', () => {
    const split: SplitConfig = {
      version: '1',
      defaultVariant: 'a',
      variants: { a: { weight: 20 }, b: { weight: 30 }, c: { weight: 50 }, off: { weight: 0 } },
    };
    const rates = resolveRates(split, {});
    if (!rates.ok) throw new Error(rates.error);
    const count = 20_000;
    const visitors = simulateVisitors({
      split,
      rates: rates.value,
      count,
      window: { from: 0, to: 1 },
      random: seededRandom(1),
    });
    const exposed = (variant: string) => visitors.filter((v) => v.variant === variant).length;
    const arms = Object.entries(split.variants).map(([variant, { weight }]) => ({
      exposed: exposed(variant),
      weight,
    }));
    // The results' own sample-ratio test: an honest split passes it.
    expect(checkSampleRatio(arms).pValue).toBeGreaterThan(0.01);
    expect(Math.abs(exposed('c') / count - 0.5)).toBeLessThan(0.015);
    expect(exposed('off')).toBe(0);

    const control = visitors.filter((v) => v.variant === 'a');
    SIMULATED_STEPS.forEach((step, i) => {
      const reached = control.filter((v) => v.reached > i).length / control.length;
      expect(Math.abs(reached - CONTROL_RATES[step])).toBeLessThan(0.025);
    });
    // A buyer bought a main plan, and perhaps an upsell; nobody else bought anything.
    for (const visitor of visitors) {
      const bought = visitor.reached === SIMULATED_STEPS.length;
      expect(visitor.purchases.length > 0).toBe(bought);
      expect(visitor.purchases.length).toBeLessThanOrEqual(2);
    }
  });

  it('draws the same visitors from the same seed, and others from another', () => {
    const rates = resolveRates(TWO_ARMS, {});
    if (!rates.ok) throw new Error(rates.error);
    const draw = (seed: number) =>
      simulateVisitors({
        split: TWO_ARMS,
        rates: rates.value,
        count: 200,
        window: { from: 1000, to: 9000 },
        random: seededRandom(seed),
      });
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it('spreads exposures over whole UTC days, today only as far as it has gone', () => {
    const now = Date.UTC(2026, 4, 10, 15, 30);
    expect(exposureWindow(now, 3)).toEqual({ from: Date.UTC(2026, 4, 8), to: now });
    expect(exposureWindow(now, 1)).toEqual({ from: Date.UTC(2026, 4, 10), to: now });
  });
});

// ---------------------------------------------------------------------------------------------
// simulate against throwaway local state (the files wrangler dev reads), in-process. Each run
// and each look starts workerd through wrangler's platform proxy: about a second.

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

async function runCli(args: readonly string[]): Promise<CliRun> {
  const printed = { stdout: [] as string[], stderr: [] as string[] };
  const log = vi.spyOn(console, 'log').mockImplementation((...line) => {
    printed.stdout.push(`${line.join(' ')}\n`);
  });
  const error = vi.spyOn(console, 'error').mockImplementation((...line) => {
    printed.stderr.push(`${line.join(' ')}\n`);
  });
  try {
    const code = await runExperimentsCli(args);
    return { code, stdout: printed.stdout.join(''), stderr: printed.stderr.join('') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

interface SummaryRow {
  exposed: number;
  steps: Record<(typeof SIMULATED_STEPS)[number], number>;
  purchases: number;
  revenueMinor: number;
}

/** The summary table simulate printed, by variant. */
function summaryOf(stdout: string): Record<string, SummaryRow> {
  const lines = stdout.split('\n');
  const header = lines.findIndex((line) => line.startsWith('variant '));
  expect(lines[header]!.split(/ {2,}/)).toEqual([...SUMMARY_COLUMNS]);
  const rows: Record<string, SummaryRow> = {};
  for (const line of lines.slice(header + 1)) {
    if (line.trim() === '') break;
    const [variant, exposed, lookup, signup, checkout, purchased, purchases, revenue] =
      line.split(/ +/);
    rows[variant!] = {
      exposed: Number(exposed),
      steps: {
        lookup: Number(lookup),
        signup: Number(signup),
        checkout: Number(checkout),
        purchase: Number(purchased),
      },
      purchases: Number(purchases),
      revenueMinor: Number(revenue!.replace('.', '')),
    };
  }
  return rows;
}

function added(a: Record<string, SummaryRow>, b: Record<string, SummaryRow>) {
  const sum: Record<string, SummaryRow> = {};
  for (const [variant, x] of Object.entries(a)) {
    const y = b[variant]!;
    sum[variant] = {
      exposed: x.exposed + y.exposed,
      steps: {
        lookup: x.steps.lookup + y.steps.lookup,
        signup: x.steps.signup + y.steps.signup,
        checkout: x.steps.checkout + y.steps.checkout,
        purchase: x.steps.purchase + y.steps.purchase,
      },
      purchases: x.purchases + y.purchases,
      revenueMinor: x.revenueMinor + y.revenueMinor,
    };
  }
  return sum;
}

interface StoreLook {
  totals: Record<string, SummaryRow>;
  claims: number;
  days: number;
  configVersions: string[];
}

/** What the store holds for phase 3, through the results' own reader. */
async function lookAtStore(persistTo: string): Promise<StoreLook> {
  const platform = await openLocalPlatform<{ EVENTS_DB: D1Database }>(persistTo);
  try {
    const db = platform.env.EVENTS_DB;
    const totals = experimentTotals(3, (await legacyResults(db, 3)).rows);
    const claims = await db
      .prepare('SELECT count(*) AS n FROM verified_purchases')
      .first<{ n: number }>();
    const days = await db
      .prepare(
        `SELECT count(DISTINCT date(exposed_at / 1000, 'unixepoch')) AS n FROM exposures
         WHERE phase = 3`,
      )
      .first<{ n: number }>();
    const versions = await db
      .prepare('SELECT DISTINCT config_version AS v FROM exposures')
      .all<{ v: string }>();
    return {
      totals: Object.fromEntries(
        totals.arms.map((arm) => [
          arm.variant,
          {
            exposed: arm.exposed,
            steps: arm.steps,
            purchases: arm.purchases,
            revenueMinor: arm.revenue.USD?.sum ?? 0,
          },
        ]),
      ),
      claims: claims!.n,
      days: days!.n,
      configVersions: versions.results.map((row) => row.v),
    };
  } finally {
    await platform.dispose();
  }
}

describe('simulate against local state', { timeout: 60_000 }, () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'experiments-cli-'));
  });

  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('refuses a split that draws one variant, and says how to publish two', async () => {
    const run = await runCli(['simulate', '--persist-to', join(dir, 'fresh')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('KV key "split" is absent; the defaults in code apply');
    expect(run.stderr).toContain(
      'error: the split in effect draws one variant (default), so there is nothing to compare: publish a split with two or more variants first, e.g. in the console',
    );
    expect(run.stdout).toBe('');
  });

  it('prints per variant exactly what the store’s totals then hold', async () => {
    const persistTo = join(dir, 'two-arms');
    const platform = await openLocalPlatform<{ FUNNEL_CONFIG: KVNamespace }>(persistTo);
    await platform.env.FUNNEL_CONFIG.put('split', JSON.stringify(TWO_ARMS));
    await platform.dispose();
    const state = ['--persist-to', persistTo];

    const first = await runCli(['simulate', '--visitors', '1000', '--days', '4', ...state]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      /^Simulated 1000 visitors in phase 3 \(config v9\+builtin\) over the last 4 day\(s\), seed \d+; added to what the phase held:$/m,
    );
    expect(first.stdout).toContain('Open http://localhost:8787/console → Results');
    const second = await runCli(['simulate', '--visitors', '600', '--seed', '7', ...state]);
    expect(second.code, second.stderr).toBe(0);

    const both = await lookAtStore(persistTo);
    const printed = added(summaryOf(first.stdout), summaryOf(second.stdout));
    expect(both.totals).toEqual(printed);
    expect(printed.default!.exposed + printed.lp1ch2!.exposed).toBe(1600);
    expect(both.claims).toBe(printed.default!.purchases + printed.lp1ch2!.purchases);
    // The window ends now, so today holds only the part of the UTC day gone by: just after
    // midnight no visitor may fall on it yet (a run at 00:02 UTC stored 6 days).
    expect(both.days).toBeGreaterThanOrEqual(DEFAULT_DAYS - 1);
    expect(both.days).toBeLessThanOrEqual(DEFAULT_DAYS);
    expect(both.configVersions).toEqual(['v9+builtin']);

    // The same seed draws the same numbers again; --reset leaves only them in the phase.
    const reset = await runCli([
      'simulate',
      '--visitors',
      '600',
      '--seed',
      '7',
      '--reset',
      ...state,
    ]);
    expect(reset.stdout).toContain('seed 7; the phase was emptied first:');
    expect(summaryOf(reset.stdout)).toEqual(summaryOf(second.stdout));
    const after = await lookAtStore(persistTo);
    expect(after.totals).toEqual(summaryOf(reset.stdout));
    expect(after.claims).toBe(after.totals.default!.purchases + after.totals.lp1ch2!.purchases);
  });
});
