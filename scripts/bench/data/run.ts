import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BUILT_BUNDLES } from '../../built-bundles';
import { printContentCost } from './content-cost';
import { startCountingWorker } from './counting-worker';
import { judge, type Mix, visitorsPerSecond } from './extrapolate';
import { launchBrowser, runJourneys } from './journeys';
import { formatShare, limitLines } from './limit-lines';
import { drained, measured, otherStores, type Run, replayFixedSets, takeSnapshot } from './measure';
import {
  DEFAULT_CHARGEBACK_SHARE,
  DEFAULT_REFUND_SHARE,
  DEFAULT_RENEWALS,
  renewEverySubscription,
  type SubscriberLife,
} from './money-events';
import { type PortalServer, startPortalServer } from './portal-server';
import { printLimits, printPerVisitor } from './report';
import { SHARD_ROWS_KEPT_DAYS, TABLE_RETENTION } from './retention';
import { DEFAULT_SAVE_SHARE } from './save-offer';
import { printVitalsCost } from './vitals';

const USAGE = `npm run bench -- data [--lookups N] [--paying N] [--concurrency N]
                        [--peak-factor F] [--paying-share S] [--shared-key-share S] [--horizon-days D]
                        [--renewals N] [--refunds S] [--chargebacks S] [--saves S]

Runs real visitors in Chromium through the built production worker (dist/worker) with the
embedded portal behind PORTAL_URL, counts what each store did per visitor, and extrapolates it to
10 M and 100 M visitors a month against each store's hard limits. Exits 1 when a line misses its
headroom goal (5x at 10 M, 1.5x at 100 M).

  --lookups           lookup-only visitors (default 20)
  --paying            paying visitors (default 10); each subscription they buy is then renewed
                      --renewals times, refunded or charged back (--refunds, --chargebacks), then
                      left through its manage link's page: kept by the save offer (--saves) or
                      cancelled there and through the product API's lifecycle hook, counted as
                      theirs
  --renewals          renewals a subscriber brings over their life (default ${DEFAULT_RENEWALS})
  --refunds           the share of renewing subscriptions refunded (default ${DEFAULT_REFUND_SHARE}, rounded
                      up: at least one when above 0)
  --chargebacks       the share charged back (default ${DEFAULT_CHARGEBACK_SHARE}, rounded up likewise)
  --saves             the share of leaving subscribers who take the save offer's discount where
                      it is made (default ${DEFAULT_SAVE_SHARE}, rounded up likewise)
  --concurrency       visitors at once (default 3)
  --peak-factor       the peak hour over the average (default 10)
  --paying-share      the share of paying visitors in the mix (default 0.05)
  --shared-key-share  the share of all visitors behind the busiest address, number block or card
                      (default 0.01)
  --horizon-days      how long rows kept for good have piled up when read (default: the
                      experiment shards' 13 months, 396 days)`;

function number(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`--${name} takes a number >= 0`);
  return parsed;
}

function share(value: string | undefined, fallback: number, name: string): number {
  const parsed = number(value, fallback, name);
  if (parsed > 1) throw new Error(`--${name} takes a share between 0 and 1`);
  return parsed;
}

function machine(): string {
  const [oneMinute = 0] = loadavg();
  return `${availableParallelism()} CPUs, load average ${oneMinute.toFixed(1)}`;
}

/** The errors a run logs by design: the bench sets no Google Geocoding key. */
const EXPECTED_ERRORS = new Set(['geocoding_not_configured', 'geocoding_failed']);

/** The run's settings, read from the command line's options. */
interface Settings {
  visitors: Run['visitors'];
  concurrency: number;
  peakFactor: number;
  mix: Mix;
  sharedKeyShare: number;
  horizonDays: number;
  life: SubscriberLife;
}

function readSettings(values: Record<string, string | boolean | undefined>): Settings {
  const option = (name: string) => values[name] as string | undefined;
  return {
    visitors: {
      lookup: Math.round(number(option('lookups'), 20, 'lookups')),
      paying: Math.round(number(option('paying'), 10, 'paying')),
    },
    concurrency: Math.max(1, Math.round(number(option('concurrency'), 3, 'concurrency'))),
    peakFactor: number(option('peak-factor'), 10, 'peak-factor'),
    mix: { payingShare: number(option('paying-share'), 0.05, 'paying-share') },
    sharedKeyShare: number(option('shared-key-share'), 0.01, 'shared-key-share'),
    horizonDays: number(option('horizon-days'), SHARD_ROWS_KEPT_DAYS, 'horizon-days'),
    life: {
      renewals: Math.round(number(option('renewals'), DEFAULT_RENEWALS, 'renewals')),
      refundShare: share(option('refunds'), DEFAULT_REFUND_SHARE, 'refunds'),
      chargebackShare: share(option('chargebacks'), DEFAULT_CHARGEBACK_SHARE, 'chargebacks'),
      saveShare: share(option('saves'), DEFAULT_SAVE_SHARE, 'saves'),
    },
  };
}

type CountingWorker = Awaited<ReturnType<typeof startCountingWorker>>;

/**
 * The lookup-only visitors, then the paying ones and their subscriptions' renewals and ends
 * (./money-events.ts), with a snapshot of the stores before, between and after;
 * `settings.visitors` becomes the journeys that completed. What failed joins `failed`.
 */
async function walkVisitors(
  worker: CountingWorker,
  portal: PortalServer,
  browser: Awaited<ReturnType<typeof launchBrowser>>,
  { visitors, concurrency, life }: Settings,
  failed: string[],
): Promise<Run> {
  const before = await takeSnapshot(worker);
  const lookups = await runJourneys(browser, worker.url, 'lookup', {
    count: visitors.lookup,
    first: 0,
    concurrency,
  });
  failed.push(...lookups.failed);
  // A visitor is counted once their journey completed; a failed one's partial work still
  // counts in the totals, so failures make the figures per visitor a little high.
  visitors.lookup = lookups.completed;
  if (!(await drained(worker))) failed.push('the queue did not drain after the lookups');
  const afterLookups = await takeSnapshot(worker);
  const paying = await runJourneys(browser, worker.url, 'paying', {
    count: visitors.paying,
    first: visitors.lookup,
    concurrency,
  });
  failed.push(...paying.failed);
  visitors.paying = paying.completed;
  const renewed = await renewEverySubscription(portal, worker.url, life);
  failed.push(...renewed.failed);
  console.log(
    `Renewed ${renewed.subscriptions - renewed.notRenewing} of ${renewed.subscriptions}` +
      ` subscriptions ${life.renewals} times each through the lifecycle hook, refunded or charged` +
      ` back some, then each left through its page: ${renewed.sent} renewals, ${renewed.refunded}` +
      ` refunds, ${renewed.chargedBack} chargebacks, ${renewed.saved} kept by the save offer,` +
      ` ${renewed.cancelled} cancellations` +
      ` (${renewed.notRenewing} one-time purchases get none of it).`,
  );
  if (!(await drained(worker))) failed.push('the queue did not drain after the paying visitors');
  const afterPaying = await takeSnapshot(worker);
  const replayed = await replayFixedSets(worker, visitors, [before, afterLookups, afterPaying]);
  return { visitors, before, afterLookups, afterPaying, replayed };
}

/** The stores, the worker and the portal a run counts, then the visitors walked through them. */
async function countVisitors(settings: Settings, failed: string[]) {
  const persistTo = await mkdtemp(join(tmpdir(), 'geofunnel-data-bench-'));
  const portal = await startPortalServer();
  const worker = await startCountingWorker({ persistTo, portalUrl: portal.url });
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  try {
    // Inside the try: a browser that cannot start still stops the worker and the portal, where
    // the run used to hang on them.
    browser = await launchBrowser();
    console.log(
      `Production worker (${BUILT_BUNDLES.production}) on ${worker.url.origin}, the embedded` +
        ` portal on ${portal.url}; counting D1 ${worker.kinds.d1.join(', ') || '-'}, Durable` +
        ` Objects ${worker.kinds.durableObjects.join(', ') || '-'}, queues` +
        ` ${worker.kinds.queues.join(', ') || '-'}, R2 ${worker.kinds.r2.join(', ') || '-'},` +
        ` KV ${worker.kinds.kv.join(', ') || '-'}.`,
    );
    const run = await walkVisitors(worker, portal, browser, settings, failed);
    return { worker, run, archive: await worker.archive() };
  } finally {
    await browser?.close();
    await worker.stop();
    await portal.stop();
    await rm(persistTo, { recursive: true, force: true });
  }
}

/** Prints each error code the worker logged once, with how often; returns the unexpected ones. */
function printErrors(errors: CountingWorker['logs']): string[] {
  // Each code once, with how often and its first detail, so a failing store is named.
  const byCode = new Map<string, { count: number; detail: unknown }>();
  for (const line of errors) {
    const code = String(line.error ?? line.status);
    const seen = byCode.get(code) ?? { count: 0, detail: line.detail };
    byCode.set(code, { ...seen, count: seen.count + 1 });
  }
  for (const [code, { count, detail }] of byCode) {
    const shown = detail === undefined ? '' : `: ${String(detail).slice(0, 160)}`;
    const expected = EXPECTED_ERRORS.has(code) ? ' (expected: no geocoding key here)' : '';
    console.log(`  worker error ${code} ×${count}${shown}${expected}`);
  }
  // A store call that failed is a cost not counted: the figures would flatter the design.
  return [...byCode.keys()].filter((code) => !EXPECTED_ERRORS.has(code));
}

/**
 * Prints each warning code the worker logged once, with how often and its first line: a refusal
 * a visitor met (an offer not shown, a limit) says what it refused, beside the journey it failed.
 */
function printWarnings(warnings: CountingWorker['logs']): void {
  const byCode = new Map<string, { count: number; first: Record<string, unknown> }>();
  for (const line of warnings) {
    const code = String(line.warning);
    const seen = byCode.get(code) ?? { count: 0, first: line };
    byCode.set(code, { ...seen, count: seen.count + 1 });
  }
  for (const [code, { count, first }] of byCode) {
    const { level: _, warning: __, ...fields } = first;
    console.log(`  worker warning ${code} ×${count}: ${JSON.stringify(fields).slice(0, 400)}`);
  }
}

/** Prints the rates at 10 M and 100 M visitors a month and each line's verdict; returns misses. */
function printExtrapolation(figures: ReturnType<typeof measured>, settings: Settings): string[] {
  const { peakFactor, mix, sharedKeyShare, horizonDays, life } = settings;
  const lines = limitLines(figures, { sharedKeyShare });
  const verdicts = judge(lines, { peakFactor, mix, horizonDays });
  const at10 = visitorsPerSecond({ visitorsPerMonth: 10e6, peakFactor });
  const at100 = visitorsPerSecond({ visitorsPerMonth: 100e6, peakFactor });
  console.log(
    `\nAt 10 M and 100 M visitors a month (30 days): ${at10.average.toFixed(1)} and` +
      ` ${at100.average.toFixed(1)} visitors/s on average, ${at10.peak.toFixed(0)} and` +
      ` ${at100.peak.toFixed(0)}/s in a peak hour at ${peakFactor}x; rates below are the mix's` +
      ' per second, sizes what is kept.\n',
  );
  const missed = printLimits(verdicts, { mix, peakFactor });
  const kept = Object.entries(TABLE_RETENTION)
    .map(([table, { days, source }]) => `${table} ${Number(days.toPrecision(3))} d (${source})`)
    .join(', ');
  console.log(
    `\nAssumptions: D1 tables keep rows for good unless the code deletes them (${kept}); rows` +
      ` kept for good, and the experiment shards' other tables (deleted after 13 months), are read after ${horizonDays} days; a shard's bytes are shared among its tables as their payloads grew. Objects keyed on a visitor carry that` +
      ' visitor alone; the busiest address, number block or card carries' +
      ` ${formatShare(sharedKeyShare)} of visitors; a fixed set of objects splits traffic no` +
      ' better than the run did. A rate limiter object keeps only its window (its alarm deletes' +
      ' it), so its size is read as measured. Events are counted as the real tracker sent them' +
      ' in a quick visit: a visitor who stays longer sends more batches (one per 30 s). A paying' +
      ` visitor's figures include ${life.renewals} renewals of each subscription they bought (--renewals),` +
      ` a refund of ${formatShare(life.refundShare)} and a chargeback of` +
      ` ${formatShare(life.chargebackShare)} of them, rounded up (--refunds, --chargebacks), and` +
      ' its end through the manage page, where a save offer test runs: the page, the confirm, and' +
      ` the offer taken by ${formatShare(life.saveShare)} of leavers where made (--saves), or a cancel with a reason,` +
      ' their life as a subscriber: at a steady state renewals arrive as new payers do, times that.',
  );
  return missed;
}

/** `npm run bench -- data ...`; resolves the process's exit code. */
export async function runDataBench(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      lookups: { type: 'string' },
      paying: { type: 'string' },
      concurrency: { type: 'string' },
      'peak-factor': { type: 'string' },
      'paying-share': { type: 'string' },
      'shared-key-share': { type: 'string' },
      'horizon-days': { type: 'string' },
      renewals: { type: 'string' },
      refunds: { type: 'string' },
      chargebacks: { type: 'string' },
      saves: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!existsSync(BUILT_BUNDLES.production)) {
    throw new Error(`${BUILT_BUNDLES.production} is missing: run \`npm run build\` first.`);
  }
  const settings = readSettings(values);
  const { visitors, concurrency, mix } = settings;

  const started = performance.now();
  console.log(`Data benchmark. Machine: ${machine()}.`);
  const failed: string[] = [];
  const { worker, run, archive } = await countVisitors(settings, failed);
  const errors = worker.logs.filter(
    (line) => line.level === 'error' || (typeof line.status === 'number' && line.status >= 500),
  );

  const figures = measured(run, worker.kinds);
  console.log(
    `\n${visitors.lookup} lookup-only and ${visitors.paying} paying visitors completed in Chromium,` +
      ` ${concurrency} at a time; ${failed.length} journeys or waits failed, ${errors.length}` +
      ' error lines logged by the worker.\n',
  );
  for (const failure of failed) console.log(`  FAILED ${failure}`);
  const unexpected = printErrors(errors);
  printWarnings(worker.logs.filter((line) => line.level === 'warn'));
  console.log('Per visitor, by store (queue consumer included):\n');
  printPerVisitor(figures, otherStores(run, worker.kinds), mix);

  const missed = printExtrapolation(figures, settings);
  printVitalsCost(archive, visitors.lookup + visitors.paying);
  printContentCost(run, worker.logs, visitors.lookup + visitors.paying);
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(`\nData benchmark done in ${seconds} s. Machine: ${machine()}.`);
  if (missed.length > 0) {
    console.log(`\n${missed.length} lines under their headroom goal:`);
    for (const line of missed) console.log(`  ✗ ${line}`);
  }
  if (failed.length > 0) return 2;
  if (unexpected.length > 0) {
    console.log(`\nUnexpected worker errors: ${unexpected.join(', ')}; the figures undercount.`);
    return 2;
  }
  return missed.length > 0 ? 1 : 0;
}
