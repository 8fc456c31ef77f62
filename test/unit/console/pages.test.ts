import { describe, expect, it } from 'vitest';
import {
  CONSOLE_AREAS,
  type ConsoleArea,
  consolePageOf,
  consolePath,
  pageOfOldFragment,
} from '../../../shared/console-api/pages';

/** The console's addresses (shared/console-api/pages.ts): read back as written, and no others. */
describe('the console’s addresses', () => {
  it('reads back every area’s address, and every thing’s, as the page written', () => {
    for (const area of Object.keys(CONSOLE_AREAS) as ConsoleArea[]) {
      expect(consolePageOf(consolePath(area))).toEqual({ area, id: null });
    }
    for (const [area, id] of [
      ['experiments', 'price-us'],
      ['content', 'one_pager_ai'],
      ['history', 'v12'],
    ] as const) {
      expect(consolePath(area, id)).toBe(`/console/${area}/${id}`);
      expect(consolePageOf(consolePath(area, id))).toEqual({ area, id });
    }
    expect(consolePath('overview')).toBe('/console');
    expect(consolePath('publish')).toBe('/console/publish');
  });

  it('takes a trailing slash as the same page, and refuses any path that names none', () => {
    expect(consolePageOf('/console/')).toEqual({ area: 'overview', id: null });
    expect(consolePageOf('/console/copy/')).toEqual({ area: 'copy', id: null });
    // Tools and agents' address from before the team's page took it in.
    expect(consolePageOf('/console/tools')).toEqual({ area: 'team', id: null });
    expect(consolePageOf('/console/team')).toEqual({ area: 'team', id: null });
    for (const path of [
      '/',
      '/consoles',
      '/console/api/state',
      '/console/preview/lp17',
      '/console/copy/landing.title',
      '/console//traffic',
      '/console/experiments/a/b',
      '/console/experiments/%ZZ',
      '/console/experiments/..',
      '/console/experiments/a%2Fb',
      `/console/experiments/${'x'.repeat(101)}`,
    ]) {
      expect(consolePageOf(path), path).toBeNull();
    }
  });

  it('opens an address of the one-page console at its area’s page', () => {
    expect(pageOfOldFragment('#edit')).toEqual({ area: 'publish', id: null });
    expect(pageOfOldFragment('#traffic')).toEqual({ area: 'traffic', id: null });
    expect(pageOfOldFragment('#overview')).toEqual({ area: 'overview', id: null });
    expect(pageOfOldFragment('')).toBeNull();
    expect(pageOfOldFragment('#publish-note')).toBeNull();
  });
});
