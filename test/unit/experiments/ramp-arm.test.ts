import { describe, expect, it } from 'vitest';
import { type ExperimentDocument, parseExperiments } from '../../../shared/config/experiments';
import { DEFAULT_CONTENT, DEFAULT_ROUTING, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import { HASHED_PLACEMENT } from '../../../worker/experiments/assignment/assign';
import { assignExperiments, compileExperiments } from '../../../worker/experiments/config/evaluate';
import { compileRamp, rampArm } from '../../../worker/experiments/ramps/ramp-arm';
import { rampEditIssues } from '../../../worker/experiments/ramps/ramp-edits';
import { checkSampleRatio } from '../../../worker/experiments/statistics/statistics';
import { mulberry32 } from './simulation';
import { seededVisitorIds } from './visitor-ids';

/**
 * A guarded ramp's draw (worker/experiments/ramps/ramp-arm.ts, docs/experiments.md "Guarded
 * ramps"): over 100 000 seeded visitor ids, no visitor changes arm as the steps grow, the arms
 * stay the same size, whoever is outside both bands is in no experiment, and a rollback takes the
 * variant from everyone; and the config's rules for a ramp, each refused at its path.
 */

const IDS = Array.from({ length: 100_000 }, seededVisitorIds(mulberry32(20_261_128)));
const STEPS = [0.01, 0.05, 0.25, 0.5];

function ramped(step: number, status: 'running' | 'rolled_back' = 'running'): ExperimentDocument {
  return {
    name: 'Paywall copy, ramped',
    status: 'running',
    layer: 'paywall',
    audience: {},
    coverage: 1,
    seed: 'E-ramp-1',
    phase: 1,
    control: 'a',
    variants: {
      a: { weight: 1, change: {} },
      b: { weight: 1, change: { screens: { paywall: 'checkout_v3_pp' } } },
    },
    ramp: {
      steps: STEPS.map((coverage) => ({ coverage, holdHours: 24, minPerArm: 100 })),
      state: { step, since: '2026-11-28T12:00Z', status },
    },
  };
}

const armsAt = (experiment: ExperimentDocument) => {
  const ramp = compileRamp(experiment)!;
  return IDS.map((id) => rampArm(ramp, experiment.seed, id));
};

describe('the ramp draw', () => {
  it('never moves a visitor from one arm to the other as the steps grow', () => {
    const first = new Map<string, string>();
    let flips = 0;
    let left = 0;
    for (let step = 0; step < STEPS.length; step++) {
      armsAt(ramped(step)).forEach((arm, index) => {
        const id = IDS[index]!;
        const was = first.get(id);
        if (arm === null) {
          if (was !== undefined) left++;
          return;
        }
        if (was === undefined) first.set(id, arm);
        else if (was !== arm) flips++;
      });
    }
    expect(flips).toBe(0);
    expect(left).toBe(0);
    // At the last step (0.5) everyone is in one arm.
    expect(first.size).toBe(IDS.length);
  });

  it('draws equal arms at every step, and leaves the rest out', () => {
    for (let step = 0; step < STEPS.length; step++) {
      const arms = armsAt(ramped(step));
      const variant = arms.filter((arm) => arm === 'b').length;
      const control = arms.filter((arm) => arm === 'a').length;
      const coverage = STEPS[step]!;
      // Each arm within 4 standard deviations of its coverage, and the two 50/50 by SRM's test.
      const sd = Math.sqrt(IDS.length * coverage * (1 - coverage));
      expect(Math.abs(variant - IDS.length * coverage)).toBeLessThan(4 * sd);
      expect(Math.abs(control - IDS.length * coverage)).toBeLessThan(4 * sd);
      const ratio = checkSampleRatio([
        { exposed: control, weight: 1 },
        { exposed: variant, weight: 1 },
      ]);
      expect(ratio.alarm).toBe(false);
      expect(arms.filter((arm) => arm === null).length).toBe(IDS.length - variant - control);
    }
  });

  it('gives no one the variant once rolled back, pinned visitors included', () => {
    expect(armsAt(ramped(2, 'rolled_back')).every((arm) => arm === null)).toBe(true);
    const compiled = (experiment: ExperimentDocument) =>
      compileExperiments(
        { version: 'v1', experiments: { ramp: experiment } },
        DEFAULT_SPLIT,
        DEFAULT_ROUTING,
        DEFAULT_CONTENT,
      );
    const inRamp = (assignments: { experiment: string }[]) =>
      assignments.filter((assignment) => assignment.experiment === 'ramp');
    const visitor = (pins: [string, string][], id = IDS[0]!) => ({
      visitorId: id,
      route: 'default',
      facts: { get: () => null },
      pins: new Map(pins),
      now: 0,
    });
    const running = compiled(ramped(3));
    const pinned = visitor([['ramp', 'b']]);
    expect(inRamp(assignExperiments(running, pinned, HASHED_PLACEMENT))).toMatchObject([
      { experiment: 'ramp', variant: 'b', state: 'pinned' },
    ]);
    const back = compiled(ramped(3, 'rolled_back'));
    expect(inRamp(assignExperiments(back, pinned, HASHED_PLACEMENT))).toEqual([]);
    expect(
      inRamp(assignExperiments(back, visitor([['ramp', 'a']]), HASHED_PLACEMENT)),
    ).toMatchObject([{ variant: 'a', state: 'pinned' }]);
    // At 1%, a visitor outside both bands is in no experiment of the layer (the route as it is).
    const outside = IDS.find((id, index) => armsAt(ramped(0))[index] === null && id)!;
    const drawn = assignExperiments(compiled(ramped(0)), visitor([], outside), HASHED_PLACEMENT);
    expect(inRamp(drawn)).toEqual([]);
  });
});

describe('the config of a ramp', () => {
  const issues = (experiment: unknown) => {
    const parsed = parseExperiments({ version: 'v1', experiments: { ramp: experiment } });
    return parsed.ok ? [] : (parsed.issues ?? []).map((issue) => `${issue.path}: ${issue.message}`);
  };
  const base = ramped(0);

  it('takes a sound ramp', () => {
    expect(issues(base)).toEqual([]);
  });

  it('refuses each broken rule at its path', () => {
    const unequal = issues({
      ...base,
      coverage: 0.5,
      variants: { ...base.variants, b: { ...base.variants.b!, weight: 2 } },
    });
    expect(unequal).toEqual([
      expect.stringMatching(/^experiments\.ramp\.variants: .*same weight/),
      expect.stringMatching(/^experiments\.ramp\.coverage: must be 1 with a ramp/),
    ]);
    const bad = {
      ...base,
      ramp: {
        ...base.ramp!,
        steps: [
          { coverage: 0.1, holdHours: 1, minPerArm: 10 },
          { coverage: 0.1, holdHours: 1, minPerArm: 10 },
          { coverage: 0.6, holdHours: 1, minPerArm: 10 },
        ],
        guardrails: { lcp: 'rollback' },
        state: { step: 3, since: '2026-11-28T12:00Z', status: 'running' },
      },
    };
    const found = issues(bad);
    const at = (path: string) => found.filter((issue) => issue.startsWith(`${path}:`));
    expect(at('experiments.ramp.ramp.steps.1.coverage')).toHaveLength(1);
    expect(at('experiments.ramp.ramp.steps.2.coverage')[0]).toContain('at most 0.5');
    expect(at('experiments.ramp.ramp.guardrails.lcp')[0]).toContain('not roll back');
    expect(at('experiments.ramp.ramp.state.step')[0]).toContain('the steps are 0 to 2');
  });

  it('holds a live ramp to what keeps its arms', () => {
    const live = ramped(1);
    const { ramp: _, ...without } = live;
    const messages = (next: ExperimentDocument, was: ExperimentDocument = live) =>
      rampEditIssues('experiments.experiments.ramp', next, was).map(
        (issue) => `${issue.path}: ${issue.message}`,
      );
    expect(messages(ramped(2))).toEqual([]);
    expect(messages(ramped(1, 'rolled_back'))).toEqual([]);
    expect(messages(ramped(0))[0]).toMatch(/state\.step: the coverage can only rise/);
    expect(messages(ramped(3), ramped(1, 'rolled_back'))[0]).toMatch(/stays rolled_back/);
    expect(messages(without)[0]).toMatch(/ramp: cannot be taken away/);
    expect(messages(live, without)[0]).toMatch(/ramp: cannot be added/);
  });
});
