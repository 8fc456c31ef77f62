import { describe, expect, it } from 'vitest';
import type { ExperimentsDocument } from '../../../shared/config/experiments';
import type { HoldoutDocument } from '../../../shared/config/holdout';
import type { RoutingDocument } from '../../../shared/config/routing';
import type { SplitDocument } from '../../../shared/config/split';
import type { ConfigDocument } from '../../../shared/console-api/config';
import { SPLIT_EXPERIMENT_ID } from '../../../shared/experiments';
import { DEFAULT_CONTENT, DEFAULT_FLOWS, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import { diffDocuments, isStamped } from '../../../worker/config/diff';
import { type ServedConfig, visitorGets } from '../../../worker/experiments/config/visitor-gets';
import { holdoutGroup, routesPassedOver } from '../../../worker/experiments/holdout/holdout';
import { splitSince, stampRoutes } from '../../../worker/experiments/holdout/holdout-issues';
import {
  chooseRoute,
  chosenRouteOf,
  compiledRouting,
  type VisitorFacts,
} from '../../../worker/routing/router';
import { mulberry32 } from './simulation';
import { seededVisitorIds } from './visitor-ids';

/**
 * The holdout over the routes and the split (docs/experiments.md, "The holdout"): each publish
 * stamps when a route and the split's phase began (worker/experiments/holdout/holdout-issues.ts); a route
 * first published while the holdout ran is passed over for the held out
 * (worker/experiments/holdout/holdout.ts), and a split whose phase began then shows them its
 * control (worker/experiments/holdout/holdout.ts heldBack), as a covered experiment does.
 */

const DAY = 24 * 60 * 60 * 1000;
const STARTED = Date.parse('2026-11-01T00:00:00Z');
const NOW = STARTED + 20 * DAY;
const at = (ms: number) => new Date(ms).toISOString();

const HOLDOUT: HoldoutDocument = {
  seed: 'h-routes',
  percent: 10,
  status: 'running',
  startedAt: at(STARTED),
};

const EXPERIMENTS: ExperimentsDocument = { version: 'e1', holdout: HOLDOUT, experiments: {} };

/** Routes for visitors of the `spring` and `summer` links: spring from before, summer new. */
const ROUTING: RoutingDocument = {
  version: 'r1',
  audiences: {
    spring: { groups: [[{ attribute: 'entry', operator: 'in', values: ['spring'] }]] },
    summer: { groups: [[{ attribute: 'entry', operator: 'in', values: ['summer', 'spring'] }]] },
  },
  routes: [
    { id: 'summer', audience: 'summer', flow: 'lp11ch8', since: at(STARTED + DAY) },
    { id: 'spring', audience: 'spring', flow: 'lp1ch2' },
    { id: 'default', flow: 'default', since: at(STARTED + 2 * DAY) },
  ],
};

/** Facts of a visitor who came by the `entry` link. */
const cameBy = (entry: string): VisitorFacts => ({
  get: (attribute) => (attribute === 'entry' ? entry : null),
});

/** The first `count` ids of a seeded stream in `group`. */
function idsIn(group: 'held_out' | 'measured' | null, count = 1, holdout = HOLDOUT): string[] {
  const next = seededVisitorIds(mulberry32(62));
  const ids: string[] = [];
  while (ids.length < count) {
    const id = next();
    if (holdoutGroup(holdout, id, NOW) === group) ids.push(id);
  }
  return ids;
}

/** The route the router picks for `visitorId` arriving by `entry`, the holdout applied. */
function routeOf(visitorId: string, entry: string, experiments = EXPERIMENTS): string {
  const config = { experiments, routing: ROUTING };
  const passedOver = routesPassedOver(config, visitorId, NOW);
  return chooseRoute(compiledRouting(ROUTING), cameBy(entry), NOW, passedOver).id;
}

describe('a route first published while the holdout runs', () => {
  it('is passed over for the held out, who get the route they would have had before', () => {
    for (const id of idsIn('held_out', 20)) {
      expect(routeOf(id, 'summer')).toBe('default');
      expect(routeOf(id, 'spring')).toBe('spring');
    }
  });

  it('takes the measured sample and everyone else as published', () => {
    for (const id of [...idsIn('measured', 10), ...idsIn(null, 10)]) {
      expect(routeOf(id, 'summer')).toBe('summer');
      expect(routeOf(id, 'spring')).toBe('summer');
    }
  });

  it('is not passed over once the holdout ended, nor when it came in the analysis period', () => {
    const [id] = idsIn('held_out');
    const ended = { ...HOLDOUT, status: 'ended' as const, endedAt: at(NOW - DAY) };
    expect(routeOf(id!, 'summer', { ...EXPERIMENTS, holdout: ended })).toBe('summer');
    const analysed = { ...HOLDOUT, status: 'analysis' as const, analysisFrom: at(STARTED) };
    expect(routeOf(id!, 'summer', { ...EXPERIMENTS, holdout: analysed })).toBe('summer');
  });

  it('never takes `default` from anyone, stamped or not', () => {
    const [id] = idsIn('held_out');
    expect(routeOf(id!, 'autumn')).toBe('default');
  });
});

const SPLIT: SplitDocument = {
  version: 's1',
  defaultVariant: 'default',
  since: at(STARTED + DAY),
  phase: 2,
  variants: { default: { weight: 50 }, lp11ch8: { weight: 50 } },
};

const DEFAULT_ROUTE = chosenRouteOf({ id: 'default', flow: 'default' });

/** The split's arm and the flow `visitorId` walks under `split`, with the split pins given. */
function splitOf(visitorId: string, split: SplitDocument, pin?: string) {
  const config: ServedConfig = {
    split,
    flows: DEFAULT_FLOWS,
    routing: ROUTING,
    experiments: EXPERIMENTS,
    content: DEFAULT_CONTENT,
  };
  const pins = new Map(pin === undefined ? [] : [[SPLIT_EXPERIMENT_ID, pin]]);
  const gets = visitorGets(config, {
    route: DEFAULT_ROUTE,
    facts: cameBy(''),
    now: NOW,
    draw: { visitorId, pins, account: null },
  });
  const arm = gets.assignments.find((a) => a.experiment === SPLIT_EXPERIMENT_ID);
  return { arm: `${arm?.variant}/${arm?.state}`, flow: gets.shape.flow };
}

/** How many of `ids` get each `variant/state` of the split. */
function tally(ids: readonly string[], split: SplitDocument): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const id of ids) {
    const { arm } = splitOf(id, split);
    counts[arm] = (counts[arm] ?? 0) + 1;
  }
  return counts;
}

describe('a split whose phase began while the holdout runs', () => {
  const heldOut = idsIn('held_out', 200);
  const measured = idsIn('measured', 200);
  const neither = idsIn(null, 200);

  it('shows the held out and the measured sample its control, exposing neither', () => {
    expect(tally(heldOut, SPLIT)).toEqual({ 'default/applied': 200 });
    expect(tally(measured, SPLIT)).toEqual({ 'default/applied': 200 });
    expect(splitOf(heldOut[0]!, SPLIT).flow).toBe('default');
  });

  it('draws everyone else as before', () => {
    const counts = tally(neither, SPLIT);
    expect(counts['lp11ch8/assigned']).toBeGreaterThan(70);
    expect(counts['default/assigned']).toBeGreaterThan(70);
  });

  it('once it draws one variant, not its default, ships it to the measured sample only', () => {
    const shipped = { ...SPLIT, variants: { default: { weight: 0 }, lp11ch8: { weight: 100 } } };
    expect(tally(measured, shipped)).toEqual({ 'lp11ch8/assigned': 200 });
    expect(tally(heldOut, shipped)).toEqual({ 'default/applied': 200 });
    expect(splitOf(measured[0]!, shipped).flow).toBe('lp11ch8');
  });

  it('keeps a visitor exposed under an earlier phase on their variant', () => {
    expect(splitOf(heldOut[0]!, SPLIT, 'lp11ch8').arm).toBe('lp11ch8/pinned');
  });

  it('leaves everyone alone when the phase began before the holdout, or has no stamp', () => {
    const before = { ...SPLIT, since: at(STARTED - DAY) };
    const { since: _since, ...unstamped } = SPLIT;
    for (const split of [before, unstamped]) {
      const counts = tally(heldOut, split);
      expect(counts['lp11ch8/assigned']).toBeGreaterThan(70);
      expect(counts['default/applied']).toBeUndefined();
    }
  });
});

describe('what a publish stamps', () => {
  const LIVE: RoutingDocument = {
    ...ROUTING,
    routes: [
      { id: 'spring', audience: 'spring', flow: 'lp1ch2' },
      { id: 'default', flow: 'default', since: at(STARTED) },
    ],
  };
  const publishedAt = at(NOW);

  it('a new route now, a route there before its own start or none, whatever the draft says', () => {
    const next: RoutingDocument = {
      ...LIVE,
      routes: [
        // A start typed to date a new route back, and one typed on a route from before.
        { id: 'summer', audience: 'summer', flow: 'lp11ch8', since: at(STARTED - DAY) },
        { id: 'spring', audience: 'spring', flow: 'default', since: at(STARTED - DAY) },
        { id: 'default', flow: 'default' },
      ],
    };
    expect(stampRoutes(next, LIVE, publishedAt).routes.map((route) => route.since)).toEqual([
      publishedAt,
      undefined,
      at(STARTED),
    ]);
  });

  it('no route with nothing live to be new against', () => {
    const stamped = stampRoutes(ROUTING, null, publishedAt);
    expect(stamped.routes.map((route) => route.since)).toEqual([undefined, undefined, undefined]);
  });

  it("the split's start with a new phase only, else the live one's", () => {
    expect(splitSince(SPLIT, true, publishedAt)).toBe(publishedAt);
    expect(splitSince(SPLIT, false, publishedAt)).toBe(SPLIT.since);
    expect(splitSince(DEFAULT_SPLIT, false, publishedAt)).toBeUndefined();
    expect(splitSince(null, false, publishedAt)).toBeUndefined();
  });

  it('which no review lists as a change, and no two drafts clash on', () => {
    const before = { split: SPLIT, routing: ROUTING } as unknown as ConfigDocument;
    const { since: _split, ...split } = SPLIT;
    const routes = ROUTING.routes.map(({ since: _since, ...route }) => route);
    const after = { split, routing: { ...ROUTING, routes } } as unknown as ConfigDocument;
    expect(diffDocuments(before, after)).toEqual([]);
    expect(isStamped('routing.routes.summer.since')).toBe(true);
    expect(isStamped('split.since')).toBe(true);
  });
});
