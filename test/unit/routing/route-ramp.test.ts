import { describe, expect, it } from 'vitest';
import type { RampDocument } from '../../../shared/config/ramp';
import { parseRouting, type RoutingDocument } from '../../../shared/config/routing';
import { routeRampEditIssues } from '../../../worker/experiments/ramps/ramp-edits';
import { routeRampDraw } from '../../../worker/experiments/ramps/route-ramp';
import {
  chooseRoute,
  chooseRouteDrawn,
  compileRouting,
  explainRoute,
} from '../../../worker/routing/router';
import { rampedTiktokRouting } from '../../fixtures/ramped-route';
import { mulberry32 } from '../experiments/simulation';
import { seededVisitorIds } from '../experiments/visitor-ids';

/**
 * A new route on a guarded ramp (docs/routes.md, "A new route on a ramp"; worker/routing/router.ts
 * chooseRouteDrawn, worker/experiments/ramps/route-ramp.ts): over 100 000 seeded visitor ids who
 * all match it, the route takes its band and an equal band is kept on the route the router picks
 * next, no visitor changing side as the steps grow; rolled back it takes no one, done everyone;
 * and the config's rules for it, each refused at its path.
 */

const IDS = Array.from({ length: 100_000 }, seededVisitorIds(mulberry32(20_261_130)));
const STEPS = [0.01, 0.05, 0.25, 0.5];

/** A TikTok route on a ramp at `step`, before `default`; everyone is on TikTok. */
function routing(step: number, status: RampDocument['state']['status'] = 'running') {
  return rampedTiktokRouting({
    steps: STEPS.map((coverage) => ({ coverage, holdHours: 24, minPerArm: 100 })),
    state: { step, since: '2026-11-28T12:00Z', status },
  });
}

const TIKTOK = { get: (attribute: string) => (attribute === 'source' ? 'tiktok' : null) };
const NOW = Date.parse('2026-11-29T00:00Z');

/** Each id's route and arm at `document`: `tiktok_new:route`, `default:fallback`, `default:`. */
function placesAt(document: RoutingDocument): string[] {
  const compiled = compileRouting(document);
  return IDS.map((id) => {
    const { route, arms } = chooseRouteDrawn(compiled, TIKTOK, NOW, routeRampDraw(id));
    return `${route.id}:${arms.map((arm) => arm.arm).join(',')}`;
  });
}

describe('the draw of a route on a ramp', () => {
  it('takes its band, keeps an equal one on the fallback, and moves no one as it grows', () => {
    const first = new Map<string, string>();
    let flips = 0;
    for (let step = 0; step < STEPS.length; step++) {
      const places = placesAt(routing(step));
      const count = (place: string) => places.filter((p) => p === place).length;
      const coverage = STEPS[step]!;
      const sd = Math.sqrt(IDS.length * coverage * (1 - coverage));
      expect(Math.abs(count('tiktok_new:route') - IDS.length * coverage)).toBeLessThan(4 * sd);
      expect(Math.abs(count('default:fallback') - IDS.length * coverage)).toBeLessThan(4 * sd);
      expect(count('tiktok_new:route') + count('default:fallback') + count('default:')).toBe(
        IDS.length,
      );
      places.forEach((place, index) => {
        if (place === 'default:') return;
        const was = first.get(IDS[index]!);
        if (was === undefined) first.set(IDS[index]!, place);
        else if (was !== place) flips++;
      });
    }
    expect(flips).toBe(0);
    // At the last step (0.5) everyone is in one band.
    expect(first.size).toBe(IDS.length);
  });

  it('takes no one once rolled back, everyone once done, no one undrawn', () => {
    expect(new Set(placesAt(routing(3, 'rolled_back')))).toEqual(new Set(['default:']));
    expect(new Set(placesAt(routing(3, 'done')))).toEqual(new Set(['tiktok_new:']));
    expect(compileRouting(routing(3, 'rolled_back')).rolledBack).toEqual(new Set(['tiktok_new']));
    // A request drawn by no one (the console's test) gets the fallback, and is told why.
    const compiled = compileRouting(routing(1));
    expect(chooseRoute(compiled, TIKTOK, NOW).id).toBe('default');
    expect(explainRoute(compiled, TIKTOK, NOW).passed).toEqual([
      { id: 'tiktok_new', why: 'on a ramp: it takes 5% of its visitors, drawn by their id' },
    ]);
  });
});

describe('the config of a route on a ramp', () => {
  const issues = (document: unknown) => {
    const parsed = parseRouting(document);
    return parsed.ok ? [] : (parsed.issues ?? []).map((issue) => `${issue.path}: ${issue.message}`);
  };

  it('takes a sound ramp and refuses one on the default route, or a broken one, at its path', () => {
    expect(issues(routing(0))).toEqual([]);
    const onDefault = routing(0);
    onDefault.routes[1] = { ...onDefault.routes[1]!, ramp: onDefault.routes[0]!.ramp! };
    expect(issues(onDefault)).toEqual([
      'routes.1.ramp: the "default" route takes everyone else, always: it has no ramp',
    ]);
    const shrinking = routing(0);
    shrinking.routes[0]!.ramp!.steps[1]!.coverage = 0.01;
    expect(issues(shrinking)).toEqual([
      expect.stringMatching(
        /^routes\.0\.ramp\.steps\.1\.coverage: must be above the step before's 0\.01/,
      ),
    ]);
  });

  it('holds a live route ramp to what keeps its bands, at its path', () => {
    const messages = (next: RoutingDocument, live: RoutingDocument) =>
      routeRampEditIssues(next, live, NOW).map((issue) => `${issue.path}: ${issue.message}`);
    const at = 'routing.routes.0.ramp';
    const { ramp: _, ...plain } = routing(0).routes[0]!;
    const without = { ...routing(0), routes: [plain, routing(0).routes[1]!] };
    const paused = { ...routing(0), routes: [{ ...plain, paused: true }, routing(0).routes[1]!] };
    expect(messages(routing(1), routing(0))).toEqual([]);
    expect(messages(routing(3, 'rolled_back'), routing(2))).toEqual([]);
    expect(messages(routing(3, 'done'), routing(3))).toEqual([]);
    expect(messages(routing(0), paused)).toEqual([]);
    expect(messages(routing(0), { ...routing(0), routes: [routing(0).routes[1]!] })).toEqual([]);
    expect(messages(routing(0), routing(1))).toEqual([
      `${at}.state.step: the coverage can only rise (from 0.05, now 0.01): roll it back instead, or hold it`,
    ]);
    expect(messages(routing(3), routing(3, 'rolled_back'))[0]).toMatch(
      /^routing\.routes\.0\.ramp\.state\.status: stays rolled_back: .*add the route under a new id/,
    );
    expect(messages(routing(2), routing(3, 'done'))).toEqual([
      `${at}.state.status: stays done: the route takes everyone it matches`,
    ]);
    expect(messages(routing(0), without)).toEqual([
      `${at}: cannot be added to a route that takes visitors: pause it first, or add a new route`,
    ]);
    expect(messages(without, routing(1))[0]).toMatch(
      /^routing\.routes\.0\.ramp: cannot be taken away while it is running/,
    );
    expect(messages(without, routing(3, 'done'))).toEqual([]);
  });
});
