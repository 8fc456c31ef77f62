import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../scripts/chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the run's one Chromium listens (harness.ts connects each file to it). */
    chromiumEndpoint: string;
  }
}

/**
 * No test may reach the internet (ARCHITECTURE.md). Chromium itself resolves no host name but
 * localhost, so a request anywhere else fails at once with net::ERR_NAME_NOT_RESOLVED, as on a
 * closed network. Refusing them here rather than with a catch-all `context.route` keeps Playwright
 * out of every request: a route sends each one through this process and turns off the HTTP
 * cache, which doubled the time of a page load.
 */
export const OFFLINE_FLAG = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost';

/**
 * One Chromium for the whole browser project: each file connects to it and opens contexts of its
 * own (fresh cookies and storage), instead of launching and closing a browser per file.
 */
export default async function startChromium(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    // Playwright adds --headless itself and starts from a fresh, empty profile.
    args: [...CHROMIUM_FLAGS.filter((flag) => flag !== '--headless'), OFFLINE_FLAG],
    headless: true,
  });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
