import { describe, expect, it } from 'vitest';
import type { ExperimentDocument } from '../../../../shared/config/experiments';
import { EXPERIMENT_STATUSES, type ExperimentStatus } from '../../../../shared/experiments';
import { validateExperiments } from '../../../../worker/experiments/config/validate';
import { CONTEXT, priceTest, section } from './config-fixtures';

/**
 * What a marketer may change of the price test on Meta US once it runs, and what is refused with
 * "stop it and duplicate it": a publish is checked against the section as published.
 */

/** The live test: half the layer, half the visitors, Meta from the US. */
const LIVE = priceTest({
  range: [0.2, 0.7],
  coverage: 0.5,
  audience: {
    routes: ['meta-us'],
    groups: [
      [
        { attribute: 'source', operator: 'in', values: ['meta'] },
        { attribute: 'country', operator: 'in', values: ['US'] },
      ],
    ],
  },
});

function issuesAfter(
  edit: (live: ExperimentDocument) => ExperimentDocument | null,
  live: ExperimentDocument = LIVE,
) {
  const next = edit(structuredClone(live));
  const doc = section(next === null ? {} : { 'pw-us': next });
  return validateExperiments(doc, CONTEXT, section({ 'pw-us': live })).issues;
}

describe('safe edits of a running experiment publish', () => {
  it.each<[string, (e: ExperimentDocument) => ExperimentDocument]>([
    [
      'its name, hypothesis and notes',
      (e) => ({
        ...e,
        name: 'US paywall: intros',
        hypothesis: 'Cheaper intros sell.',
        notes: 'Meta only.',
      }),
    ],
    ['its metrics', (e) => ({ ...e, metrics: { primary: 'net_revenue', plannedPerArm: 20000 } })],
    ['its drain days', (e) => ({ ...e, drainDays: 14 })],
    ['more coverage', (e) => ({ ...e, coverage: 0.8 })],
    ['a wider range containing the old', (e) => ({ ...e, range: [0, 0.9] })],
    [
      'a condition removed',
      (e) => ({
        ...e,
        audience: {
          ...e.audience,
          groups: [[{ attribute: 'country', operator: 'in', values: ['US'] }]],
        },
      }),
    ],
    ['all conditions removed', (e) => ({ ...e, audience: { routes: ['meta-us'] } })],
    [
      'a value added to an in list',
      (e) => ({
        ...e,
        audience: {
          ...e.audience,
          groups: [
            [
              { attribute: 'source', operator: 'in', values: ['meta'] },
              { attribute: 'country', operator: 'in', values: ['US', 'CA'] },
            ],
          ],
        },
      }),
    ],
    [
      'a group added',
      (e) => ({
        ...e,
        audience: {
          ...e.audience,
          groups: [
            ...(e.audience.groups ?? []),
            [{ attribute: 'source', operator: 'in', values: ['tiktok'] }],
          ],
        },
      }),
    ],
    [
      'a route added',
      (e) => ({ ...e, audience: { ...e.audience, routes: ['meta-us', 'default'] } }),
    ],
    [
      'its weights (a new phase)',
      (e) => ({
        ...e,
        variants: { a: { ...e.variants.a!, weight: 1 }, b: { ...e.variants.b!, weight: 3 } },
      }),
    ],
    [
      'a variant paused with weight 0',
      (e) => ({ ...e, variants: { ...e.variants, b: { ...e.variants.b!, weight: 0 } } }),
    ],
    [
      "a variant's name",
      (e) => ({
        ...e,
        variants: { ...e.variants, b: { ...e.variants.b!, name: '3-day intro at 2.99' } },
      }),
    ],
    [
      'the same change written in another key order',
      (e) => ({ ...e, variants: { b: e.variants.b!, a: e.variants.a! } }),
    ],
    ['paused', (e) => ({ ...e, status: 'paused' })],
    ['stopped', (e) => ({ ...e, status: 'stopped' })],
  ])('%s', (_what, edit) => {
    expect(issuesAfter(edit)).toEqual([]);
  });
});

describe('other edits are refused: stop it and duplicate it', () => {
  const at = (field: string) => `experiments.experiments.pw-us${field}`;

  it.each<[string, (e: ExperimentDocument) => ExperimentDocument, string, string]>([
    [
      'the control',
      (e) => ({
        ...e,
        control: 'b',
        variants: {
          a: { weight: 1, change: { plans: ['monthly_7d_intro'] } },
          b: { weight: 1, change: {} },
        },
      }),
      '.control',
      'the control cannot change while it runs: stop it and duplicate it to change this',
    ],
    [
      'what a variant changes (another price)',
      (e) => ({
        ...e,
        variants: {
          ...e.variants,
          b: { weight: 1, change: { plans: ['monthly_5d_intro', 'monthly'] } },
        },
      }),
      '.variants.b.change',
      'what variant "b" changes cannot change while it runs: stop it and duplicate it to change this',
    ],
    [
      'a variant added',
      (e) => ({
        ...e,
        variants: { ...e.variants, c: { weight: 1, change: { plans: ['monthly_5d_intro'] } } },
      }),
      '.variants.c',
      'variant "c" cannot be added while it runs: stop it and duplicate it to change this',
    ],
    [
      'a variant removed',
      (e) => ({
        ...e,
        variants: { a: e.variants.a!, b2: { weight: 1, change: { plans: ['quarterly'] } } },
      }),
      '.variants.b',
      'variant "b" cannot be removed (weight 0 stops drawing it) while it runs: stop it and duplicate it to change this',
    ],
    [
      'a narrower range',
      (e) => ({ ...e, range: [0.2, 0.6] }),
      '.range',
      'the range can only widen (to contain [0.2, 0.7]) while it runs: stop it and duplicate it to change this',
    ],
    [
      'a range moved',
      (e) => ({ ...e, range: [0.5, 1] }),
      '.range',
      'the range can only widen (to contain [0.2, 0.7]) while it runs: stop it and duplicate it to change this',
    ],
    [
      'less coverage',
      (e) => ({ ...e, coverage: 0.25 }),
      '.coverage',
      'the coverage can only rise (from 0.5) while it runs: stop it and duplicate it to change this',
    ],
    [
      'a route taken out',
      (e) => ({ ...e, audience: { ...e.audience, routes: ['default'] } }),
      '.audience.routes',
      'route "meta-us" cannot be taken out while it runs: stop it and duplicate it to change this',
    ],
    [
      'a saved audience set',
      (e) => ({ ...e, audience: { ...e.audience, audience: 'us' } }),
      '.audience.audience',
      'the saved audience can only be removed, not set or changed, while it runs: stop it and duplicate it to change this',
    ],
    [
      'a condition added',
      (e) => ({
        ...e,
        audience: {
          ...e.audience,
          groups: [
            [...e.audience.groups![0]!, { attribute: 'platform', operator: 'in', values: ['ios'] }],
          ],
        },
      }),
      '.audience.groups',
      'the conditions can only be loosened (a condition removed, a value added to an "in" list), never tightened, while it runs: stop it and duplicate it to change this',
    ],
    [
      'a value taken out of an in list',
      (e) => ({
        ...e,
        audience: {
          ...e.audience,
          groups: [
            [
              { attribute: 'source', operator: 'in', values: ['meta'] },
              { attribute: 'country', operator: 'in', values: ['CA'] },
            ],
          ],
        },
      }),
      '.audience.groups',
      'the conditions can only be loosened (a condition removed, a value added to an "in" list), never tightened, while it runs: stop it and duplicate it to change this',
    ],
    [
      'the seed',
      (e) => ({ ...e, seed: 'E-restart' }),
      '.seed',
      'cannot change once it has run (its visitors would be drawn again): duplicate it to change this',
    ],
    [
      'the layer',
      (e) => ({ ...e, layer: 'signup' }),
      '.layer',
      'cannot change once it has run (its visitors hold buckets of layer "paywall"): duplicate it to change this',
    ],
  ])('%s', (_what, edit, field, message) => {
    expect(issuesAfter(edit)).toContainEqual({ path: at(field), message });
  });

  it('a paused experiment is held to the same, since it may resume', () => {
    const paused = { ...LIVE, status: 'paused' as const };
    expect(issuesAfter((e) => ({ ...e, coverage: 0.25 }), paused)).toEqual([
      {
        path: at('.coverage'),
        message:
          'the coverage can only rise (from 0.5) while it is paused: stop it and duplicate it to change this',
      },
    ]);
  });

  it('naming routes where it took every route narrows it', () => {
    const everywhere = { ...LIVE, audience: {} };
    expect(issuesAfter((e) => ({ ...e, audience: { routes: ['meta-us'] } }), everywhere)).toEqual([
      {
        path: at('.audience.routes'),
        message:
          'routes cannot be named (that narrows it from every route) while it runs: stop it and duplicate it to change this',
      },
    ]);
  });

  it('once ended, its seed and layer still never change; the rest may', () => {
    const stopped = { ...LIVE, status: 'stopped' as const };
    expect(issuesAfter((e) => ({ ...e, coverage: 0.1, seed: 'E-other' }), stopped)).toEqual([
      {
        path: at('.seed'),
        message:
          'cannot change once it has run (its visitors would be drawn again): duplicate it to change this',
      },
    ]);
  });

  it('a draft changes freely', () => {
    const draft = { ...LIVE, status: 'draft' as const };
    expect(
      issuesAfter(
        (e) => ({ ...e, seed: 'E-new', layer: 'signup', range: [0, 0.1], coverage: 0.1 }),
        draft,
      ),
    ).toEqual([]);
  });
});

describe('status changes', () => {
  const ALLOWED: Record<ExperimentStatus, readonly ExperimentStatus[]> = {
    draft: ['draft', 'running', 'archived'],
    running: ['running', 'paused', 'stopped', 'shipped'],
    paused: ['paused', 'running', 'stopped', 'shipped'],
    stopped: ['stopped', 'shipped', 'archived'],
    shipped: ['shipped', 'archived'],
    archived: ['archived'],
  };
  const shipping = {
    result: 'won',
    action: 'roll_out',
    variant: 'b',
    at: '2026-12-10T10:12:00Z',
    by: 'anna@example.com',
    evidence: {
      phase: 1,
      metric: 'mature_revenue',
      relativeLift: 0.12,
      interval: [0.04, 0.2],
      verdict: 'better',
      srmAlarm: false,
    },
  } satisfies ExperimentDocument['decision'];
  const pairs = EXPERIMENT_STATUSES.flatMap((from) =>
    EXPERIMENT_STATUSES.map((to) => [from, to] as const),
  );

  it.each(pairs)('%s → %s', (from, to) => {
    const live = { ...LIVE, status: from, decision: shipping };
    const issues = issuesAfter((e) => ({ ...e, status: to }), live).filter((issue) =>
      issue.path.endsWith('.status'),
    );
    expect(issues.length === 0).toBe(ALLOWED[from].includes(to));
  });

  it('each refusal says what to do instead', () => {
    const to = (from: ExperimentStatus, status: ExperimentStatus) =>
      issuesAfter((e) => ({ ...e, status }), { ...LIVE, status: from, decision: shipping })[0]
        ?.message;
    expect(to('running', 'draft')).toBe(
      'cannot go from running to draft: it has run; duplicate it to draft a new one',
    );
    expect(to('archived', 'running')).toBe(
      'cannot go from archived to running: an archived experiment stays archived; duplicate it',
    );
    expect(to('stopped', 'running')).toBe(
      'cannot go from stopped to running: an ended experiment does not run again; duplicate it to test again',
    );
    expect(to('running', 'archived')).toBe(
      'cannot go from running to archived: stop it or ship it first',
    );
    expect(to('draft', 'stopped')).toBe(
      'cannot go from draft to stopped: a draft starts by running',
    );
  });

  it('a new experiment starts as a draft or running', () => {
    const doc = section({
      'pw-us': LIVE,
      'pw-new': priceTest({ status: 'paused', seed: 'E-new', audience: { routes: ['tt-dach'] } }),
    });
    expect(validateExperiments(doc, CONTEXT, section({ 'pw-us': LIVE })).issues).toEqual([
      {
        path: 'experiments.experiments.pw-new.status',
        message: 'a new experiment cannot start paused: publish it as a draft or running',
      },
    ]);
  });

  it('a running experiment cannot be deleted; a stopped one can', () => {
    expect(issuesAfter(() => null)).toEqual([
      {
        path: 'experiments.experiments.pw-us',
        message:
          'is running: stop it (its exposed visitors keep their variant for its drain days), then archive it, before deleting it',
      },
    ]);
    expect(issuesAfter(() => null, { ...LIVE, status: 'stopped' })).toEqual([]);
  });

  it('are checked whatever the split, even one of one variant that tests nothing', () => {
    // The built-in split holds no part of the flow layer; the edits are checked all the same.
    const oneVariant = {
      ...CONTEXT,
      split: { version: 'v1', defaultVariant: 'default', variants: { default: { weight: 1 } } },
    };
    const next = section({ 'pw-us': { ...LIVE, seed: 'E-restart' } });
    const issues = validateExperiments(next, oneVariant, section({ 'pw-us': LIVE })).issues;
    expect(issues.map((issue) => issue.path)).toEqual(['experiments.experiments.pw-us.seed']);
    const deleted = validateExperiments(section({}), oneVariant, section({ 'pw-us': LIVE })).issues;
    expect(deleted.map((issue) => issue.path)).toEqual(['experiments.experiments.pw-us']);
  });

  it('without a live section to compare with, nothing counts as an edit', () => {
    const doc = section({ 'pw-us': { ...LIVE, status: 'paused' } });
    expect(validateExperiments(doc, CONTEXT, null).issues).toEqual([]);
  });
});

describe("a layer's seed", () => {
  const withSeed = (seed: string | null, experiment: ExperimentDocument = LIVE) => ({
    ...section({ 'pw-us': experiment }),
    ...(seed === null ? {} : { layers: { paywall: { seed } } }),
  });

  it('cannot change while a running experiment holds part of the layer', () => {
    const issues = validateExperiments(withSeed('L-9a2e51'), CONTEXT, withSeed(null)).issues;
    expect(issues).toEqual([
      {
        path: 'experiments.layers.paywall.seed',
        message:
          'cannot change while "pw-us" holds part of layer "paywall": visitors not yet exposed would move in or out of its range; stop it first',
      },
    ]);
  });

  it('may change when the experiments of the layer take all of it, or none runs', () => {
    const whole = { ...LIVE, range: [0, 1] as [number, number] };
    expect(
      validateExperiments(withSeed('L-1', whole), CONTEXT, withSeed('L-0', whole)).issues,
    ).toEqual([]);
    const stopped = { ...LIVE, status: 'stopped' as const };
    expect(
      validateExperiments(withSeed('L-1', stopped), CONTEXT, withSeed('L-0', stopped)).issues,
    ).toEqual([]);
  });
});
