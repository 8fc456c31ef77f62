import { beforeAll, describe, expect, it } from 'vitest';
import type { ExperimentDocument, ExperimentsDocument } from '../../../shared/config/experiments';
import type { HoldoutDocument } from '../../../shared/config/holdout';
import {
  DEFAULT_CONTENT,
  DEFAULT_FLOWS,
  DEFAULT_ROUTING,
  DEFAULT_SPLIT,
} from '../../../worker/config/defaults';
import { layerBucket } from '../../../worker/experiments/assignment/assign';
import { type ServedConfig, visitorGets } from '../../../worker/experiments/config/visitor-gets';
import { holdoutGroup, holdoutShare } from '../../../worker/experiments/holdout/holdout';
import { chosenRouteOf } from '../../../worker/routing/router';
import { rolledOutLanding } from '../../fixtures/rolled-out';
import { twoArmTest } from '../../fixtures/two-arm-test';
import { mulberry32 } from './simulation';
import { seededVisitorIds } from './visitor-ids';

/**
 * The holdout's draw (worker/experiments/holdout/holdout.ts) and what it does to what a visitor
 * gets (worker/experiments/config/visitor-gets.ts): the groups' shares over a million ids, and a
 * replay of synthetic traffic through the real evaluation in which no held-out visitor gets a
 * non-control arm of an experiment the holdout covers, the measured sample gets the shipped
 * winner and the control of running tests, and an experiment started before the holdout is left
 * alone.
 */

const DAY = 24 * 60 * 60 * 1000;
const STARTED = Date.parse('2026-11-01T00:00:00Z');
const NOW = STARTED + 20 * DAY;
const at = (ms: number) => new Date(ms).toISOString();

const HOLDOUT: HoldoutDocument = {
  seed: 'h-1b9e44',
  percent: 5,
  status: 'running',
  startedAt: at(STARTED),
};

/** A two-arm test of `layer` started at `startedAt`. */
function test(
  layer: ExperimentDocument['layer'],
  seed: string,
  startedAt: number,
  change: ExperimentDocument['variants'][string]['change'],
): ExperimentDocument {
  return { ...twoArmTest(layer, seed, change), startedAt: at(startedAt) };
}

/** The AI landing test's winner `ai`, rolled out, had it run in the upsell layer from `startedAt`. */
function shipped(seed: string, startedAt: number): ExperimentDocument {
  return { ...rolledOutLanding(NOW), layer: 'upsell', seed, startedAt: at(startedAt) };
}

const EXPERIMENTS: ExperimentsDocument = {
  version: 'e1',
  holdout: HOLDOUT,
  experiments: {
    // Started the day before the holdout: left alone.
    'old-flow': test('flow', 'old-flow', STARTED - DAY, { flow: 'lp11ch8' }),
    'lp-new': test('landing', 'lp-new', STARTED + DAY, { screens: { landing: 'one_pager_ai' } }),
    'pw-price': test('paywall', 'pw-price', STARTED + 2 * DAY, {
      plans: ['monthly_3d_intro', 'quarterly'],
    }),
    'up-won': shipped('up-won', STARTED + DAY),
  },
};

const CONFIG: ServedConfig = {
  split: DEFAULT_SPLIT,
  flows: DEFAULT_FLOWS,
  routing: DEFAULT_ROUTING,
  experiments: EXPERIMENTS,
  content: DEFAULT_CONTENT,
};

const ROUTE = chosenRouteOf(DEFAULT_ROUTING.routes[0]!);
const NO_FACTS = { get: () => null };

function served(visitorId: string, pins: ReadonlyMap<string, string> = new Map()) {
  const gets = visitorGets(CONFIG, {
    route: ROUTE,
    facts: NO_FACTS,
    now: NOW,
    draw: { visitorId, pins, account: null },
  });
  const arms = new Map(gets.assignments.map((a) => [a.experiment, a]));
  return { group: gets.holdout, arms };
}

describe('the holdout draw', () => {
  it('holds out p and measures p of a million ids, each within 3σ', () => {
    const next = seededVisitorIds(mulberry32(20_261_128));
    const n = 1_000_000;
    let heldOut = 0;
    let measured = 0;
    for (let i = 0; i < n; i++) {
      const group = holdoutGroup(HOLDOUT, next(), NOW);
      if (group === 'held_out') heldOut++;
      else if (group === 'measured') measured++;
    }
    const p = HOLDOUT.percent / 100;
    const sigma = Math.sqrt(n * p * (1 - p));
    expect(Math.abs(heldOut - n * p)).toBeLessThan(3 * sigma);
    expect(Math.abs(measured - n * p)).toBeLessThan(3 * sigma);
  });

  it('is its own draw, apart from the layer the same seed would make', () => {
    const id = '1b2c3d4e-0000-4000-8000-000000000001';
    expect(holdoutShare('landing', id)).not.toBe(layerBucket('landing', id));
  });

  it('holds no one before its start, once ended, or without an id to hash', () => {
    const id = heldOutIds(1)[0]!;
    expect(holdoutGroup(HOLDOUT, id, NOW)).toBe('held_out');
    expect(holdoutGroup(HOLDOUT, id, STARTED - 1)).toBeNull();
    expect(holdoutGroup({ ...HOLDOUT, status: 'ended', endedAt: at(NOW) }, id, NOW)).toBeNull();
    expect(holdoutGroup(HOLDOUT, null, NOW)).toBeNull();
  });
});

/** The first `count` ids of the seeded stream that the holdout holds out. */
function heldOutIds(count: number): string[] {
  const next = seededVisitorIds(mulberry32(7));
  const ids: string[] = [];
  while (ids.length < count) {
    const id = next();
    if (holdoutGroup(HOLDOUT, id, NOW) === 'held_out') ids.push(id);
  }
  return ids;
}

/** Group → `experiment=variant/state` → visitors, over 60 000 new visitors. */
function replay(): Map<string, Map<string, number>> {
  const next = seededVisitorIds(mulberry32(20_261_129));
  const seen = new Map<string, Map<string, number>>();
  for (let i = 0; i < 60_000; i++) {
    const { group, arms } = served(next());
    const counts = seen.get(group ?? 'neither') ?? new Map<string, number>();
    for (const [experiment, arm] of arms) {
      const what = `${experiment}=${arm.variant}/${arm.state}`;
      counts.set(what, (counts.get(what) ?? 0) + 1);
    }
    seen.set(group ?? 'neither', counts);
  }
  return seen;
}

describe('what the holdout serves, over synthetic traffic through the real evaluation', () => {
  let seen = new Map<string, Map<string, number>>();
  beforeAll(() => {
    seen = replay();
  });
  const count = (group: string, what: string) => seen.get(group)?.get(what) ?? 0;

  it('gives 0 held-out visitors a non-control arm of a covered experiment', () => {
    expect(count('held_out', 'lp-new=control/applied')).toBeGreaterThan(2_000);
    for (const covered of ['lp-new', 'pw-price', 'up-won']) {
      const arms = [...(seen.get('held_out') ?? [])].filter(([what]) =>
        what.startsWith(`${covered}=`),
      );
      expect(arms.map(([what]) => what)).toEqual([`${covered}=control/applied`]);
    }
  });

  it("gives the measured sample the shipped winner and only running tests' controls", () => {
    expect(count('measured', 'up-won=ai/applied')).toBeGreaterThan(2_000);
    expect(count('measured', 'up-won=control/applied')).toBe(0);
    expect(count('measured', 'lp-new=b/assigned')).toBe(0);
    expect(count('measured', 'pw-price=b/assigned')).toBe(0);
    expect(count('measured', 'lp-new=control/assigned')).toBe(0);
  });

  it('leaves everyone else, and the experiment started before the holdout, alone', () => {
    expect(count('neither', 'lp-new=b/assigned')).toBeGreaterThan(20_000);
    expect(count('neither', 'up-won=ai/applied')).toBeGreaterThan(40_000);
    expect(count('held_out', 'old-flow=b/assigned')).toBeGreaterThan(1_000);
    expect(count('held_out', 'old-flow=control/assigned')).toBeGreaterThan(1_000);
  });

  it('keeps a held-out visitor on the control even with a pin to another arm', () => {
    const id = heldOutIds(1)[0]!;
    const { arms } = served(id, new Map([['lp-new', 'b']]));
    expect(arms.get('lp-new')).toMatchObject({ variant: 'control', state: 'applied' });
  });
});
