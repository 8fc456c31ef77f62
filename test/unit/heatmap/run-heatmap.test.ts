import { describe, expect, it } from 'vitest';
import type { ClarityGlobals } from '../../../islands/heatmap/clarity';
import { type HeatmapDeps, runHeatmap } from '../../../islands/heatmap/run';
import type { ConsentAnswer } from '../../../islands/pixels/consent';
import type { HeatmapPage } from '../../../shared/analytics/heatmap';

const HEATMAP: HeatmapPage = {
  clarity: 'abcde12345',
  tags: [
    ['screen_name', 'signup'],
    ['exp_pw-price', 'cheap'],
  ],
};
const LOADER = 'https://www.clarity.ms/tag/abcde12345';

/** A page: its window, the scripts added, and a consent banner the test answers. */
function fakePage(known: ConsentAnswer | null = null) {
  const win: ClarityGlobals = {};
  const loaded: string[] = [];
  const listeners = new Set<(answer: ConsentAnswer | null) => void>();
  const deps: HeatmapDeps = {
    win,
    loadScript: async (src) => void loaded.push(src),
    consent: {
      known: () => known,
      listen: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  };
  const answer = (value: ConsentAnswer) => {
    for (const listener of [...listeners]) listener(value);
  };
  return { win, loaded, deps, answer, listeners };
}

describe('the heatmap on the page', () => {
  it('where consent is not required: the consent signal (analytics only), then the tags', () => {
    const page = fakePage();
    runHeatmap(HEATMAP, 'not_required', page.deps);
    expect(page.loaded).toEqual([LOADER]);
    expect(page.win.clarity?.q).toEqual([
      ['consentv2', { ad_Storage: 'denied', analytics_Storage: 'granted' }],
      ['set', 'screen_name', 'signup'],
      ['set', 'exp_pw-price', 'cheap'],
    ]);
  });

  it('consent pending: nothing until Accept, then it loads once', () => {
    const page = fakePage();
    runHeatmap(HEATMAP, 'pending', page.deps);
    expect(page.loaded).toEqual([]);
    expect(page.win.clarity).toBeUndefined();
    page.answer('granted');
    page.answer('granted');
    expect(page.loaded).toEqual([LOADER]);
    expect(page.listeners.size).toBe(0);
  });

  it('Decline on this page, or before (the cookie), or a denied state: never', () => {
    const declined = fakePage();
    runHeatmap(HEATMAP, 'pending', declined.deps);
    declined.answer('denied');
    declined.answer('granted');
    expect(declined.loaded).toEqual([]);

    const cookie = fakePage('denied');
    runHeatmap(HEATMAP, 'pending', cookie.deps);
    expect(cookie.listeners.size).toBe(0);

    const denied = fakePage();
    runHeatmap(HEATMAP, 'denied', denied.deps);
    denied.answer('granted');
    expect([...declined.loaded, ...cookie.loaded, ...denied.loaded]).toEqual([]);
    expect(denied.win.clarity).toBeUndefined();
  });

  it('an answer the worker had not seen yet (a page fetched ahead) counts', () => {
    const page = fakePage('granted');
    runHeatmap(HEATMAP, 'pending', page.deps);
    expect(page.loaded).toEqual([LOADER]);
  });

  it('a Clarity already on the page gets the calls itself', () => {
    const page = fakePage();
    const calls: unknown[][] = [];
    page.win.clarity = (...args: unknown[]) => void calls.push(args);
    runHeatmap(HEATMAP, 'granted', page.deps);
    expect(calls[0]?.[0]).toBe('consentv2');
    expect(calls).toHaveLength(3);
  });

  it('a loader a blocker refuses breaks nothing', async () => {
    const page = fakePage();
    page.deps.loadScript = () => Promise.reject(new Error('blocked'));
    expect(() => runHeatmap(HEATMAP, 'not_required', page.deps)).not.toThrow();
    await Promise.resolve();
    expect(page.win.clarity?.q).toHaveLength(3);
  });
});
