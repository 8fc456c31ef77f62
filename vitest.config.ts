import { readdirSync, readFileSync } from 'node:fs';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './scripts/longest-first';

/**
 * The projects `npm test` runs:
 * - unit: pure logic in Node;
 * - worker and worker-apart: the worker inside workerd with
 *   real KV, D1, Durable Objects and queues (vitest-pool-workers);
 * - browser: the built development worker (dist/dev-worker) served by workerd, driven in Chromium
 *   (playwright-core).
 * Two or three files run at a time (maxWorkers below), group by group, each group's longest
 * files first (scripts/longest-first.ts); the worker tests' 60 s timeout (below) is what lets them
 * share the cores with Chromium.
 */
const portalMigrations = await readD1Migrations('portal/migrations');
const eventsMigrations = await readD1Migrations('worker/events-db/migrations');
const configMigrations = await readD1Migrations('worker/config/migrations');

/** How long the unit tests' Testing Library waits for what a page shows (the file says why). */
const UNIT_PATIENCE = 'test/unit/patience.ts';

/** Each unit file from fresh stores and storage, as its module graph is shared (the file says why). */
const FRESH_FILE = 'test/unit/fresh-file.ts';

/** React's development build without owner stacks, for the unit files' speed (the file says why). */
const NO_OWNER_STACKS = 'test/unit/no-owner-stacks.ts';

/** The worker files that each need a workerd of their own (the worker-apart project). */
const REAL_QUEUE_TEST = 'test/worker/collector/real-queue.test.ts';
const REACT_DEVELOPMENT_TEST = 'test/worker/render/development-build.test.tsx';
/** Needs an isolate that has loaded no language yet: a workerd's own first module graph. */
const SHIPPED_TEXT_TEST = 'test/worker/shipped-text.test.ts';
const CLI_TESTS = [
  'test/unit/config-cli.test.ts',
  'test/unit/experiments-cli.test.ts',
  // Publishes holdout moves to a local KV opened through wrangler.
  'test/unit/holdout-cli.test.ts',
  // Starts the built worker and runs npm run smoke against it.
  'test/unit/smoke-cli.test.ts',
  // Runs the translations CLI's printed example commands, each starting workerd.
  'test/unit/i18n/translations-examples.test.ts',
  // Opens a local R2 through wrangler and loads DuckDB's and chDB's native modules: a process
  // of its own.
  'test/unit/archive-warehouse.test.ts',
  // The same, and the portal's D1 and its CLI: docs/analytics.md's reconciliation.
  'test/unit/money-reconciliation.test.ts',
  // Starts the built worker and npm run mcp's server, an MCP client's child process.
  'test/unit/mcp-cli.test.ts',
];
/**
 * Unit files that replace modules (vi.mock, vi.doMock) or reload them (vi.resetModules): they
 * need a module graph of their own. Found by reading the files, so a new one is never missed.
 */
const MOCKING_TESTS = readdirSync('test/unit', { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .map((file) => `test/unit/${file}`)
  .filter((file) => /\bvi\.(mock|doMock|resetModules)\(/.test(readFileSync(file, 'utf8')));

/**
 * Files at a time for the worker groups, which wait as much as they work (see maxWorkers below).
 */
const BUSY_WAITERS = 3;

/**
 * Files at a time for the browser group (its projects must agree): two. A browser file's page
 * load keeps Chromium's renderer, compositor and browser processes busy on more than one core,
 * so a third file only made three Chromiums take turns. The browser project alone on an idle
 * machine, 2026-12-02, every test passing: 313 s wall and 536 processor-seconds at two, 317 s and
 * 620 at three; the 84 spared are what the check beside the group's start uses. The worker
 * project stays at three (BUSY_WAITERS): alone, 2026-12-02, 106 s and 195 processor-seconds at
 * two against 103 s and 201 at three. Neither those worker figures nor a `npm test` of 609 s
 * (1,077) measured that day came back: on 2026-12-03 a fresh clone's `npm test` took 805 s
 * (1,477), every test passing, and the next day the worker project alone 154-203 s and 306-395
 * processor-seconds, at a839033d and at 536e4331 alike; compare within one run.
 */
const BROWSER_FILES = 2;

/** The order the projects run in: each group after the one before (see maxWorkers below). */
const BROWSER_GROUP = 0;
const UNIT_GROUP = 1;
const WAITING_GROUP = 2;

/**
 * The worker inside workerd with real KV, D1, Durable Objects and queues (vitest-pool-workers), in
 * React's `react` build, which react, react-dom and worker/render/react-dom-server.ts pick by
 * NODE_ENV: production as a deploy renders (the worker files took 135 s instead of 151 s in the
 * development build), development as `npm start` does for the one file that holds every page
 * free of React's warnings (REACT_DEVELOPMENT_TEST).
 */
function workerProject(
  react: 'production' | 'development',
  test: {
    name: string;
    include: string[];
    exclude?: string[];
    isolate: boolean;
    sequence: { groupOrder: number };
    maxWorkers: number;
  },
  setupFiles: string[] = [],
) {
  return {
    // React's production build has no jsxDEV: the JSX is compiled for the build it meets.
    esbuild: { jsx: 'automatic' as const, jsxDev: react === 'development' },
    // wrangler.toml's [alias], which Vite does not read: the worker renders through the same
    // module as under `npm start` and a deploy, so a renderer that does not match React fails
    // these tests first.
    resolve: { alias: { 'react-dom/server': './worker/render/react-dom-server.ts' } },
    plugins: [
      cloudflareTest({
        // The development entry (wrangler.toml [env.development]: worker/dev.ts and its
        // bindings, PORTAL_DB among them), so `exports.default` carries the development kit.
        // Tests of the production app build it with createApp() (test/worker/fetch-app.ts).
        main: './worker/dev.ts',
        wrangler: { configPath: './wrangler.toml', environment: 'development' },
        miniflare: {
          bindings: {
            ENVIRONMENT: 'development',
            CONFIG_CACHE_TTL_MS: '0',
            // The tests hold production's rate limits at their boundaries; a test of `npm start`'s
            // own (worker/rate-limits/rate-limit-profile.ts) binds RATE_LIMITS to undefined.
            RATE_LIMITS: 'production',
            // Applied to PORTAL_DB, EVENTS_DB and CONFIG_DB by test/worker/fresh-storage.ts before each file.
            TEST_MIGRATIONS: portalMigrations,
            EVENTS_MIGRATIONS: eventsMigrations,
            CONFIG_MIGRATIONS: configMigrations,
          },
        },
      }),
    ],
    test: {
      ...test,
      // Per project, unlike a `define` of process.env, which Vitest sets in its own process for
      // every project alike.
      env: { NODE_ENV: react },
      setupFiles: [
        'test/worker/before-each-file.ts',
        'test/worker/secret-free-logs.ts',
        ...setupFiles,
      ],
      // A test sending 20 or more requests through the portal can pass 5 s on cores a whole
      // suite shares: beside the six-width walk and the console's click-everything walk in
      // Chromium, tests of 1 s alone (offer-property, split-gating, experiment-fixtures) passed
      // 20 s in full runs of 1,740 s; 60 s still stops one that hangs.
      testTimeout: 60_000,
      // Likewise a hook that empties the 64 experiment shards (experiment-fixtures.ts): on a
      // file's first test it also creates each shard and runs its migrations, which took over
      // 10 s in a loaded CI run.
      hookTimeout: 60_000,
    },
  };
}

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  test: {
    // Vitest's default on two cores is one worker (cores - 1), which ran every file one after
    // the other. Vitest runs the groups in turn anyway (one queue each), so each
    // kind takes the number that keeps both cores busy (sequence.groupOrder below, which a
    // project's own maxWorkers needs): the unit files, bound by their work, and the CLIs two at
    // a time; the worker groups, which also wait on workerd, three (BUSY_WAITERS); the browser
    // files two (BROWSER_FILES says why). Four were slower (826 s for the suite at four) and let
    // timing tests fail.
    maxWorkers: 2,
    // Each project's longest files first, group by group (scripts/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    reporters: ['default', './test/summary-reporter.ts'],
    // What a test prints (the worker's request log lines, above all) only where it failed: a
    // passing run printed 3,866 blocks of it, nearly all of npm test's 2.1 MB of output.
    silent: 'passed-only',
    // Each test's line, for the summary's rule that a test over 10 s says why in a `// slow:`
    // comment above its it( (test/summary-reporter.ts).
    includeTaskLocation: true,
    projects: [
      {
        esbuild: { jsx: 'automatic' },
        test: {
          name: 'unit',
          sequence: { groupOrder: UNIT_GROUP },
          include: ['test/unit/**/*.test.{ts,tsx}'],
          exclude: [...CLI_TESTS, ...MOCKING_TESTS],
          environment: 'node',
          setupFiles: [UNIT_PATIENCE, NO_OWNER_STACKS, FRESH_FILE],
          // Worker threads start and import faster than forked processes: the project took 119
          // CPU-seconds instead of 138 (vitest 4's default is forks).
          pool: 'threads' as const,
          // Files share a thread's module graph, so React, zod and the DOM libraries are loaded
          // once a thread rather than once a file: 71-78 CPU-seconds instead of 84-93 with the
          // files in shuffled orders (three runs, every test passing). A thread runs files of one
          // environment only (node or a file's happy-dom), so the sequencer runs them environment
          // by environment (scripts/longest-first.ts).
          isolate: false,
          // A console test renders the whole console in happy-dom: 1-3 s each in a full run, and
          // over 5 s (Vitest's default) with another npm test beside it, where the four console
          // UI files failed by timeout alone. A timeout stops a test that hangs; the suite's
          // speed is held by its budget (test/summary-reporter.ts).
          testTimeout: 30_000,
          // Likewise a hook: holdout-draw.test.ts's beforeAll replays its synthetic traffic in
          // 3.5 s alone and passed Vitest's default 10 s with the cores given to other work.
          hookTimeout: 30_000,
        },
      },
      {
        esbuild: { jsx: 'automatic' },
        test: {
          name: 'unit-mocks',
          sequence: { groupOrder: UNIT_GROUP },
          include: MOCKING_TESTS,
          environment: 'node',
          setupFiles: [UNIT_PATIENCE],
          // Each file's module graph of its own in a VM context of a shared thread: Node's
          // modules and Vite's transforms are kept across files, only ours and the libraries'
          // evaluated again. The project alone, back to back, every test passing: 21-23 s wall
          // and 36-39 processor-seconds, against 30-31 s and 52-54 in a thread of its own a file.
          pool: 'vmThreads' as const,
        },
      },
      {
        // The CLIs against local state start workerd through wrangler's platform proxy: each
        // file keeps a process of its own (forks), as `npm run config` does, rather than sharing
        // one with other files' threads.
        test: {
          name: 'cli',
          // With the unit files, two at a time: a CLI reaches local state through wrangler's
          // platform proxy, whose synchronous calls Miniflare answers through a worker thread;
          // three at a time beside the worker groups, one lost its answer (holdout-cli.test.ts
          // printed Miniflare's `error: false == true`).
          sequence: { groupOrder: UNIT_GROUP },
          include: CLI_TESTS,
          environment: 'node',
          pool: 'forks' as const,
          // Most tests here start a Node process (npx tsx) or a workerd: smoke-cli's run against
          // a closed port took over 5 s (Vitest's default) with the machine's two cores shared
          // by other test runs, and failed by timeout alone. A timeout stops a test that hangs.
          testTimeout: 30_000,
        },
      },
      workerProject(
        'production',
        {
          name: 'worker',
          sequence: { groupOrder: WAITING_GROUP },
          maxWorkers: BUSY_WAITERS,
          include: ['test/worker/**/*.test.{ts,tsx}'],
          exclude: [REAL_QUEUE_TEST, REACT_DEVELOPMENT_TEST, SHIPPED_TEXT_TEST],
          // One workerd per pool worker for all its files instead of one per file: starting
          // workerd and importing the worker into it took about 3 s a file, most of this project's
          // time. before-each-file.ts empties the bindings before each file, so files still see
          // only their own writes. Three workerds for the run's 177 files stay as fast at their
          // last file as at their first with the pool's patch (test/worker/pool-runtime.test.ts);
          // without it they were dealt into four projects of three, which cost 10 s of start each.
          isolate: false,
        },
        // The shared workerd's real queue would deliver one file's events into the next.
        ['test/worker/own-events-queue.ts'],
      ),
      // Each file in a workerd of its own: the real queue's messages outlive their file and would
      // meet the next file's reset of every Durable Object, the queue's own among them; React's
      // development build cannot share a workerd with the production one; the shipped text's
      // file needs an isolate that has loaded no language yet. First in the browser
      // group, as isolated projects are (scripts/longest-first.ts), beside its longest files on
      // cores those leave idle (the queue's file waits 5 s on its batch).
      workerProject('development', {
        name: 'worker-apart',
        sequence: { groupOrder: BROWSER_GROUP },
        maxWorkers: BROWSER_FILES,
        include: [REAL_QUEUE_TEST, REACT_DEVELOPMENT_TEST, SHIPPED_TEXT_TEST],
        isolate: true,
      }),
      {
        test: {
          name: 'browser',
          // First: the longest project, whose files wait most.
          maxWorkers: BROWSER_FILES,
          sequence: { groupOrder: BROWSER_GROUP },
          // Ends the workerds a killed test process left (test/browser/global-setup.ts).
          globalSetup: ['test/browser/global-setup.ts'],
          // What each file cost the cores, for the summary (test/browser/processor-seconds.ts).
          setupFiles: ['test/browser/processor-seconds.ts'],
          // test/load: a small run of npm run load (fault injection) on the same built worker.
          include: ['test/browser/**/*.test.ts', 'test/load/**/*.test.ts'],
          environment: 'node',
          // The console's long journeys take 20-31 s in an idle full run, and more than 60 s
          // beside a second npm test on the same two cores (a composed landing's journey failed so
          // by timeout alone). A timeout stops a test that hangs; the suite's speed is held by
          // its budget (test/summary-reporter.ts).
          testTimeout: 120_000,
          hookTimeout: 60_000,
          // A page's script starts after its first paint and shares two cores with another
          // file's Chromium, or another whole suite's: what it does can take longer than
          // expect.poll's default second. Only a failing poll waits this long
          // (PATIENCE_MS, test/browser/patience.ts, which this config cannot import).
          expect: { poll: { timeout: 90_000 } },
          // Files in a worker share one process (isolate: false), so playwright-core and the
          // helpers are loaded once, one Chromium serves them, and one workerd per set of
          // bindings, emptied before each next file (harness.ts); the two processes' workerds are
          // apart, so two browser files can run side by side.
          isolate: false,
        },
      },
    ],
  },
});
