import { describe, expect, it } from 'vitest';
import type { ExperimentDocument } from '../../shared/config/experiments';
import type { ConfigDocument } from '../../shared/console-api/config';
import { approvalReasons } from '../../worker/config/approval';
import {
  DEFAULT_CONTENT,
  DEFAULT_EXPERIMENTS,
  DEFAULT_FLOWS,
  DEFAULT_ROUTING,
  DEFAULT_SPLIT,
} from '../../worker/config/defaults';
import { diffDocuments } from '../../worker/config/diff';

/**
 * Which changes of a publish a second person approves where PUBLISH_APPROVAL is required
 * (worker/config/approval.ts): traffic and money, never copy, flows or an experiment's notes.
 */

const BASE: ConfigDocument = {
  split: DEFAULT_SPLIT,
  flows: DEFAULT_FLOWS,
  routing: DEFAULT_ROUTING,
  experiments: DEFAULT_EXPERIMENTS,
  content: DEFAULT_CONTENT,
};

const TEST: ExperimentDocument = {
  name: 'Landing',
  status: 'draft',
  layer: 'landing',
  audience: {},
  coverage: 1,
  seed: 'landing',
  control: 'a',
  variants: { a: { weight: 1, change: {} }, b: { weight: 1, change: {} } },
};

function withTest(test: ExperimentDocument): ConfigDocument {
  return { ...BASE, experiments: { ...DEFAULT_EXPERIMENTS, experiments: { landing: test } } };
}

const reasons = (before: ConfigDocument | null, after: ConfigDocument) =>
  approvalReasons(before, after, diffDocuments(before, after)).map((r) => `${r.path}: ${r.reason}`);

describe('changes that need approval', () => {
  it('are the whole split and routes of a first publish', () => {
    expect(reasons(null, BASE)).toEqual(['split: moves traffic', 'routing: moves traffic']);
  });

  it('are weights and routes, not a flow or the results’ metric', () => {
    const after: ConfigDocument = {
      ...BASE,
      split: {
        ...BASE.split,
        variants: { default: { weight: 100, flow: 'lp1ch2' }, b: { weight: 0 } },
        experiment: { primaryMetric: 'revenue' },
      },
      flows: { ...BASE.flows, flows: { ...BASE.flows.flows, extra: ['success'] } },
      routing: { ...BASE.routing, currencies: { DE: 'EUR' } },
    };
    expect(reasons(BASE, after)).toEqual([
      'split.variants.b: moves traffic',
      'routing.currencies: moves money',
    ]);
  });

  it('start and end an experiment, and any edit of one visitors are in but its notes', () => {
    expect(reasons(BASE, withTest(TEST))).toEqual([]);
    expect(reasons(withTest(TEST), withTest({ ...TEST, status: 'running' }))).toEqual([
      'experiments.experiments.landing.status: starts or ends an experiment',
    ]);
    const running = withTest({ ...TEST, status: 'running' });
    const edited = withTest({ ...TEST, status: 'running', coverage: 0.5, notes: 'half' });
    expect(reasons(running, edited)).toEqual([
      'experiments.experiments.landing.coverage: moves traffic',
    ]);
    expect(reasons(running, withTest({ ...TEST, status: 'running', name: 'Landing 2' }))).toEqual(
      [],
    );
  });
});
