import { join, resolve } from 'node:path';
import { seededRandom } from '../shared/seeded-random';
import { inEffectFromKv } from '../worker/config/document';
import { CONFIG_KEYS } from '../worker/config/load';
import { minorAmountOf } from '../worker/experiments/experiment-purchase';
import {
  exposureStatement,
  outcomeStatements,
  purchaseStatements,
} from '../worker/experiments/experiment-statements';
import { runOnLegacy } from '../worker/experiments/experiment-stores';
import type { Exposure } from '../worker/experiments/exposure-store';
import type { Outcome } from '../worker/experiments/outcomes';
import { EXIT_OK, fail, runTool, type StoreOptions } from './cli';
import { applyMigrations } from './d1-migrations';
import {
  EXPERIMENTS_CLI_USAGE,
  parseExperimentsArgs,
  type SimulateCommand,
} from './experiments-arguments';
import {
  drawnVariants,
  exposureWindow,
  formatTallies,
  resolveRates,
  SIMULATED_CURRENCY,
  type SimulatedVisitor,
  simulateVisitors,
  tallyVisitors,
} from './experiments-simulation';
import { DEFAULT_PERSIST_TO, openLocalPlatform, PROJECT_ROOT } from './local-platform';

/**
 * `npm run experiments -- simulate`: a synthetic experiment in the local store, so that a
 * newcomer sees a full results page right after `npm start`. What it draws is in
 * experiments-simulation.ts (pure, seeded); this file reads the split from local KV and writes
 * the visitors to local D1 with the experiment store's own statements, whose triggers keep the
 * per-arm totals the results read, as for real visitors. They land in EVENTS_DB's experiment
 * tables, which the results add to the shards' (worker/experiments/experiment-stores.ts): the
 * shards, Durable Objects of the worker itself, are out of reach of wrangler's platform proxy.
 */

interface LocalBindings {
  FUNNEL_CONFIG: KVNamespace;
  EVENTS_DB: D1Database;
}

const EVENTS_MIGRATIONS = join(PROJECT_ROOT, 'worker', 'collector', 'migrations');

/**
 * Rows written by one statement, passed as one JSON parameter (D1 allows 100 parameters per
 * statement and 2 MB per value; 500 exposures are about 40 KB). Local D1 spends several
 * milliseconds on each write statement whatever its size (8 ms here, measured), so fewer,
 * larger statements make the run fast; a purchase is one statement each all the same
 * (experimentPurchaseStatement), and takes most of a run's time.
 */
const ROWS_PER_STATEMENT = 500;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The funnel events a visitor who reached `reached` steps sent (outcomes.ts maps them to flags). */
const OUTCOME_EVENTS: readonly Outcome['event'][] = [
  'onboarding_start',
  'lead',
  'checkout_screen_load',
];

async function writeVisitors(
  db: D1Database,
  visitors: readonly (SimulatedVisitor & { visitorId: string })[],
  arm: { phase: number; configVersion: string },
): Promise<void> {
  for (const chunk of chunks(visitors, ROWS_PER_STATEMENT)) {
    const exposures: Exposure[] = chunk.map((visitor) => ({
      visitorId: visitor.visitorId,
      phase: arm.phase,
      variant: visitor.variant,
      configVersion: arm.configVersion,
      at: visitor.exposedAt,
      // Simulated visitors are the split's: the default route's, come straight to the site.
      route: 'default',
      source: 'direct',
    }));
    await runOnLegacy(db, [exposureStatement(exposures)]);
  }
  for (const chunk of chunks(visitors, ROWS_PER_STATEMENT)) {
    await runOnLegacy(
      db,
      outcomeStatements(
        chunk.flatMap((visitor) =>
          OUTCOME_EVENTS.slice(0, visitor.reached).map((event) => ({
            visitorId: visitor.visitorId,
            event,
            at: visitor.exposedAt,
          })),
        ),
      ),
    );
  }
  const purchases = visitors.flatMap((visitor) =>
    visitor.purchases.map((purchase) => ({ ...purchase, visitorId: visitor.visitorId })),
  );
  for (const chunk of chunks(purchases, ROWS_PER_STATEMENT)) {
    const claimed = chunk.map((purchase) => ({
      ...purchase,
      subscriptionId: `sim_${crypto.randomUUID()}`,
      claimId: `sim_${crypto.randomUUID()}`,
    }));
    await db.batch([
      // Each purchase's claim, as worker/purchases/record-purchase.ts makes it (the experiment
      // counts a purchase only when its claim is there), a chunk in one statement.
      db
        .prepare(
          `INSERT OR IGNORE INTO verified_purchases (subscription_id, insert_id, recorded_at)
           SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]')
           FROM json_each(?1)`,
        )
        .bind(JSON.stringify(claimed.map((p) => [p.subscriptionId, p.claimId, p.at]))),
      ...purchaseStatements(
        claimed.map((purchase) => {
          const minor = minorAmountOf(purchase.amountMinor / 100, SIMULATED_CURRENCY);
          return {
            subscriptionId: purchase.subscriptionId,
            visitorId: purchase.visitorId,
            amountMinor: minor?.amountMinor ?? null,
            currency: minor?.currency ?? null,
            at: purchase.at,
          };
        }),
      ).map(({ sql, params }) => db.prepare(sql).bind(...params)),
    ]);
  }
}

/**
 * Empties a phase: its visitors' rows, their purchases (and those purchases' claims) and the
 * totals the triggers kept from them, found as every table with a `phase` column so that a
 * table a later migration adds is emptied too. The totals are deleted rather than recomputed:
 * with every row of the phase gone, they are zero.
 */
async function clearPhase(db: D1Database, phase: number): Promise<void> {
  const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const { results: tables } = await db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table'
         AND name NOT LIKE 'sqlite!_%' ESCAPE '!' AND name NOT LIKE '!_cf!_%' ESCAPE '!'`,
    )
    .all<{ name: string }>();
  // D1 refuses the pragma_table_info() function and its own _cf_ tables, not PRAGMA table_info.
  const columns = await db.batch<{ name: string }>(
    tables.map(({ name }) => db.prepare(`PRAGMA table_info(${quoted(name)})`)),
  );
  const phased = tables.filter((_, i) => columns[i]?.results.some((c) => c.name === 'phase'));
  await db.batch([
    db
      .prepare(
        `DELETE FROM verified_purchases WHERE subscription_id IN
           (SELECT subscription_id FROM experiment_purchases WHERE phase = ?1)`,
      )
      .bind(phase),
    ...phased.map(({ name }) =>
      db.prepare(`DELETE FROM ${quoted(name)} WHERE phase = ?1`).bind(phase),
    ),
  ]);
}

async function simulate(command: SimulateCommand, options: StoreOptions): Promise<number> {
  const persistTo = resolve(options.persistTo ?? DEFAULT_PERSIST_TO);
  const platform = await openLocalPlatform<LocalBindings>(persistTo);
  try {
    const kv = platform.env.FUNNEL_CONFIG;
    const [rawSplit, rawFlows] = await Promise.all([
      kv.get(CONFIG_KEYS.split, 'text'),
      kv.get(CONFIG_KEYS.flows, 'text'),
    ]);
    const split = inEffectFromKv('split', rawSplit);
    const flows = inEffectFromKv('flows', rawFlows);
    if (split.note) console.error(split.note);
    const drawn = drawnVariants(split.value);
    if (drawn.length < 2) {
      return fail(
        `the split in effect draws one variant (${drawn.join(', ')}), so there is nothing to compare: publish a split with two or more variants first, e.g. in the console (npm start, then http://localhost:8787/console → Edit and publish) or with npm run config -- set <file>`,
      );
    }
    const rates = resolveRates(split.value, command.rates);
    if (!rates.ok) return fail(rates.error);

    const db = platform.env.EVENTS_DB;
    await applyMigrations(db, EVENTS_MIGRATIONS);
    const phase = split.value.phase ?? 1;
    if (command.reset) await clearPhase(db, phase);
    const seed = command.seed ?? crypto.getRandomValues(new Uint32Array(1))[0]!;
    const visitors = simulateVisitors({
      split: split.value,
      rates: rates.value,
      count: command.visitors,
      window: exposureWindow(Date.now(), command.days),
      random: seededRandom(seed),
    });
    // Not from the seed: a run repeated on the same state adds visitors rather than finding
    // them there already.
    const identified = visitors.map((visitor) => ({
      ...visitor,
      visitorId: crypto.randomUUID(),
    }));
    const configVersion = `${split.value.version}+${flows.value.version}`;
    await writeVisitors(db, identified, { phase, configVersion });

    const held = command.reset ? 'the phase was emptied first' : 'added to what the phase held';
    console.log(
      `Simulated ${command.visitors} visitors in phase ${phase} (config ${configVersion}) over the last ${command.days} day(s), seed ${seed}; ${held}:`,
    );
    console.log(formatTallies(tallyVisitors(split.value, visitors)));
    const served = options.persistTo
      ? `wrangler dev --env development --persist-to ${options.persistTo}`
      : 'npm start';
    console.log(`\nOpen http://localhost:8787/console → Results while ${served} runs.`);
    return EXIT_OK;
  } finally {
    await platform.dispose();
  }
}

/**
 * The CLI on `argv` (the words after `npm run experiments --`): prints as the tool does and
 * returns its exit code. scripts/experiments.ts runs it as a process; tests call it in-process.
 */
export function runExperimentsCli(argv: readonly string[]): Promise<number> {
  return runTool(argv, {
    usage: EXPERIMENTS_CLI_USAGE,
    parseArgs: parseExperimentsArgs,
    run: simulate,
  });
}
