import { describe, expect, it } from 'vitest';
import { CONSOLE_AREAS, type ConsoleArea, consolePath } from '../../../shared/console-api/pages';
import { freshApp } from '../fetch-app';

/**
 * The console's addresses (shared/console-api/pages.ts) through the development worker: each
 * area's page and each thing's page answers the console's shell, whose script draws the page the
 * address names; any other path under /console is no page (404), not a shell that would draw the
 * Overview for an address a marketer mistyped or a link that rotted.
 */

const fetchApp = freshApp();

async function shellAt(path: string) {
  const response = await fetchApp(path);
  const body = await response.text();
  return { status: response.status, isShell: body.includes('<div id="console-root">') };
}

describe('the console’s pages', () => {
  it('answers the shell at every area’s page, with or without a trailing slash', async () => {
    for (const area of Object.keys(CONSOLE_AREAS) as ConsoleArea[]) {
      expect(await shellAt(consolePath(area)), area).toEqual({ status: 200, isShell: true });
    }
    expect(await shellAt('/console/traffic/')).toEqual({ status: 200, isShell: true });
  });

  it('answers the shell at an experiment’s, a screen’s and a version’s own page', async () => {
    for (const path of [
      '/console/experiments/price-us',
      '/console/experiments/holdout',
      '/console/content/one_pager_ai',
      '/console/history/v12',
    ]) {
      expect(await shellAt(path), path).toEqual({ status: 200, isShell: true });
    }
  });

  it('answers 404 for a path that is no page, and never the shell', async () => {
    for (const path of [
      '/console/nope',
      '/console/traffic/tiktok',
      '/console/experiments/price-us/results',
      '/console/experiments/%3Cscript%3E',
      '/console/history/%E0%A4%A',
      '/console/Traffic',
    ]) {
      const { status, isShell } = await shellAt(path);
      expect({ status, isShell }, path).toEqual({ status: 404, isShell: false });
    }
  });

  it('keeps its calls apart: an unknown call under /console/api is JSON, not a page', async () => {
    const response = await fetchApp('/console/api/experiments-list');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
