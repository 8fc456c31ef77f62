import { describe, expect, it } from 'vitest';
import {
  type ExperimentDocument,
  type ExperimentsDocument,
  parseExperiments,
} from '../../../shared/config/experiments';
import type { RampDocument } from '../../../shared/config/ramp';
import { DEFAULT_CONTENT, DEFAULT_ROUTING, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import { HASHED_PLACEMENT } from '../../../worker/experiments/assignment/assign';
import { assignExperiments, compileExperiments } from '../../../worker/experiments/config/evaluate';
import { stampPublish } from '../../../worker/experiments/config/phases';
import { rollOutRampEditIssues } from '../../../worker/experiments/ramps/ramp-edits';
import { asRead, rampOf } from '../../../worker/experiments/ramps/ramp-status';
import { watchedRamps } from '../../../worker/experiments/ramps/ramp-subjects';
import { wonDecision } from '../../fixtures/won-decision';
import { mulberry32 } from './simulation';
import { seededVisitorIds } from './visitor-ids';

/**
 * A roll-out on a ramp (docs/experiments.md, "A ramped roll-out"; the decision's `ramp`): over
 * 100 000 seeded visitor ids, the variant shipped reaches each step's band and an equal band keeps
 * the control, both exposed (assigned) and no visitor changing arm as the steps grow; done, the
 * variant reaches everyone, unexposed; rolled back, no one, pinned visitors included. Its phase,
 * its reading as two arms, and the config's rules for it, each refused at its path.
 */

const IDS = Array.from({ length: 100_000 }, seededVisitorIds(mulberry32(20_261_129)));
const STEPS = [0.05, 0.25, 0.5];

/** A three-variant paywall test shipped with `b` rolled out on a ramp at `step`. */
function shipped(step: number, status: RampDocument['state']['status'] = 'running') {
  const experiment: ExperimentDocument = {
    name: 'Paywall copy',
    status: 'shipped',
    layer: 'paywall',
    audience: {},
    coverage: 0.8,
    seed: 'E-roll-1',
    phase: 2,
    startedAt: '2026-11-01T00:00Z',
    endedAt: '2026-11-28T12:00Z',
    control: 'a',
    variants: {
      a: { weight: 2, change: {} },
      b: { weight: 1, change: { screens: { paywall: 'checkout_v3_pp' } } },
      c: { weight: 1, change: { screens: { paywall: 'checkout_h3_pp' } } },
    },
    decision: wonDecision('b', {
      ramp: {
        steps: STEPS.map((coverage) => ({ coverage, holdHours: 24, minPerArm: 100 })),
        state: { step, since: '2026-11-28T12:00Z', status },
      },
    }),
  };
  return experiment;
}

const document = (experiment: ExperimentDocument): ExperimentsDocument => ({
  version: 'v1',
  experiments: { copy: experiment },
});

const visitor = (id: string, pins: [string, string][] = []) => ({
  visitorId: id,
  route: 'default',
  facts: { get: () => null },
  pins: new Map(pins),
  now: Date.parse('2026-11-29T00:00Z'),
});

/** Each id's place in the roll-out: `b`/`a` and its state, or null outside both bands. */
function placesAt(experiment: ExperimentDocument): (string | null)[] {
  const compiled = compileExperiments(
    document(experiment),
    DEFAULT_SPLIT,
    DEFAULT_ROUTING,
    DEFAULT_CONTENT,
  );
  return IDS.map((id) => {
    const found = assignExperiments(compiled, visitor(id), HASHED_PLACEMENT).find(
      (assignment) => assignment.experiment === 'copy',
    );
    return found ? `${found.variant}:${found.state}` : null;
  });
}

describe('the draw of a roll-out on a ramp', () => {
  it('exposes equal bands that only grow, the rest keeping the control', () => {
    const first = new Map<string, string>();
    let flips = 0;
    for (let step = 0; step < STEPS.length; step++) {
      const places = placesAt(shipped(step));
      const count = (place: string) => places.filter((p) => p === place).length;
      const sd = Math.sqrt(IDS.length * STEPS[step]! * (1 - STEPS[step]!));
      expect(Math.abs(count('b:assigned') - IDS.length * STEPS[step]!)).toBeLessThan(4 * sd);
      expect(Math.abs(count('a:assigned') - IDS.length * STEPS[step]!)).toBeLessThan(4 * sd);
      // No third arm: the other variant and the test's weights draw no one.
      expect(places.every((p) => p === null || p === 'a:assigned' || p === 'b:assigned')).toBe(
        true,
      );
      places.forEach((place, index) => {
        if (place === null) return;
        const was = first.get(IDS[index]!);
        if (was === undefined) first.set(IDS[index]!, place);
        else if (was !== place) flips++;
      });
    }
    expect(flips).toBe(0);
    expect(first.size).toBe(IDS.length);
  });

  it('ships to everyone once done, and to no one once rolled back', () => {
    const done = placesAt(shipped(2, 'done'));
    expect(done.every((place) => place === 'b:applied')).toBe(true);
    const back = placesAt(shipped(2, 'rolled_back'));
    expect(back.every((place) => place === null)).toBe(true);
    const compiled = compileExperiments(
      document(shipped(2, 'rolled_back')),
      DEFAULT_SPLIT,
      DEFAULT_ROUTING,
      DEFAULT_CONTENT,
    );
    const pinned = (variant: string) =>
      assignExperiments(compiled, visitor(IDS[0]!, [['copy', variant]]), HASHED_PLACEMENT).filter(
        (assignment) => assignment.experiment === 'copy',
      );
    expect(pinned('b')).toEqual([]);
    expect(pinned('a')).toMatchObject([{ experiment: 'copy', variant: 'a', state: 'pinned' }]);
  });
});

describe('the phase and results of a roll-out on a ramp', () => {
  const running: ExperimentDocument = {
    ...shipped(0),
    status: 'running',
    phase: 1,
    endedAt: undefined,
    decision: undefined,
  };

  it('starts a phase of its own, and its moves keep the phase and who decided', () => {
    const at = new Date('2026-11-28T12:00Z');
    const ships = stampPublish(document(shipped(0)), document(running), at, 'anna@example.com');
    expect(ships.experiments.copy).toMatchObject({ phase: 2, endedAt: at.toISOString() });
    const moved = structuredClone(ships);
    moved.experiments.copy!.decision!.ramp!.state = {
      step: 1,
      since: '2026-11-29T12:00Z',
      status: 'running',
    };
    const later = stampPublish(moved, ships, new Date('2026-11-29T12:00Z'), 'ramp');
    expect(later.experiments.copy).toMatchObject({ phase: 2, endedAt: at.toISOString() });
    expect(later.experiments.copy!.decision).toMatchObject({
      at: at.toISOString(),
      by: 'anna@example.com',
    });
    // Without a ramp, shipping keeps the test's phase.
    const { ramp: _, ...plain } = shipped(0).decision!;
    const whole = stampPublish(
      document({ ...shipped(0), decision: plain }),
      document(running),
      at,
      'x',
    );
    expect(whole.experiments.copy!.phase).toBe(1);
  });

  it('is read as its two arms at equal shares, and watched until done', () => {
    expect(Object.entries(asRead(shipped(0)).variants)).toEqual([
      ['a', { weight: 1, change: {} }],
      ['b', { weight: 1, change: { screens: { paywall: 'checkout_v3_pp' } } }],
    ]);
    expect(asRead(running)).toBe(running);
    expect(rampOf(shipped(1))).toEqual({
      ramp: shipped(1).decision!.ramp,
      since: '2026-11-28T12:00Z',
    });
    expect(
      watchedRamps({ experiments: document(shipped(1, 'held')), routing: DEFAULT_ROUTING }),
    ).toMatchObject([{ subject: { kind: 'roll_out', experiment: 'copy' }, id: 'copy' }]);
    expect(
      watchedRamps({ experiments: document(shipped(2, 'done')), routing: DEFAULT_ROUTING }),
    ).toEqual([]);
    expect(
      watchedRamps({ experiments: document(shipped(2, 'rolled_back')), routing: DEFAULT_ROUTING }),
    ).toEqual([]);
  });
});

describe('the config of a roll-out on a ramp', () => {
  it('refuses a ramp on any other decision, at its path', () => {
    const kept = shipped(0);
    kept.decision = { ...kept.decision!, action: 'keep_control', variant: undefined };
    const parsed = parseExperiments(document(kept));
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? [] : parsed.issues?.map((i) => `${i.path}: ${i.message}`)).toContain(
      'experiments.copy.decision.ramp: ramps a roll-out only: keep_control ships nothing in steps',
    );
    expect(parseExperiments(document(shipped(0))).ok).toBe(true);
  });

  it('holds a live roll-out ramp to what keeps its arms', () => {
    const path = 'experiments.experiments.copy';
    const messages = (next: ExperimentDocument, was: ExperimentDocument) =>
      rollOutRampEditIssues(path, next, was).map((issue) => `${issue.path}: ${issue.message}`);
    const { ramp: _, ...plain } = shipped(0).decision!;
    const whole = { ...shipped(0), decision: plain };
    expect(messages(shipped(1), shipped(0))).toEqual([]);
    expect(messages(shipped(1, 'rolled_back'), shipped(1))).toEqual([]);
    expect(messages(shipped(2, 'done'), shipped(2))).toEqual([]);
    expect(messages(shipped(0), shipped(1))).toEqual([
      `${path}.decision.ramp.state.step: the coverage can only rise (from 0.25, now 0.05): roll it back instead, or hold it`,
    ]);
    expect(messages(shipped(2), shipped(1, 'rolled_back'))[0]).toMatch(
      /decision\.ramp\.state\.status: stays rolled_back/,
    );
    expect(messages(whole, shipped(1))[0]).toMatch(
      /decision\.ramp: cannot be taken away before it is done/,
    );
    expect(messages(shipped(0), whole)[0]).toMatch(
      /decision\.ramp: cannot be added to a roll-out that reaches everyone/,
    );
    expect(messages(shipped(2), shipped(2, 'done'))[0]).toMatch(
      /decision\.ramp\.state\.status: stays done/,
    );
    // Done, the ramp may go: the variant reaches everyone either way.
    expect(messages(whole, shipped(2, 'done'))).toEqual([]);
  });
});
