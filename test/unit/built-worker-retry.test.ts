import assert from 'node:assert';
import { describe, expect, it } from 'vitest';
import { isMiniflareSyncProxyRace } from '../../scripts/built-worker';

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
