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
 * One Chromium for the whole browser project: each file connects to it and opens contexts of its
 * own (fresh cookies and storage), instead of launching and closing a browser per file.
 */
export default async function startChromium(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    // Playwright adds --headless itself and starts from a fresh, empty profile.
    args: CHROMIUM_FLAGS.filter((flag) => flag !== '--headless'),
    headless: true,
  });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
