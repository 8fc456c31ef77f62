/**
 * `npm run bench`: a tool to watch, not a test. Serves the built worker with workerd (no
 * wrangler proxy in front), puts every screen under load, weighs its HTML and JS against the
 * issue's budgets, then runs Lighthouse on the landing variants. Budgets are reported with ✓/✗
 * and never fail the process; it exits non-zero only when the bench itself could not run.
 *
 * Env: BENCH_SECONDS (load per screen, default 3), BENCH_CONNECTIONS (default 10),
 * CHROME_PATH (default /usr/bin/chromium).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import { type LaunchedChrome, launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { SCREEN_IDS } from '../shared/screens';
import { DEFAULT_FLOWS, DEFAULT_SPLIT } from '../worker/config/defaults';
import { DEFAULT_CONFIG_TTL_MS } from '../worker/config/load';
import { type BuiltWorker, startBuiltWorker } from './built-worker';

const WORKER_BUNDLE = 'dist/worker/index.js';
const LOAD_SECONDS = readPositiveInt('BENCH_SECONDS', 3);
const LOAD_CONNECTIONS = readPositiveInt('BENCH_CONNECTIONS', 10);
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const LIGHTHOUSE_RUNS = 3;

/** Budget from the issue: each screen's HTML at most 12 KB once brotli-compressed. */
const HTML_BROTLI_BUDGET = 12 * 1024;

/**
 * A returning visitor with a fixed uuid and variant: without these cookies the worker mints a
 * fresh uuid and Set-Cookie on every request, which is not the steady state we want to measure.
 */
const RETURNING_VISITOR = {
  Cookie: 'userUuid=5f0c6a8e-3b1d-4c2a-9e7f-1a2b3c4d5e6f; gf_variant=default',
};

const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function readPositiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive integer, got "${raw}"`);
  }
  return value;
}

function brotliSize(bytes: Uint8Array): number {
  return brotliCompressSync(bytes, {
    params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 },
  }).byteLength;
}

// ---------------------------------------------------------------------------------------------
// Load (autocannon)

/** The part of autocannon's result we read; the package ships no types. */
interface LoadResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}

type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
}) => Promise<LoadResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

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
function loadScreen(url: URL): Promise<LoadResult> {
  return autocannon({
    url: url.href,
    connections: LOAD_CONNECTIONS,
    duration: LOAD_SECONDS,
    headers: RETURNING_VISITOR,
  });
}

// ---------------------------------------------------------------------------------------------
// Page weight and script placement (pure, on the HTML text)

/** Every JS URL the page loads up front: its inline module's imports and its modulepreloads. */
function findModuleUrls(html: string): string[] {
  const urls = new Set<string>();
  for (const script of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (scriptType(script[1] ?? '') !== 'module') continue;
    for (const specifier of (script[2] ?? '').matchAll(/\bfrom\s*["']([^"']+\.js)["']/g)) {
      if (specifier[1]) urls.add(specifier[1]);
    }
  }
  for (const link of html.matchAll(/<link\b[^>]*>/gi)) {
    const tag = link[0];
    if (attribute(tag, 'rel') !== 'modulepreload') continue;
    const href = attribute(tag, 'href');
    if (href) urls.add(href);
  }
  return [...urls];
}

/**
 * The issue's "JS after content": every script is deferred (module) or not JS at all
 * (speculation rules), and module scripts come after `</main>` so the content streams first.
 * Returns the problems found; empty means the budget holds.
 */
function scriptPlacementProblems(html: string): string[] {
  const problems: string[] = [];
  const mainEnd = html.indexOf('</main>');
  if (mainEnd === -1) problems.push('no </main>');
  for (const script of html.matchAll(/<script\b([^>]*)>/gi)) {
    const type = scriptType(script[1] ?? '');
    if (type === 'speculationrules') continue;
    if (type !== 'module') {
      problems.push(`blocking <script${type ? ` type=${type}` : ''}>`);
    } else if (mainEnd !== -1 && (script.index ?? 0) < mainEnd) {
      problems.push('module script before </main>');
    }
  }
  return problems;
}

function scriptType(attributes: string): string {
  return (attribute(`<script ${attributes}>`, 'type') ?? '').toLowerCase();
}

function attribute(tag: string, name: string): string | undefined {
  const match = tag.match(new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i'));
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Page weight (I/O)

interface PageWeight {
  status: number;
  htmlBytes: number;
  htmlBrotli: number;
  jsBrotli: number;
  jsFiles: number;
  problems: string[];
}

/** Brotli size per asset URL: shared chunks are fetched once for the whole run. */
type AssetSizes = Map<string, Promise<number | string>>;

async function weighPage(origin: URL, path: string, assets: AssetSizes): Promise<PageWeight> {
  const response = await fetch(new URL(path, origin), { headers: RETURNING_VISITOR });
  const html = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(html);
  const problems = scriptPlacementProblems(text);
  let jsBrotli = 0;
  const urls = findModuleUrls(text);
  for (const url of urls) {
    let size = assets.get(url);
    if (!size) {
      size = fetchAssetBrotli(new URL(url, origin));
      assets.set(url, size);
    }
    const result = await size;
    if (typeof result === 'string') problems.push(result);
    else jsBrotli += result;
  }
  return {
    status: response.status,
    htmlBytes: html.byteLength,
    htmlBrotli: brotliSize(html),
    jsBrotli,
    jsFiles: urls.length,
    problems,
  };
}

/** The brotli size, or a problem to show when the asset is not served. */
async function fetchAssetBrotli(url: URL): Promise<number | string> {
  const response = await fetch(url);
  const body = new Uint8Array(await response.arrayBuffer());
  return response.ok ? brotliSize(body) : `${response.status} ${url.pathname}`;
}

// ---------------------------------------------------------------------------------------------
// Lighthouse

interface LighthouseRun {
  score: number | null;
  lcpMs: number | undefined;
  tbtMs: number | undefined;
  cls: number | undefined;
  /** Longest simulated main-thread task; undefined when none reached the 50 ms threshold. */
  maxTaskMs: number | undefined;
  error: string | undefined;
}

async function startChrome(): Promise<{ chrome: LaunchedChrome; profile: string }> {
  const profile = await mkdtemp(join(tmpdir(), 'geofunnel-bench-chrome-'));
  try {
    const chrome = await launch({
      chromePath: CHROME_PATH,
      chromeFlags: CHROME_FLAGS,
      userDataDir: profile,
      logLevel: 'silent',
    });
    return { chrome, profile };
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
}

/**
 * One Lighthouse run with its defaults: mobile form factor and simulated throttling, which
 * computes the slow-phone timings from a local trace, so nothing is downloaded. Storage is
 * reset before each run, so the landing is measured as a first visit (no cookies).
 */
async function runLighthouse(url: URL, port: number): Promise<LighthouseRun> {
  const result = await lighthouse(url.href, {
    port,
    logLevel: 'error',
    output: 'json',
    onlyCategories: ['performance'],
    // The full-page screenshot only feeds the report viewer and costs seconds per run.
    disableFullPageScreenshot: true,
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url.href}`);
  const { audits, categories, runtimeError } = result.lhr;
  const longestTask = audits['long-tasks']?.details;
  const firstTask =
    longestTask?.type === 'table' ? (longestTask.items[0] as { duration?: number }) : undefined;
  return {
    score: categories.performance?.score ?? null,
    lcpMs: audits['largest-contentful-paint']?.numericValue,
    tbtMs: audits['total-blocking-time']?.numericValue,
    cls: audits['cumulative-layout-shift']?.numericValue,
    maxTaskMs: firstTask?.duration,
    error: runtimeError?.message,
  };
}

/** The middle run by performance score; a failed run (null score) sorts lowest. */
function medianRun<T extends { score: number | null }>(runs: T[]): T | undefined {
  const sorted = [...runs].sort((a, b) => (a.score ?? -1) - (b.score ?? -1));
  return sorted[Math.floor(sorted.length / 2)];
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

async function benchScreens(worker: BuiltWorker): Promise<void> {
  console.log(
    `\nLoad: ${LOAD_CONNECTIONS} connections x ${LOAD_SECONDS} s per screen, returning visitor.` +
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
    const load = await loadScreen(url);
    // Request lines carry `error: null` when all went well; error lines carry a code.
    const errorLogs = worker.logs.filter((line) => line.error != null).length;
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
    '\nfail/err: non-2xx responses + socket errors under load / error lines the worker logged.',
  );
}

async function benchLandings(worker: BuiltWorker): Promise<void> {
  if (!existsSync(CHROME_PATH)) {
    console.log(`\nLighthouse skipped: no Chromium at ${CHROME_PATH} (set CHROME_PATH).`);
    return;
  }
  const landings = SCREEN_IDS.filter((id) => id.startsWith('one_pager'));
  console.log(
    `\nLighthouse ${LIGHTHOUSE_RUNS} runs per landing, mobile defaults (simulated throttling),` +
      ' first visit; median run by performance score.\n',
  );
  const { chrome, profile } = await startChrome();
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

async function main(): Promise<void> {
  if (!existsSync(WORKER_BUNDLE)) {
    throw new Error(`${WORKER_BUNDLE} is missing: run \`npm run build\` first.`);
  }
  const started = performance.now();
  const worker = await startBuiltWorker({ quiet: true, bindings: PRODUCTION_BINDINGS });
  console.log(`Built worker on ${worker.url.origin}. ${machineLoad()}`);
  try {
    await seedConfig(worker);
    await benchScreens(worker);
    await benchLandings(worker);
  } finally {
    await worker.stop();
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(`\nBench done in ${seconds} s. ${machineLoad()}`);
}

main().catch((error: unknown) => {
  console.error(`bench could not run: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
