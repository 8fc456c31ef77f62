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
 * (worker/config/approval.ts): every change to what visitors get (traffic, money, what they see,
 * where the alerts go), never an experiment's notes or how results are read.
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
  it('are the whole split, flows and routes of a first publish', () => {
    expect(reasons(null, BASE)).toEqual([
      'split: moves traffic',
      'flows: changes what visitors see',
      'routing: moves traffic',
    ]);
  });

  it('are weights, routes and flows, not the results’ metric', () => {
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
      'split.variants.default.flow: changes what visitors see',
      'split.variants.b: moves traffic',
      'flows.flows.extra: changes what visitors see',
      'routing.currencies: moves money',
    ]);
  });

  it('are what visitors read and see, the holdout, and where the alerts go', () => {
    const content: ConfigDocument = {
      ...BASE,
      content: { screens: { one_pager: { copy: { en: { 'screens.one_pager.title': 'Find' } } } } },
    };
    expect(reasons(BASE, content)).toEqual([
      'content.screens.one_pager.copy.en.screens.one_pager.title: changes what visitors see',
    ]);
    const alerted: ConfigDocument = {
      ...BASE,
      experiments: { ...DEFAULT_EXPERIMENTS, alerts: { webhook: 'https://hooks.example.com/a' } },
    };
    expect(reasons(BASE, alerted)).toEqual(['experiments.alerts: changes where alerts go']);
    const layered: ConfigDocument = {
      ...BASE,
      experiments: { ...DEFAULT_EXPERIMENTS, layers: { landing: { seed: 'reshuffled' } } },
    };
    expect(reasons(BASE, layered)).toEqual(['experiments.layers: moves traffic']);
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
