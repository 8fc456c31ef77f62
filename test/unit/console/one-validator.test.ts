import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  editFormOf,
  editProblems,
  experimentOfEdit,
} from '../../../console/experiments/experiment-edit-form';
import { EMPTY_CONTENT } from '../../../shared/config/content';
import type { ExperimentDocument, ExperimentsDocument } from '../../../shared/config/experiments';
import type { ConfigDocument } from '../../../shared/console-api/config';
import { validateExperiments } from '../../../worker/experiments/config/validate';
import { wonDecision } from '../../fixtures/won-decision';
import {
  CONTEXT,
  FLOWS,
  landingTest,
  priceTest,
  ROUTING,
  SPLIT,
  section,
  upsellPriceTest,
} from '../../worker/experiments/config/config-fixtures';

/**
 * One validator: the console's experiment form refuses nothing the worker's validator
 * accepts, and where it refuses a stretch of a layer, the validator refuses it too. Random
 * projects are built from the validator's own fixtures (test/worker/experiments/config/
 * config-fixtures.ts: Meta US, TikTok DACH and default, the split on default): price, landing and
 * upsell tests in every status, on random routes, ranges, coverage and weights, ended at random
 * days with random drains. Each project the validator accepts is opened in the edit form of each
 * of its experiments, unchanged: the form finds no problem, and saving it leaves a project the
 * validator still accepts.
 */

const NOW = new Date('2026-12-01T12:00:00Z');
const DAY = 86_400_000;

const TEMPLATES = [priceTest, landingTest, upsellPriceTest] as const;
const ROUTES = ['meta-us', 'tt-dach', 'default'] as const;

const tenth = fc.integer({ min: 0, max: 10 }).map((n) => n / 10);

/** A stretch of a layer, or the whole layer unsaid. */
const range = fc.option(
  fc
    .tuple(tenth, tenth)
    .filter(([from, to]) => from < to)
    .map(([from, to]): [number, number] => [from, to]),
  { nil: undefined },
);

/** Where an experiment stands, with what its status carries. */
const standing = fc.oneof(
  fc.constantFrom('draft', 'running', 'paused', 'archived').map((status) => ({ status })),
  fc
    .record({
      status: fc.constantFrom('stopped', 'shipped'),
      daysAgo: fc.integer({ min: 0, max: 30 }),
      drainDays: fc.integer({ min: 0, max: 14 }),
    })
    .map(({ status, daysAgo, drainDays }) => ({
      status,
      endedAt: new Date(NOW.getTime() - daysAgo * DAY).toISOString(),
      drainDays,
    })),
);

const experimentArbitrary = fc
  .record({
    template: fc.integer({ min: 0, max: TEMPLATES.length - 1 }),
    standing,
    range,
    routes: fc.option(fc.subarray([...ROUTES], { minLength: 1 }), { nil: null }),
    coverage: fc.oneof(
      fc.constantFrom(1, 0.5, 0.25),
      fc.double({ min: 0.001, max: 1, noNaN: true }),
    ),
    weights: fc.tuple(
      fc.oneof(fc.constant(1), fc.double({ min: 0.5, max: 10, noNaN: true })),
      fc.oneof(fc.constant(1), fc.integer({ min: 0, max: 5 })),
    ),
  })
  .map(({ template, standing, range, routes, coverage, weights }) => {
    const base = TEMPLATES[template]!();
    const [control, variant] = Object.keys(base.variants) as [string, string];
    const experiment: ExperimentDocument = {
      ...base,
      ...standing,
      status: standing.status as ExperimentDocument['status'],
      coverage,
      variants: {
        [control]: { ...base.variants[control]!, weight: weights[0] },
        [variant]: { ...base.variants[variant]!, weight: weights[1] },
      },
      ...(range === undefined ? {} : { range }),
      ...(routes === null ? {} : { audience: { routes } }),
    };
    if (experiment.status === 'shipped')
      experiment.decision = wonDecision(variant, { at: NOW.toISOString() });
    return experiment;
  });

/** A project of one to four experiments, each with a seed of its own; null if its schema refuses. */
const projectArbitrary = fc
  .array(experimentArbitrary, { minLength: 1, maxLength: 4 })
  .map((experiments) => {
    const named = Object.fromEntries(
      experiments.map((experiment, index) => [
        `e${index}`,
        { ...experiment, seed: `seed-${index}`, name: `Test ${index}` },
      ]),
    );
    try {
      return section(named);
    } catch {
      return null;
    }
  });

const check = (experiments: ExperimentsDocument, live: ExperimentsDocument) =>
  validateExperiments(experiments, { ...CONTEXT, now: NOW }, live);

const documentOf = (experiments: ExperimentsDocument): ConfigDocument => ({
  split: SPLIT,
  flows: FLOWS,
  routing: ROUTING,
  experiments,
  content: EMPTY_CONTENT,
});

describe('the console’s experiment form and the validator', () => {
  it('the form refuses nothing in a project the validator accepts, and saving it changes that in nothing', () => {
    let accepted = 0;
    fc.assert(
      fc.property(projectArbitrary, (project) => {
        if (project === null || check(project, project).issues.length > 0) return;
        accepted += 1;
        const document = documentOf(project);
        for (const [id, experiment] of Object.entries(project.experiments)) {
          const form = editFormOf(experiment);
          const problems = editProblems({
            form,
            id,
            experiment,
            live: experiment,
            document,
            now: NOW,
          });
          expect(problems, `${id} in ${JSON.stringify(project)}`).toEqual({});
          const saved = section({
            ...project.experiments,
            [id]: experimentOfEdit(experiment, form),
          });
          expect(check(saved, project).issues).toEqual([]);
        }
      }),
      { numRuns: 400, seed: 59 },
    );
    // The property is about accepted projects: enough of them must have been drawn.
    expect(accepted).toBeGreaterThan(60);
  });

  it('where the form refuses a stretch of a layer, the validator refuses the project too', () => {
    let refused = 0;
    fc.assert(
      fc.property(projectArbitrary, (project) => {
        if (project === null) return;
        const document = documentOf(project);
        for (const [id, experiment] of Object.entries(project.experiments)) {
          const problems = editProblems({
            form: editFormOf(experiment),
            id,
            experiment,
            live: experiment,
            document,
            now: NOW,
          });
          if (problems.range === undefined) continue;
          refused += 1;
          const paths = check(project, project).issues.map((issue) => issue.path);
          expect(paths.some((path) => path.endsWith('.range'))).toBe(true);
        }
      }),
      { numRuns: 400, seed: 59 },
    );
    expect(refused).toBeGreaterThan(20);
  });
});
