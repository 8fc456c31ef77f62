import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type ConsoleMessage,
  chromium,
  type Page,
} from 'playwright-core';
import { onTestFailed } from 'vitest';
import { GIS_SCRIPT_URL } from '../../islands/signup/google-identity';
import { type BuiltWorker, startBuiltWorker } from '../../scripts/built-worker';
import { CHROMIUM_FLAGS, TEST_CHROMIUM_PATH } from '../../scripts/chromium';
import { secretsIn } from '../log-secrets';
import { PATIENCE_MS } from './patience';
import { VisitorPool } from './visitor-pool';

export type VisitorOptions = Pick<
  BrowserContextOptions,
  'javaScriptEnabled' | 'locale' | 'reducedMotion' | 'userAgent' | 'viewport'
> & {
  /**
   * A browser that has never loaded the site, its HTTP cache empty: for what a first visit
   * fetches. Otherwise the visitor may get a browser an earlier visitor of this file left, with
   * the scripts in its cache but no cookie or storage of theirs (visitor-pool.ts).
   */
  emptyCache?: boolean;
};

export interface BrowserSession {
  worker: BuiltWorker;
  browser: Browser;
  /**
   * A fresh visitor: no cookies and no storage. `context.close()` when done: the browser then
   * forgets the visitor and may serve the next one.
   */
  newVisitor(options?: VisitorOptions): Promise<{
    context: BrowserContext;
    page: Page;
    problems: string[];
    blocked: string[];
    /** Dropped requests for our own files that the page asked for again and got (watchPage). */
    recovered: string[];
  }>;
  /**
   * Closes the file's contexts and its worker, then fails (the file's afterAll) if any line the
   * worker printed held a secret's shape (../log-secrets.ts): a link token, a card number, ...
   */
  stop(): Promise<void>;
}

/**
 * Third-party URLs a page asks for by design, which the tests' closed network refuses
 * (OFFLINE_FLAG below: Chromium resolves no host but localhost): Google
 * Identity Services (the Continue with Google button). The page must cope with the refusal (it
 * says Google Sign-In is not available), so the refusal is not a problem, but it is recorded.
 */
export const EXPECTED_THIRD_PARTY = [GIS_SCRIPT_URL];

const isExpectedThirdParty = (url: string) =>
  EXPECTED_THIRD_PARTY.some((expected) => url.startsWith(expected));

/**
 * Records a page's console errors and warnings (hydration mismatches, CSP violations), uncaught
 * exceptions, 4xx/5xx answers and failed requests into `problems`; a refused request for an
 * expected third-party script goes into `blocked` instead. If the test watching it fails, what
 * the page showed then goes to stderr (reportOnFailure).
 */
export function watchPage(page: Page): {
  problems: string[];
  blocked: string[];
  recovered: string[];
} {
  const problems: string[] = [];
  const blocked: string[] = [];
  const recovered: string[] = [];
  const dropped = droppedAssets(problems, recovered);
  const isRefusedThirdParty = (message: ConsoleMessage) =>
    isExpectedThirdParty(message.location().url) &&
    /ERR_NAME_NOT_RESOLVED|ERR_BLOCKED_BY_CLIENT/.test(message.text());
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    if (isRefusedThirdParty(message)) return;
    // Chromium's echo of a 4xx/5xx answer: the response itself is recorded below, with its URL.
    if (/^Failed to load resource: the server responded with a status of \d+/.test(message.text()))
      return;
    // Its echo of a dropped connection: the failed request is recorded below, with its URL.
    const echo = /^Failed to load resource: (net::\S+)$/.exec(message.text());
    if (echo && DROPPED_CONNECTION.test(echo[1]!)) return;
    problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  reportOnFailure(page, problems);
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    else dropped.answered(response.url());
  });
  page.on('requestfailed', (request) => {
    // Requests cut short by moving to the next page are not failures.
    const reason = request.failure()?.errorText ?? '';
    if (reason === 'net::ERR_ABORTED') return;
    // The closed network's refusal, or a test's own (Chromium names a request a route aborted
    // 'net::ERR_BLOCKED_BY_CLIENT.Inspector').
    const refused = /^net::(ERR_NAME_NOT_RESOLVED|ERR_BLOCKED_BY_CLIENT)/.test(reason);
    if (refused && isExpectedThirdParty(request.url())) {
      blocked.push(request.url());
      return;
    }
    const problem = `failed ${request.url()} ${reason}`;
    problems.push(problem);
    if (DROPPED_CONNECTION.test(reason)) dropped.failed(request.url(), problem);
  });
  return { problems, blocked, recovered };
}

/**
 * A connection the server closed without an answer. The local workerd did so for one of our
 * scripts while two full suites shared the machine (net::ERR_EMPTY_RESPONSE on an island's
 * chunk); the page asked again, as Chromium does after a failed modulepreload and the islands
 * do after a failed import (islands/hydrate.ts, SPEC.md §9), and went on whole.
 */
const DROPPED_CONNECTION = /^net::ERR_(EMPTY_RESPONSE|CONNECTION_RESET|CONNECTION_CLOSED)$/;

/** Our own built files: what the page asks for again when a first request is dropped. */
const isOwnAsset = (url: URL) =>
  (url.hostname === 'localhost' || url.hostname === '127.0.0.1') &&
  url.pathname.startsWith('/assets/');

/**
 * Keeps a dropped request for one of our own assets in `problems` only until the same file (any
 * query: the islands' retry adds `?retry=N`) is answered: then the page has what it asked for
 * and the visitor saw nothing, so the drop moves to `recovered`. A drop never asked for again,
 * or asked for and refused, stays a problem, as does any drop of a page, an API call or a third
 * party's file.
 */
function droppedAssets(problems: string[], recovered: string[]) {
  const waiting = new Map<string, string[]>();
  return {
    failed(href: string, problem: string) {
      const url = new URL(href);
      if (!isOwnAsset(url)) return;
      waiting.set(url.pathname, [...(waiting.get(url.pathname) ?? []), problem]);
    },
    answered(href: string) {
      const { pathname } = new URL(href);
      for (const problem of waiting.get(pathname) ?? []) {
        const at = problems.indexOf(problem);
        if (at >= 0) problems.splice(at, 1);
        recovered.push(problem);
      }
      waiting.delete(pathname);
    },
  };
}

/**
 * The embedded portal answers a charge's polling result at once, instead of after the second
 * `npm start` gives it: a walk through a flow charges twice, and a wait between polls
 * (poll-result.ts) would cost it two seconds. The file about waiting for a charge
 * (checkout-confirming) sets a delay of its own.
 */
const ANSWERED_AT_ONCE = { PORTAL_POLLING_DELAY_MS: '0' };

/**
 * Production's rate limits, which a file meets at their boundaries (built-worker-reset's lookup
 * limit; the limits themselves are the worker tests'), rather than the 20 times looser ones
 * `npm start` applies (worker/rate-limits/rate-limit-gate.ts, rulesFor); a file walking as `npm start`
 * does binds RATE_LIMITS to 'development' (console-ramp's 62 declines of one card).
 */
const PRODUCTION_LIMITS = { RATE_LIMITS: 'production' };

/**
 * No visitor in the field vitals' sample (worker/collector/vitals-sample.ts): the files count a
 * page's events exactly, and a tenth of visitors (the default) would add a web_vitals event by
 * chance. The file about vitals binds VITALS_SAMPLE_RATE to 1.
 */
const NO_VITALS = { VITALS_SAMPLE_RATE: '0' };

/**
 * No test may reach the internet (ARCHITECTURE.md). Chromium itself resolves no host name but
 * localhost, so a request anywhere else fails at once with net::ERR_NAME_NOT_RESOLVED, as on a
 * closed network. Refusing them here rather than with a catch-all `context.route` keeps Playwright
 * out of every request: a route sends each one through the test process and turns off the HTTP
 * cache, which doubled the time of a page load.
 */
const OFFLINE_FLAG = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost';

/**
 * One renderer process for every page, not one per site and context: a new context or a
 * navigation no longer starts a renderer (17 of them for flows.test.ts's seven tests), which cost
 * flows.test.ts's Chromium 17-20 processor-seconds instead of 14-15, measured back to back. Pages
 * still keep their own storage, cookies and HTTP cache (one per context); a page with a route
 * has its caches turned off by Playwright, so no script reaches it from another page's memory.
 */
const ONE_RENDERER_FLAG = '--renderer-process-limit=1';

/**
 * One Chromium per test process, launched on first use and shared by the process's browser files
 * one after another (rtl-styles.test.ts too, which needs no worker) (the browser project's files share their process: isolate: false in
 * vitest.config.ts). Launched in this process, Playwright talks to it directly rather than through
 * a server in another process, which cost every protocol message a second round of encoding.
 * Browser contexts are not shared between files: a renderer kept warm for the next file served it
 * our scripts from memory, past the routes of a test that delays them, and order-dependent
 * failures followed. Chromium ends with the process.
 */
let processBrowser: Promise<Browser> | undefined;

export function sharedBrowser(): Promise<Browser> {
  processBrowser ??= chromium
    .launch({
      executablePath: TEST_CHROMIUM_PATH,
      // Playwright adds --headless itself and starts from a fresh, empty profile.
      args: [
        ...CHROMIUM_FLAGS.filter((flag) => flag !== '--headless'),
        OFFLINE_FLAG,
        ONE_RENDERER_FLAG,
      ],
      headless: true,
    })
    .then(patientContexts);
  return processBrowser;
}

/** Every context `browser` makes waits PATIENCE_MS for a step, not Playwright's 30 s. */
function patientContexts(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(PATIENCE_MS);
    return context;
  };
  return browser;
}

/**
 * When the test that took this visitor fails, what its page showed at that moment, on stderr:
 * its URL, the problems watched so far and the start of its visible text. A failure seen once on
 * a loaded machine (a dialog that never opened, a click refused) is then readable from the run's
 * log alone, which the test's own error does not say.
 */
function reportOnFailure(page: Page, problems: readonly string[]): void {
  try {
    onTestFailed(async ({ task }) => {
      if (page.isClosed()) return;
      const text = await page
        .locator('body')
        .innerText({ timeout: 5_000 })
        .catch((error: unknown) => `(unread: ${String(error)})`);
      console.error(
        [
          `${task.name}: the page at ${page.url()} when it failed`,
          `problems: ${JSON.stringify(problems)}`,
          `text: ${text.replace(/\s+/g, ' ').slice(0, 1_500)}`,
        ].join('\n'),
      );
    });
  } catch {
    // A visitor taken outside a test (in beforeAll) has no test to report on.
  }
}

const DEFAULT_BINDINGS = { ...ANSWERED_AT_ONCE, ...PRODUCTION_LIMITS, ...NO_VITALS };

/** A built worker this process keeps for the files that ask for the same bindings. */
interface KeptWorker {
  worker: Promise<BuiltWorker>;
  /** A file holds it: a second session of that file gets a worker of its own. */
  busy: boolean;
  /** A file has had it: the next one empties it first. */
  used: boolean;
  /** The log watch of the file holding it. */
  watch: (line: string) => void;
}

/**
 * The process's built workers, by their bindings and `request.cf`: the default one, which most
 * files take, and the last other one asked for. Kept between files and emptied for each next
 * one with `reset()` (scripts/built-worker.ts), rather than started for each: a start cost the
 * test process and workerd about 1.8 CPU-seconds and 3 s, a reset 0.3 and under 1. The process's
 * files run one after another (isolate: false in vitest.config.ts), so no two files meet in one.
 * Workerd ends with the process.
 */
const keptWorkers = new Map<string, KeptWorker>();
const DEFAULT_KEY = workerKey(DEFAULT_BINDINGS, undefined);

function workerKey(bindings: Record<string, string>, cf: Record<string, unknown> | undefined) {
  return JSON.stringify([Object.entries(bindings).sort(), cf ?? null]);
}

/**
 * The kept worker for these bindings, emptied of what an earlier file left, or a new one; a
 * kept worker with other bindings than the default's and these is stopped first, so a process
 * holds two workerds at most. `release` hands it back when the file is done.
 */
async function keptWorker(
  bindings: Record<string, string>,
  cf: Record<string, unknown> | undefined,
  watch: (line: string) => void,
): Promise<{ worker: BuiltWorker; release(): void } | undefined> {
  const key = workerKey(bindings, cf);
  const found = keptWorkers.get(key);
  if (found?.busy) return undefined;
  const kept = found ?? (await startKept(key, bindings, cf));
  kept.busy = true;
  kept.watch = watch;
  try {
    const worker = await kept.worker;
    if (kept.used) await worker.reset();
    kept.used = true;
    return {
      worker,
      release() {
        kept.busy = false;
        kept.watch = () => {};
      },
    };
  } catch (error) {
    // A worker that failed to start fails the file; one that could not be emptied (its storage
    // or its databases not answering) is replaced by a new one.
    keptWorkers.delete(key);
    await kept.worker.then((worker) => worker.stop()).catch(() => {});
    if (!kept.used) throw error;
    console.warn(`The kept worker could not be emptied, so a new one starts: ${String(error)}`);
    return keptWorker(bindings, cf, watch);
  }
}

async function startKept(
  key: string,
  bindings: Record<string, string>,
  cf: Record<string, unknown> | undefined,
): Promise<KeptWorker> {
  for (const [otherKey, other] of keptWorkers) {
    if (otherKey === DEFAULT_KEY || other.busy) continue;
    keptWorkers.delete(otherKey);
    await (await other.worker).stop();
  }
  const kept: KeptWorker = {
    worker: startBuiltWorker({
      quiet: true,
      resettable: true,
      bindings,
      cf,
      onLogLine: (line) => kept.watch(line),
    }),
    busy: false,
    used: false,
    watch: () => {},
  };
  keptWorkers.set(key, kept);
  return kept;
}

/**
 * The built worker in workerd plus this process's Chromium, which reaches nothing but
 * localhost. The worker is the process's kept one for these bindings (keptWorker), emptied as if
 * just started, so a file's KV, D1, Durable Objects, faults and per-address limits are the
 * file's alone; a second session in one file gets a worker of its own, stopped with it.
 */
export async function startBrowserSession(
  options: { bindings?: Record<string, string>; cf?: Record<string, unknown> } = {},
): Promise<BrowserSession> {
  // Every line the worker prints, looked at as it comes (a test may empty `worker.logs`).
  const leaks: string[] = [];
  const watchLine = (line: string) => {
    const secrets = secretsIn(line);
    if (secrets.length > 0) leaks.push(`  ${secrets.join(', ')}: ${line.slice(0, 400)}`);
  };
  const bindings = { ...DEFAULT_BINDINGS, ...options.bindings };
  const [browser, kept] = await Promise.all([
    sharedBrowser(),
    keptWorker(bindings, options.cf, watchLine),
  ]);
  const worker =
    kept?.worker ??
    (await startBuiltWorker({
      quiet: true,
      // Only for the migrated databases a resettable worker starts with (built-worker.ts).
      resettable: true,
      bindings,
      cf: options.cf,
      onLogLine: watchLine,
    }));
  const visitors = new VisitorPool(browser, worker.url);
  return {
    worker,
    browser,
    async newVisitor(visitorOptions = {}) {
      const { context, page } = await visitors.take(visitorOptions);
      return { context, page, ...watchPage(page) };
    },
    async stop() {
      // The file's contexts close, the pool's and any a test opened itself and left; the
      // browser serves the next file, and the kept worker too once emptied.
      await visitors.forget();
      for (const context of browser.contexts()) await context.close();
      if (kept) kept.release();
      else await worker.stop();
      if (leaks.length > 0) {
        throw new Error(`the worker's log held a secret:\n${leaks.splice(0).join('\n')}`);
      }
    },
  };
}
