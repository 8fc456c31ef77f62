import { describe, expect, it } from 'vitest';
import {
  type ExperimentEditForm,
  editFormOf,
  editProblems,
  editRangeWarning,
  experimentOfEdit,
  sharesChange,
} from '../../../console/experiments/experiment-edit-form';
import { moveText } from '../../../console/experiments/experiment-texts';
import { canArchive } from '../../../console/experiments/layer-space';
import { withExperimentRemoved } from '../../../console/kit/experiment-edits';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { ConfigDocument } from '../../../shared/console-api/config';
import { liveDocument } from './fixtures';

const NOW = new Date('2026-11-25T00:00:00Z');
const DAY = 86_400_000;

function priceTest(status: ExperimentDocument['status'] = 'running'): ExperimentDocument {
  return {
    name: 'Price US',
    hypothesis: 'A 3-day intro sells more.',
    status,
    layer: 'paywall',
    audience: { routes: ['default'] },
    coverage: 0.5,
    range: [0.3, 0.7],
    seed: 'seed1',
    phase: 1,
    startedAt: '2026-11-01T00:00:00Z',
    control: 'a',
    variants: {
      a: { weight: 1, change: {} },
      b: { weight: 1, change: { plans: ['monthly_3d_intro'] } },
    },
    metrics: { primary: 'mature_revenue', plannedPerArm: 5000 },
  };
}

function documentWith(experiments: Record<string, ExperimentDocument>): ConfigDocument {
  const document = liveDocument();
  return { ...document, experiments: { ...document.experiments, experiments } };
}

function problemsOf(
  change: Partial<ExperimentEditForm>,
  options: {
    live?: ExperimentDocument | undefined;
    others?: Record<string, ExperimentDocument>;
  } = {},
) {
  const experiment = priceTest(options.live?.status ?? 'running');
  const live = 'live' in options ? options.live : experiment;
  return editProblems({
    form: { ...editFormOf(experiment), ...change },
    id: 'price-us',
    experiment,
    live,
    document: documentWith({ 'price-us': experiment, ...options.others }),
    now: NOW,
  });
}

describe('the edit of an experiment', () => {
  it('gives back the same experiment when nothing is changed', () => {
    const experiment = priceTest();
    expect(experimentOfEdit(experiment, editFormOf(experiment))).toEqual(experiment);
    const whole = { ...priceTest(), range: undefined, hypothesis: undefined };
    const { range: _r, hypothesis: _h, ...bare } = whole;
    expect(experimentOfEdit(bare, editFormOf(bare))).toEqual(bare);
  });

  it('shows shares in percent as typed and makes shares of them again', () => {
    const form = editFormOf({ ...priceTest(), coverage: 0.3, range: [0.1, 0.7] });
    expect(form).toMatchObject({ coverage: 30, range: [10, 70], drainDays: 7 });
    expect(
      experimentOfEdit(priceTest(), { ...form, coverage: 57.5, range: [0, 100] }),
    ).toMatchObject({ coverage: 0.575, range: [0, 1] });
  });

  it('takes the names, notes, metrics, drain days and weights, and keeps the rest', () => {
    const experiment = priceTest();
    const edited = experimentOfEdit(experiment, {
      ...editFormOf(experiment),
      name: ' Price US, intro ',
      hypothesis: '  ',
      notes: ' week 2: more traffic ',
      primary: 'net_revenue',
      plannedPerArm: 8000,
      weights: { a: 1, b: 3 },
      drainDays: 0,
    });
    expect(edited).toEqual({
      ...experiment,
      name: 'Price US, intro',
      hypothesis: undefined,
      notes: 'week 2: more traffic',
      metrics: { primary: 'net_revenue', plannedPerArm: 8000 },
      variants: {
        a: { weight: 1, change: {} },
        b: { weight: 3, change: { plans: ['monthly_3d_intro'] } },
      },
      drainDays: 0,
    });
    expect(Object.hasOwn(edited, 'hypothesis')).toBe(false);
    // What the dialog does not show stays: seed, layer, audience, control, what variants change.
    expect(edited.seed).toBe('seed1');
    expect(edited.audience).toEqual({ routes: ['default'] });
  });

  it('accepts more coverage and a wider range around the old one on a running experiment', () => {
    expect(problemsOf({ coverage: 80, range: [20, 90] })).toEqual({});
  });

  it('refuses less coverage and a range that does not contain the old one while it runs', () => {
    const problems = problemsOf({ coverage: 40, range: [35, 90] });
    expect(problems.coverage).toBe('While it runs, the coverage can only rise: enter 50% or more.');
    expect(problems.range).toBe('While it runs, the range can only widen: it must contain 30–70%.');
    const paused = problemsOf({ range: [30, 60] }, { live: priceTest('paused') });
    expect(paused.range).toMatch(/^While it is paused, the range can only widen/);
  });

  it('lets a draft take less coverage and a narrower range', () => {
    expect(problemsOf({ coverage: 10, range: [40, 50] }, { live: priceTest('draft') })).toEqual({});
    expect(problemsOf({ coverage: 10, range: [40, 50] }, { live: undefined })).toEqual({});
  });

  it('refuses a range over another experiment of the layer', () => {
    const other: ExperimentDocument = {
      ...priceTest(),
      name: 'Plans',
      seed: 'seed2',
      range: [0.8, 1],
    };
    const problems = problemsOf({ range: [30, 90] }, { others: { plans: other } });
    expect(problems.range).toBe(
      'That stretch overlaps Plans in layer paywall, which holds visitors: keep it within the layer’s free space.',
    );
    expect(problemsOf({ range: [30, 80] }, { others: { plans: other } })).toEqual({});
  });

  it('refuses no draft a stretch another holds, as the validator does not, but says so', () => {
    const other: ExperimentDocument = { ...priceTest(), name: 'Plans', seed: 'seed2' };
    const draft = priceTest('draft');
    const options = {
      form: { ...editFormOf(draft), range: [0, 100] as [number, number] },
      id: 'price-us',
      experiment: draft,
      live: draft,
      document: documentWith({ 'price-us': draft, plans: other }),
      now: NOW,
    };
    expect(editProblems(options)).toEqual({});
    expect(editRangeWarning(options)).toBe(
      'That stretch overlaps Plans in layer paywall: the draft saves, but it cannot start while Plans holds it.',
    );
    // Another draft reserves nothing the validator counts.
    const both = {
      ...options,
      document: documentWith({ 'price-us': draft, plans: { ...other, status: 'draft' } }),
    };
    expect(editRangeWarning(both)).toBeNull();
  });

  it('refuses numbers out of bounds, each at its field', () => {
    expect(
      problemsOf({
        name: ' ',
        plannedPerArm: 50,
        coverage: 0,
        range: [70, 30],
        weights: { a: -1, b: 1.5 },
        drainDays: 91,
      }),
    ).toEqual({
      name: 'Give the experiment a name.',
      planned: 'Enter a whole number from 100 to 100,000,000.',
      coverage: 'Enter a share above 0%, at most 100%.',
      range: 'Enter a stretch from 0 to 100%, its start below its end.',
      // 1.5 is a weight the validator takes (shares of the total).
      'weight-a': 'Enter a number, 0 or more.',
      drain: 'Enter a whole number of days from 0 to 90.',
    });
    expect(problemsOf({ weights: { a: 0, b: 0 } })).toEqual({
      weights: 'Give at least one variant a weight above 0.',
    });
    expect(problemsOf({ plannedPerArm: Number.NaN }).planned).toBeDefined();
  });

  it('starts a new phase only when the drawn shares change', () => {
    const experiment = priceTest();
    expect(sharesChange(experiment, { a: 2, b: 2 })).toBe(false);
    expect(sharesChange(experiment, { a: 1, b: 3 })).toBe(true);
    expect(sharesChange(experiment, { a: 1, b: 0 })).toBe(true);
  });
});

describe('archiving and deleting', () => {
  const ended = (daysAgo: number, extra: Partial<ExperimentDocument> = {}): ExperimentDocument => ({
    ...priceTest('stopped'),
    endedAt: new Date(NOW.getTime() - daysAgo * DAY).toISOString(),
    ...extra,
  });

  it('offers archiving an ended experiment once its drain is over, a rolled-out one too', () => {
    expect(canArchive(ended(8), NOW)).toBe(true);
    expect(canArchive(ended(6), NOW)).toBe(false);
    expect(canArchive(ended(0, { drainDays: 0 }), NOW)).toBe(true);
    expect(canArchive({ ...priceTest('running') }, NOW)).toBe(false);
    const shipped = (action: 'roll_out' | 'route_default') =>
      ended(30, {
        status: 'shipped',
        decision: {
          result: 'won',
          action,
          variant: 'b',
          at: '2026-10-26T00:00:00Z',
          by: 'anna@example.com',
          evidence: {
            phase: 1,
            metric: 'mature_revenue',
            relativeLift: 0.1,
            interval: [0.02, 0.18],
            verdict: 'better',
            srmAlarm: false,
          },
        },
      });
    expect(canArchive(shipped('route_default'), NOW)).toBe(true);
    // Archived, a roll-out's audience loses the variant: the dialog says so (moveText).
    expect(canArchive(shipped('roll_out'), NOW)).toBe(true);
    expect(canArchive({ ...shipped('roll_out'), endedAt: ended(6).endedAt }, NOW)).toBe(false);
    expect(canArchive({ ...ended(30), status: 'archived' }, NOW)).toBe(false);
  });

  it('says archiving frees its range and the slots it changes', () => {
    expect(moveText('archive', ended(8), null)).toEqual([
      'Its drain is over: nobody keeps its variant. Archiving frees 30%–70% of layer paywall and the paywall it changes for good: other experiments may take them.',
      'Its results and decision stay readable. An archived experiment never runs again (duplicate it to test again), and it can then be deleted.',
    ]);
    const flowAndLanding: ExperimentDocument = {
      ...ended(8),
      range: undefined,
      variants: {
        a: { weight: 1, change: {} },
        b: { weight: 1, change: { flow: 'lp17', screens: { landing: 'one_pager_all' } } },
      },
    };
    expect(moveText('archive', flowAndLanding, null)[0]).toContain(
      'frees the whole layer paywall and the flow and the landing it changes',
    );
  });

  it('takes a deleted experiment out of the section and nothing else', () => {
    const document = documentWith({ 'price-us': priceTest('archived'), other: priceTest('draft') });
    const after = withExperimentRemoved(document, 'price-us');
    expect(Object.keys(after.experiments.experiments)).toEqual(['other']);
    expect(after.routing).toBe(document.routing);
    expect(Object.keys(document.experiments.experiments)).toEqual(['price-us', 'other']);
  });
});
