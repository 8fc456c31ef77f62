import { renderToReadableStream } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SCREEN_IDS } from '../../../shared/screens';
import { signedPair } from '../../fixtures/signed-cookies';
import { freshApp } from '../fetch-app';

/**
 * Every page in React's development build, as `npm start` renders it, with no warning from React:
 * a list without keys, a tag inside one it may not be in (a hydration mismatch waiting in the
 * browser), a prop React does not know. The other worker files render in React's production
 * build, as a deploy does, where React says none of this (vitest.config.ts, the worker-apart
 * project, which runs this file in a workerd of its own built for development).
 */

const VISITOR = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';

let lines: string[] = [];

beforeEach(() => {
  lines = [];
  for (const method of ['error', 'warn'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(' '));
    });
  }
  vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** What was printed that is not one of the worker's own log lines (one JSON object a line). */
function reactWarnings(): string[] {
  return lines.filter((line) => {
    try {
      return typeof JSON.parse(line) !== 'object';
    } catch {
      return true;
    }
  });
}

describe("React's development build", () => {
  it('is the build this file renders in, and its warnings are caught here', async () => {
    const items = ['a', 'b'];
    // biome-ignore lint/correctness/useJsxKeyInIterable: the warning this test must catch
    const keyless = items.map((item) => <li>{item}</li>);
    const stream = await renderToReadableStream(<ul>{keyless}</ul>);
    await new Response(stream).text();
    expect(reactWarnings().join('\n')).toMatch(/unique "key" prop/);
  });

  it('warns of nothing on any screen, in English or Arabic, on the console or a missing page', async () => {
    const fetchApp = freshApp();
    const cookie = `userUuid=${VISITOR}; ${await signedPair('gf_variant', VISITOR, 'default')}`;
    const paths = [...SCREEN_IDS.map((screen) => `/${screen}`), '/console', '/no-such-page'];
    for (const language of ['en', 'ar']) {
      for (const path of paths) {
        const response = await fetchApp(path, {
          headers: { cookie, 'accept-language': language },
        });
        await response.text();
        expect(response.status, path).toBeLessThan(500);
        expect(reactWarnings(), `${path} in ${language}`).toEqual([]);
      }
    }
  });
});
