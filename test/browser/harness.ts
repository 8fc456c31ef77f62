import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { type BuiltWorker, startBuiltWorker } from '../../scripts/built-worker';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../scripts/chromium';

export interface BrowserSession {
  worker: BuiltWorker;
  browser: Browser;
  /** A fresh visitor: new cookies and storage. */
  newVisitor(options?: {
    javaScriptEnabled?: boolean;
  }): Promise<{ context: BrowserContext; page: Page; problems: string[] }>;
  stop(): Promise<void>;
}

/**
 * The built worker in workerd plus a real Chromium. Each page records console errors and
 * warnings (hydration mismatches, CSP violations) and uncaught exceptions into `problems`.
 */
export async function startBrowserSession(): Promise<BrowserSession> {
  const worker = await startBuiltWorker({ quiet: true });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    // Playwright adds --headless itself and starts from a fresh, empty profile.
    args: CHROMIUM_FLAGS.filter((flag) => flag !== '--headless'),
    headless: true,
  });
  return {
    worker,
    browser,
    async newVisitor(options = {}) {
      const context = await browser.newContext({ baseURL: worker.url.href, ...options });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') {
          problems.push(`${message.type()}: ${message.text()}`);
        }
      });
      page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
      page.on('response', (response) => {
        if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
      });
      page.on('requestfailed', (request) => {
        // Requests cut short by moving to the next page are not failures.
        const reason = request.failure()?.errorText ?? '';
        if (reason !== 'net::ERR_ABORTED') problems.push(`failed ${request.url()} ${reason}`);
      });
      return { context, page, problems };
    },
    async stop() {
      await browser.close();
      await worker.stop();
    },
  };
}
