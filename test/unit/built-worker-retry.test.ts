import assert from 'node:assert';
import { describe, expect, it, vi } from 'vitest';
import { runTool } from '../../scripts/cli';
import { isMiniflareSyncProxyRace } from '../../scripts/miniflare-proxy-race';

/** Throws from a method of a class named as miniflare's, so the stack names it as miniflare's does. */
class SynchronousFetcher {
  fetch(answerId: number | undefined, askedId: number): void {
    assert(answerId === askedId);
  }
}

function thrown(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
}

describe('starting the built worker again', () => {
  it('only after miniflare lost a synchronous proxy answer', () => {
    expect(
      isMiniflareSyncProxyRace(thrown(() => new SynchronousFetcher().fetch(undefined, 3))),
    ).toBe(true);
  });

  it('never after any other failure', () => {
    expect(isMiniflareSyncProxyRace(thrown(() => assert.equal(1, 2)))).toBe(false);
    expect(isMiniflareSyncProxyRace(new Error('D1_ERROR: no such table'))).toBe(false);
    expect(isMiniflareSyncProxyRace('SynchronousFetcher')).toBe(false);
  });
});

describe('a CLI whose local platform lost a synchronous proxy answer', () => {
  it('says so in words and exits 1, where Miniflare would only print false == true', async () => {
    const printed: string[] = [];
    const error = vi.spyOn(console, 'error').mockImplementation((line: string) => {
      printed.push(line);
    });
    try {
      const code = await runTool([], {
        usage: 'usage',
        parseArgs: () => ({
          kind: 'run' as const,
          command: null,
          options: { remote: false, environment: 'development' as const },
        }),
        run: async () => {
          throw thrown(() => new SynchronousFetcher().fetch(undefined, 3));
        },
      });
      expect(code).toBe(1);
      expect(printed).toEqual([
        'error: the local platform (Miniflare) lost an answer on a busy machine; read the state again before running this once more',
      ]);
    } finally {
      error.mockRestore();
    }
  });
});
