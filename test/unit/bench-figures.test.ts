import { describe, expect, it } from 'vitest';
import { FLOOR_MOVE, moveFrom, staticFloor } from '../../scripts/bench/floor';
import type { LighthouseRun } from '../../scripts/bench/lighthouse';
import { missedGoals, type Round, summarise } from '../../scripts/bench/summary';

/**
 * `npm run bench` holds each screen to the static floor measured in the same run: what the floor
 * keeps of the landing, and how rounds become the ratios and goal checks it prints.
 */

const run = (figures: Partial<LighthouseRun>): LighthouseRun => ({
  score: 1,
  lcpMs: 800,
  tbtMs: 0,
  cls: 0,
  maxTaskMs: undefined,
  lcpElement: 'main > h1',
  lcpRenderDelayMs: 100,
  error: undefined,
  ...figures,
});

const round = (pages: Record<string, LighthouseRun>): Round => new Map(Object.entries(pages));

describe('the static floor', () => {
  it('keeps the text, styles and images, and drops every script and script preload', () => {
    const landing = [
      '<!doctype html><html><head><style>.a{color:red}</style>',
      '<link rel="stylesheet" href="/a.css"><link rel="modulepreload" href="/c.js">',
      '<link rel=prefetch href="/searching"></head>',
      '<body><main><h1>Locate any phone</h1><img src="/hero.webp" alt=""></main>',
      '<script nonce="n">window.__STATE__={"a":1}</script>',
      '<script type="module" nonce="n">import "/c.js";</script></body></html>',
    ].join('');
    const floor = staticFloor(landing);
    expect(floor).toContain('<h1>Locate any phone</h1>');
    expect(floor).toContain('<style>.a{color:red}</style>');
    expect(floor).toContain('href="/a.css"');
    expect(floor).toContain('src="/hero.webp"');
    expect(floor).not.toMatch(/<script|modulepreload|prefetch|__STATE__/);
  });
});

describe('the floor of screen to screen', () => {
  it('is the floor with one link to the next floor, prefetched as the screens prefetch', () => {
    const floor = staticFloor(
      '<!doctype html><html lang="en"><head></head><body class="b"><h1>Hi</h1></body></html>',
    );
    const from = moveFrom(floor);
    expect(from).toContain('<html data-booted="yes" lang="en">');
    expect(from).toContain(
      `<body class="b"><a class="bench-next button button--primary" href="${FLOOR_MOVE.to}">`,
    );
    const rules = from.match(/<script type="speculationrules">(.*?)<\/script>/)?.[1] ?? '';
    expect(JSON.parse(rules)).toEqual({ prefetch: [{ source: 'list', urls: [FLOOR_MOVE.to] }] });
    expect(from.match(/<script/g)).toHaveLength(1);
  });
});

describe('figures against the floor', () => {
  it('takes each ratio within its round, then the median over rounds', () => {
    // The machine slowed down in the second round: both pages took twice as long, the ratio held.
    const rounds = [
      round({ floor: run({ lcpMs: 800 }), signup: run({ lcpMs: 880 }) }),
      round({ floor: run({ lcpMs: 1600 }), signup: run({ lcpMs: 1760 }) }),
      round({ floor: run({ lcpMs: 800 }), signup: run({ lcpMs: 1200 }) }),
    ];
    const signup = summarise(rounds, () => 'floor').find((page) => page.page === 'signup');
    expect(signup?.lcpRatio).toBeCloseTo(1.1);
    expect(signup?.lcpMs).toBe(1200);
  });

  it('takes a page with a floor of its own against that floor, the others against the landing', () => {
    // A composed landing shows a picture: its largest paint is the picture, as on its own floor.
    const rounds = [
      round({
        floor: run({ lcpMs: 800 }),
        'floor of /composed': run({ lcpMs: 1500 }),
        composed: run({ lcpMs: 1575 }),
        signup: run({ lcpMs: 880 }),
      }),
    ];
    const figures = summarise(rounds, (page) =>
      page === 'composed' ? 'floor of /composed' : 'floor',
    );
    expect(figures.find((page) => page.page === 'composed')?.lcpRatio).toBeCloseTo(1.05);
    expect(figures.find((page) => page.page === 'signup')?.lcpRatio).toBeCloseTo(1.1);
  });

  it("names each page's LCP elements, the most frequent first, and the median render delay", () => {
    const rounds = [
      round({ searching: run({ lcpElement: 'main > p.lead', lcpRenderDelayMs: 1200 }) }),
      round({ searching: run({ lcpElement: 'main > h1', lcpRenderDelayMs: 90 }) }),
      round({ searching: run({ lcpElement: 'main > p.lead', lcpRenderDelayMs: 1100 }) }),
      round({ searching: run({ lcpElement: undefined, error: 'NO_LCP' }) }),
    ];
    const [searching] = summarise(rounds, () => 'floor');
    expect(searching?.lcpElements).toEqual(['main > p.lead ×2', 'main > h1 ×1']);
    expect(searching?.lcpRenderDelayMs).toBe(1100);
  });

  it('counts a page with no task of 50 ms as 50, for itself and for the floor', () => {
    const rounds = [round({ floor: run({}), one_pager: run({ maxTaskMs: 75 }) })];
    const [floor, landing] = summarise(rounds, () => 'floor');
    expect(floor?.longestTaskMs).toBeNull();
    expect(landing?.longestTaskMs).toBe(75);
    expect(landing?.longestTaskRatio).toBeCloseTo(1.5);
  });

  it('leaves a failed run out of the ratios and says why', () => {
    const rounds = [
      round({ floor: run({ lcpMs: 800 }), success: run({ lcpMs: 800 }) }),
      round({ floor: run({ lcpMs: 800 }), success: run({ score: null, error: 'NO_FCP' }) }),
    ];
    const success = summarise(rounds, () => 'floor').find((page) => page.page === 'success');
    expect(success?.lcpRatio).toBe(1);
    expect(success?.scores).toEqual([100, null]);
    expect(success?.errors).toEqual(['NO_FCP']);
  });

  it('names each goal a page misses, and none for one that meets them all', () => {
    const at = (pages: Record<string, LighthouseRun>) =>
      summarise([round({ floor: run({ maxTaskMs: 70 }), ...pages })], () => 'floor');
    const [, fast] = at({ fast: run({ lcpMs: 880, maxTaskMs: 87 }) });
    expect(fast && missedGoals(fast)).toEqual([]);
    const [, slow] = at({
      slow: run({ score: 0.97, lcpMs: 900, tbtMs: 66, cls: 0.02, maxTaskMs: 168 }),
    });
    expect(slow && missedGoals(slow)).toEqual(['score', 'LCP', 'TBT', 'CLS', 'task']);
  });

  it("holds score and TBT to the floor's of the same round, not to a number this machine misses", () => {
    // A slow machine: the static floor itself scores 99 with 70 ms of blocking time.
    const slowFloor = run({ score: 0.99, tbtMs: 70, maxTaskMs: 120 });
    const rounds = [
      round({
        floor: slowFloor,
        level: run({ score: 0.98, tbtMs: 110, maxTaskMs: 140 }),
        heavy: run({ score: 0.96, tbtMs: 130, maxTaskMs: 140 }),
      }),
    ];
    const [, level, heavy] = summarise(rounds, () => 'floor');
    expect(level).toMatchObject({ scoreOverFloor: -1, tbtOverFloorMs: 40 });
    expect(level && missedGoals(level)).toEqual([]);
    expect(heavy).toMatchObject({ scoreOverFloor: -3, tbtOverFloorMs: 60 });
    expect(heavy && missedGoals(heavy)).toEqual(['score', 'TBT']);
  });
});
