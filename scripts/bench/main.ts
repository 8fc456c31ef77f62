/**
 * `npm run bench`: a tool to watch, not a test. Serves the built worker with workerd (no
 * wrangler proxy in front), puts every screen under load, weighs its HTML and JS against the
 * issue's budgets, then runs Lighthouse on the landing variants. Budgets are reported with ✓/✗
 * and never fail the process; it exits non-zero only when the bench itself could not run.
 *
 * Env: BENCH_SECONDS (load per screen, default 3), BENCH_CONNECTIONS (default 10),
 * CHROME_PATH (default /usr/bin/chromium).
 */
import { existsSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { SCREEN_IDS } from '../../shared/screens';
import { DEFAULT_FLOWS, DEFAULT_SPLIT } from '../../worker/config/defaults';
import { DEFAULT_CONFIG_TTL_MS } from '../../worker/config/load';
import { BUILT_BUNDLES } from '../built-bundles';
import { type BuiltWorker, startBuiltWorker } from '../built-worker';
import { CHROMIUM_PATH } from '../chromium';
import { type LighthouseRun, medianRun, runLighthouse, startChrome } from './lighthouse';
import { type AssetSizes, HTML_BROTLI_BUDGET, RETURNING_VISITOR, weighPage } from './page-weight';
import { type LoadResult, loadAutocannon } from './tools';

/** The production bundle, what `npm run deploy` ships (no development kit). */
const WORKER_BUNDLE = BUILT_BUNDLES.production;
const CLIENT_MANIFEST = 'dist/client/.vite/manifest.json';
const LIGHTHOUSE_RUNS = 3;

interface Settings {
  loadSeconds: number;
  loadConnections: number;
  chromePath: string;
}

function readSettings(): Settings {
  return {
    loadSeconds: readPositiveInt('BENCH_SECONDS', 3),
    loadConnections: readPositiveInt('BENCH_CONNECTIONS', 10),
    chromePath: CHROMIUM_PATH,
  };
}

function readPositiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive integer, got "${raw}"`);
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// Load (autocannon)

/** e.g. "503 x7 under load", so a non-zero fail count says what failed. */
function unexpectedStatuses(load: LoadResult): string[] {
  const statuses = Object.entries(load.statusCodeStats)
    .filter(([status]) => !status.startsWith('2'))
    .map(([status, { count }]) => `${status} x${count} under load`);
  const timeouts = load.timeouts > 0 ? [`${load.timeouts} timeouts`] : [];
  return [...statuses, ...timeouts];
}

/**
 * No Accept-Encoding is sent on purpose: on Cloudflare the edge compresses the response, so
 * compression time in workerd would not be the worker's own cost.
 */
async function loadScreen(url: URL, settings: Settings): Promise<LoadResult> {
  const autocannon = await loadAutocannon();
  return autocannon({
    url: url.href,
    connections: settings.loadConnections,
    duration: settings.loadSeconds,
    headers: RETURNING_VISITOR,
  });
}

// ---------------------------------------------------------------------------------------------
// Output

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        // Names and notes read left to right; numbers line up on the right.
        return column === 0 || column === cells.length - 1
          ? cell.padEnd(width)
          : cell.padStart(width);
      })
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}

/** workerd, the load generator and Chrome share this machine: busy neighbours skew every figure. */
function machineLoad(): string {
  const [oneMinute = 0] = loadavg();
  return `Machine: ${availableParallelism()} CPUs, load average ${oneMinute.toFixed(1)}.`;
}

const tick = (ok: boolean) => (ok ? '✓' : '✗');
const round = (value: number | undefined, digits = 0) =>
  value === undefined ? '-' : value.toFixed(digits);

// ---------------------------------------------------------------------------------------------
// Main

/**
 * The harness defaults suit tests (config re-read from KV on every request). Measure what
 * production runs instead: the config cached per isolate for the worker's own TTL.
 */
const PRODUCTION_BINDINGS = {
  ENVIRONMENT: 'production',
  CONFIG_CACHE_TTL_MS: String(DEFAULT_CONFIG_TTL_MS),
};

/**
 * An empty KV makes every config load log `config_missing` and fall back to the defaults, a
 * path production never stays on; seeding the same defaults keeps the pages identical.
 */
async function seedConfig(worker: BuiltWorker): Promise<void> {
  await worker.putConfig('split', DEFAULT_SPLIT);
  await worker.putConfig('flows', DEFAULT_FLOWS);
}

/** Request lines carry `error: null` when all went well; error lines carry a code. */
function isErrorLine(line: Record<string, unknown>): boolean {
  return line.error != null || (typeof line.status === 'number' && line.status >= 500);
}

async function benchScreens(worker: BuiltWorker, settings: Settings): Promise<void> {
  console.log(
    `\nLoad: ${settings.loadConnections} connections x ${settings.loadSeconds} s per screen, returning visitor.` +
      ` Sizes in bytes; br = brotli q11. Budgets: HTML br <= ${HTML_BROTLI_BUDGET} B,` +
      ' JS after content (module scripts only, after </main>).\n',
  );
  const assets: AssetSizes = new Map();
  const rows: string[][] = [];
  for (const id of SCREEN_IDS) {
    const url = new URL(`/${id}`, worker.url);
    // Weighing first also warms the isolate's code path for this screen before the load.
    const weight = await weighPage(worker.url, url.pathname, assets);
    // The harness keeps every log line; start each screen from empty to count its own errors.
    worker.logs.length = 0;
    const load = await loadScreen(url, settings);
    const errorLogs = worker.logs.filter(isErrorLine).length;
    const failures = load.non2xx + load.errors;
    rows.push([
      `/${id}`,
      String(weight.status),
      round(load.requests.average),
      // autocannon's latency histogram holds whole milliseconds.
      round(load.latency.p50),
      round(load.latency.p99),
      `${failures}/${errorLogs}`,
      String(weight.htmlBytes),
      String(weight.htmlBrotli),
      tick(weight.htmlBrotli <= HTML_BROTLI_BUDGET),
      `${weight.jsBrotli} (${weight.jsFiles})`,
      tick(weight.problems.length === 0),
      [...weight.problems, ...unexpectedStatuses(load)].join('; '),
    ]);
  }
  worker.logs.length = 0;
  printTable(
    [
      'screen',
      'status',
      'req/s',
      'p50 ms',
      'p99 ms',
      'fail/err',
      'HTML',
      'HTML br',
      'br<=12K',
      'JS br (files)',
      'JS after',
      'notes',
    ],
    rows,
  );
  console.log(
    '\nfail/err: non-2xx responses + socket errors under load / worker log lines with an error' +
      ' code or a 5xx status.',
  );
}

async function benchLandings(worker: BuiltWorker, { chromePath }: Settings): Promise<void> {
  if (!existsSync(chromePath)) {
    console.log(`\nLighthouse skipped: no Chromium at ${chromePath} (set CHROME_PATH).`);
    return;
  }
  const landings = SCREEN_IDS.filter((id) => id.startsWith('one_pager'));
  console.log(
    `\nLighthouse ${LIGHTHOUSE_RUNS} runs per landing, mobile defaults (simulated throttling),` +
      ' first visit; median run by performance score.\n',
  );
  const { chrome, profile } = await startChrome(chromePath);
  const rows: string[][] = [];
  try {
    for (const id of landings) {
      const runs: LighthouseRun[] = [];
      for (let run = 0; run < LIGHTHOUSE_RUNS; run++) {
        runs.push(await runLighthouse(new URL(`/${id}`, worker.url), chrome.port));
      }
      const median = medianRun(runs);
      rows.push([
        `/${id}`,
        round(median?.score == null ? undefined : median.score * 100),
        round(median?.lcpMs),
        round(median?.tbtMs),
        round(median?.cls, 3),
        median?.maxTaskMs === undefined ? '<50' : round(median.maxTaskMs),
        runs.map((each) => round(each.score == null ? undefined : each.score * 100)).join(' '),
        [...new Set(runs.flatMap((each) => (each.error ? [each.error] : [])))].join('; '),
      ]);
    }
  } finally {
    chrome.kill();
    await rm(profile, { recursive: true, force: true });
  }
  printTable(
    ['landing', 'score', 'LCP ms', 'TBT ms', 'CLS', 'max task ms', 'all scores', 'errors'],
    rows,
  );
}

/** When the client build was last written: a change mid-run means a build raced the bench. */
function lastBuildTime(): number | undefined {
  return existsSync(CLIENT_MANIFEST) ? statSync(CLIENT_MANIFEST).mtimeMs : undefined;
}

async function main(): Promise<void> {
  const settings = readSettings();
  if (!existsSync(WORKER_BUNDLE)) {
    throw new Error(`${WORKER_BUNDLE} is missing: run \`npm run build\` first.`);
  }
  const started = performance.now();
  const buildTime = lastBuildTime();
  const worker = await startBuiltWorker({
    quiet: true,
    bindings: PRODUCTION_BINDINGS,
    bundle: 'production',
  });
  console.log(`Built worker on ${worker.url.origin}. ${machineLoad()}`);
  try {
    await seedConfig(worker);
    await benchScreens(worker, settings);
    await benchLandings(worker, settings);
  } finally {
    await worker.stop();
  }
  if (lastBuildTime() !== buildTime) {
    console.log(
      '\nWarning: dist/ was rebuilt while the bench ran (another `npm run build`?). workerd' +
        ' serves dist/client from disk, so asset sizes and error counts after that may be off.',
    );
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(`\nBench done in ${seconds} s. ${machineLoad()}`);
}

main().catch((error: unknown) => {
  console.error(`bench could not run: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
