import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type ConsoleMessage,
  chromium,
  type Page,
} from 'playwright-core';
import { inject } from 'vitest';
import { GIS_SCRIPT_URL } from '../../islands/signup/google-identity';
import { type BuiltWorker, startBuiltWorker } from '../../scripts/built-worker';

export interface BrowserSession {
  worker: BuiltWorker;
  browser: Browser;
  /** A fresh visitor: new cookies and storage. */
  newVisitor(
    options?: Pick<BrowserContextOptions, 'javaScriptEnabled' | 'locale' | 'reducedMotion'>,
  ): Promise<{ context: BrowserContext; page: Page; problems: string[]; blocked: string[] }>;
  stop(): Promise<void>;
}

/**
 * Third-party URLs a page asks for by design, which the tests' closed network refuses: Google
 * Identity Services (the Continue with Google button). The page must cope with the refusal (it
 * says Google Sign-In is not available), so the refusal is not a problem, but it is recorded.
 */
export const EXPECTED_THIRD_PARTY = [GIS_SCRIPT_URL];

const isExpectedThirdParty = (url: string) =>
  EXPECTED_THIRD_PARTY.some((expected) => url.startsWith(expected));

/**
 * No test may reach the internet (ARCHITECTURE.md): every request of a context that is not to
 * the worker is refused at once, as a closed network or a blocker would, so a third-party script
 * fails fast instead of hanging until its timeout.
 */
async function keepOffline(context: BrowserContext, origin: string): Promise<void> {
  await context.route(
    (url) => url.origin !== origin,
    (route) => route.abort('blockedbyclient'),
  );
}

/**
 * Records a page's console errors and warnings (hydration mismatches, CSP violations), uncaught
 * exceptions, 4xx/5xx answers and failed requests into `problems`; a refused request for an
 * expected third-party script goes into `blocked` instead.
 */
function watchPage(page: Page): { problems: string[]; blocked: string[] } {
  const problems: string[] = [];
  const blocked: string[] = [];
  const isRefusedThirdParty = (message: ConsoleMessage) =>
    isExpectedThirdParty(message.location().url) && /ERR_BLOCKED_BY_CLIENT/.test(message.text());
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    if (isRefusedThirdParty(message)) return;
    // Chromium's echo of a 4xx/5xx answer: the response itself is recorded below, with its URL.
    if (/^Failed to load resource: the server responded with a status of \d+/.test(message.text()))
      return;
    problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => {
    // Requests cut short by moving to the next page are not failures.
    const reason = request.failure()?.errorText ?? '';
    if (reason === 'net::ERR_ABORTED') return;
    // Chromium names a request the test refused 'net::ERR_BLOCKED_BY_CLIENT.Inspector'.
    if (reason.startsWith('net::ERR_BLOCKED_BY_CLIENT') && isExpectedThirdParty(request.url())) {
      blocked.push(request.url());
      return;
    }
    problems.push(`failed ${request.url()} ${reason}`);
  });
  return { problems, blocked };
}

/**
 * The built worker in workerd plus the run's Chromium (chromium-server.ts). Each file gets a
 * worker of its own: its KV, D1, faults and per-address limits are the file's alone, so files can
 * run side by side. Every context the session's browser opens (through `newVisitor` or
 * `session.browser.newContext` alike) is kept off the internet.
 */
export async function startBrowserSession(
  options: { bindings?: Record<string, string> } = {},
): Promise<BrowserSession> {
  const worker = await startBuiltWorker({ quiet: true, bindings: options.bindings });
  const browser = await chromium.connect(inject('chromiumEndpoint'));
  const openContext = browser.newContext.bind(browser);
  browser.newContext = async (contextOptions) => {
    const context = await openContext(contextOptions);
    await keepOffline(context, worker.url.origin);
    return context;
  };
  return {
    worker,
    browser,
    async newVisitor(visitorOptions = {}) {
      const context = await browser.newContext({ baseURL: worker.url.href, ...visitorOptions });
      const page = await context.newPage();
      return { context, page, ...watchPage(page) };
    },
    async stop() {
      // Closes this file's contexts and its connection; the browser itself serves the next file.
      await browser.close();
      await worker.stop();
    },
  };
}
