import { describe, expect, it } from 'vitest';
import { parseExperiments } from '../../../../shared/config/experiments';
import { experimentFromSplit } from '../../../../worker/experiments/config/migrate-split';
import { SPLIT } from './config-fixtures';

/**
 * Today's split test, read as the experiment `split` of the flow layer: the same variants and
 * weights, the same phase and routes, so the edge draws, exposes and counts as it did.
 */

describe('experimentFromSplit', () => {
  it("takes the whole flow layer on the split's routes, in the split's phase", () => {
    const experiment = experimentFromSplit({
      ...SPLIT,
      routes: ['default', 'meta-us'],
      experiment: { primaryMetric: 'revenue', plannedPerArm: 4000 },
    });
    expect(experiment).toEqual({
      name: 'Split test',
      status: 'running',
      layer: 'flow',
      range: [0, 1],
      audience: { routes: ['default', 'meta-us'] },
      coverage: 1,
      seed: 'split',
      phase: 3,
      control: 'default',
      variants: {
        default: { weight: 50, change: { flow: 'default' } },
        'lp11ch8/vc': { weight: 50, change: { flow: 'lp11ch8_vc' } },
      },
      metrics: { primary: 'revenue', plannedPerArm: 4000 },
    });
  });

  it("names each variant's flow as SPEC.md §4 reads it, and only `default` when no routes", () => {
    const experiment = experimentFromSplit({
      version: 'v9',
      defaultVariant: 'lp1',
      variants: {
        lp1: { weight: 1, flow: 'default' },
        lp11: { weight: 1, flow: 'lp11ch8' },
        'lp17/pr5': { weight: 0 },
      },
    });
    expect(experiment.audience).toEqual({ routes: ['default'] });
    expect(experiment.phase).toBe(1);
    expect(experiment.variants).toEqual({
      lp1: { weight: 1, change: { flow: 'default' } },
      lp11: { weight: 1, change: { flow: 'lp11ch8' } },
      'lp17/pr5': { weight: 0, change: { flow: 'lp17_pr5' } },
    });
    expect(experiment.metrics).toBeUndefined();
  });

  it('names the control its flow too, which only the split may: today it walks its own', () => {
    const split = experimentFromSplit(SPLIT);
    const asSection = (experiment: typeof split) =>
      parseExperiments({ version: 'v1', experiments: { 'split-copy': experiment } });
    const refused = asSection(split);
    expect(refused.ok).toBe(false);
    expect(refused.ok ? '' : refused.error).toContain('the control changes nothing');
    // Copied as an experiment of its own (a follow-up), the control walks the route's flow.
    const copy = { ...split, variants: { ...split.variants, default: { weight: 50, change: {} } } };
    expect(asSection(copy).ok).toBe(true);
  });
});
