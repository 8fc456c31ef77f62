import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { VisitorOptions } from './harness';

/**
 * Browser contexts a file's visitors take turns in. A visitor's first page in a new context cost
 * Chromium 2.1 CPU-seconds (checkout_v3_tr, 15 loads): a new context, a new renderer process, and
 * every script fetched and compiled again. In a used context whose renderer is still alive it
 * cost 0.96: the scripts come from the HTTP cache and the renderer has compiled them before. A
 * new page in a used context whose pages had all closed cost 1.56, its renderer started anew, so
 * a returned context keeps one page open on the site (robots.txt, no script) to hold it.
 *
 * A context whose visitor has left is wiped of what would make the next visitor a returning one:
 * cookies, permissions, local storage, IndexedDB and the caches of service workers; session
 * storage, history and page state go with the visitor's pages. Only the HTTP cache of our
 * immutable, content-hashed scripts and images stays.
 *
 * A context a test changed for good (a route, an init script, an exposed function, extra headers,
 * a listener on the context itself, a fake clock) is closed instead of reused: those outlive a
 * visitor.
 */

/** BrowserContext methods whose effect outlives the visitor that called them. */
const LASTING_CHANGES = [
  'addInitScript',
  'addListener',
  'exposeBinding',
  'exposeFunction',
  'grantPermissions',
  'on',
  'once',
  'prependListener',
  'route',
  'routeFromHAR',
  'routeWebSocket',
  'setExtraHTTPHeaders',
  'setGeolocation',
  'setHTTPCredentials',
  'setOffline',
] as const satisfies readonly (keyof BrowserContext)[];

/** Clock methods, each of which installs a fake time in the context's pages to come. */
const CLOCK_CHANGES = [
  'install',
  'fastForward',
  'pauseAt',
  'resume',
  'runFor',
  'setFixedTime',
  'setSystemTime',
] as const satisfies readonly (keyof BrowserContext['clock'])[];

/** Everything a site can keep in a browser, except the HTTP cache (CDP Storage.StorageType). */
const VISITOR_STORAGE =
  'cookies,local_storage,indexeddb,cache_storage,service_workers,file_systems,websql,shared_storage,storage_buckets';

export class VisitorPool {
  /** Contexts whose visitor left, by their options. */
  private readonly idle = new Map<string, BrowserContext[]>();
  /** Each context made here, with its own close, which `context.close()` no longer is. */
  private readonly closing = new Map<BrowserContext, () => Promise<void>>();

  constructor(
    private readonly browser: Browser,
    private readonly site: URL,
  ) {}

  async take(options: VisitorOptions): Promise<{ context: BrowserContext; page: Page }> {
    const { emptyCache = false, ...contextOptions } = options;
    const key = JSON.stringify(contextOptions);
    const used = emptyCache ? undefined : this.idle.get(key)?.pop();
    if (used) {
      const page = await used.newPage();
      await this.forgetSite(used, page);
      return { context: used, page };
    }
    const context = await this.browser.newContext({ baseURL: this.site.href, ...contextOptions });
    this.returnOnClose(context, key);
    return { context, page: await context.newPage() };
  }

  /** Closes every context made here, in use or waiting, for good: the next file starts anew. */
  async forget(): Promise<void> {
    this.idle.clear();
    for (const close of this.closing.values()) await close();
    this.closing.clear();
  }

  /**
   * Local storage and the rest are kept per origin: the site's own, and the same port by address,
   * should a test have gone there.
   */
  private async forgetSite(context: BrowserContext, page: Page): Promise<void> {
    const cdp = await context.newCDPSession(page);
    try {
      for (const host of ['localhost', '127.0.0.1']) {
        const origin = `${this.site.protocol}//${host}:${this.site.port}`;
        await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: VISITOR_STORAGE });
      }
    } finally {
      await cdp.detach();
    }
  }

  /** The test's `context.close()` hands a context it did not change for good back to the pool. */
  private returnOnClose(context: BrowserContext, key: string): void {
    let changed = false;
    const mutable = context as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const method of LASTING_CHANGES) {
      const original = mutable[method];
      if (!original) throw new Error(`BrowserContext has no ${method}: update LASTING_CHANGES`);
      mutable[method] = (...args: unknown[]) => {
        changed = true;
        return original.apply(context, args);
      };
    }
    // The clock (context.clock, which page.clock is) installs its fake time in every later page
    // of the context through Playwright's own channel, past the methods above.
    const clock = context.clock as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const method of CLOCK_CHANGES) {
      const original = clock[method];
      if (!original) throw new Error(`Clock has no ${method}: update CLOCK_CHANGES`);
      clock[method] = (...args: unknown[]) => {
        changed = true;
        return original.apply(context.clock, args);
      };
    }
    const close = context.close.bind(context);
    this.closing.set(context, () => close());
    let keeper: Page | undefined;
    context.close = async (closeOptions) => {
      if (changed) return close(closeOptions);
      if (!keeper) {
        keeper = await context.newPage();
        await keeper.goto(new URL('/robots.txt', this.site).href);
      }
      // Closing its pages ends the visit: session storage and page state go with them.
      for (const page of context.pages()) if (page !== keeper) await page.close();
      await context.clearCookies();
      await context.clearPermissions();
      const idle = this.idle.get(key) ?? [];
      idle.push(context);
      this.idle.set(key, idle);
    };
  }
}
