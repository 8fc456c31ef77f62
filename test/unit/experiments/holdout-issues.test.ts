import { describe, expect, it } from 'vitest';
import {
  type ExperimentDocument,
  type ExperimentsDocument,
  parseExperiments,
} from '../../../shared/config/experiments';
import type { HoldoutDocument } from '../../../shared/config/holdout';
import {
  DEFAULT_CONTENT,
  DEFAULT_FLOWS,
  DEFAULT_ROUTING,
  DEFAULT_SPLIT,
} from '../../../worker/config/defaults';
import { validateExperiments } from '../../../worker/experiments/config/validate';
import { aiLandingTest } from '../../fixtures/ai-landing-test';
import { rolledOutLanding } from '../../fixtures/rolled-out';

/**
 * What a publish may do to the holdout (worker/experiments/holdout/holdout-issues.ts, through
 * the one validator the console, the CLI and `npm run config` run): its seed, percent and start
 * stay while it runs, it moves running → analysis → ended, a new one takes a new seed and starts
 * after every experiment running, and a covered experiment is not made a route's default.
 */

const STARTED = '2026-11-01T00:00Z';
const HOLDOUT: HoldoutDocument = { seed: 'h-1', percent: 5, status: 'running', startedAt: STARTED };

const LANDING: ExperimentDocument = { ...aiLandingTest(1), startedAt: '2026-11-03T00:00Z' };

function doc(
  holdout: HoldoutDocument | undefined,
  experiments: Record<string, ExperimentDocument> = {},
): ExperimentsDocument {
  return { version: 'e1', experiments, ...(holdout ? { holdout } : {}) };
}

/** The refusals about the holdout, as `path: message`. */
function refusals(next: ExperimentsDocument, live?: ExperimentsDocument | null): string[] {
  const check = validateExperiments(
    next,
    {
      flows: DEFAULT_FLOWS,
      routing: DEFAULT_ROUTING,
      split: DEFAULT_SPLIT,
      content: DEFAULT_CONTENT,
      now: new Date('2026-11-20T00:00Z'),
    },
    live ?? undefined,
  );
  return check.issues
    .filter((issue) => `${issue.path} ${issue.message}`.includes('holdout'))
    .map((issue) => `${issue.path}: ${issue.message}`);
}

describe('the holdout in the experiments section', () => {
  it('takes 1 to 10 percent, and says when its analysis period began', () => {
    expect(parseExperiments(doc(HOLDOUT)).ok).toBe(true);
    const eleven = parseExperiments(doc({ ...HOLDOUT, percent: 11 }));
    expect(eleven.ok ? [] : eleven.issues).toEqual([
      { path: 'holdout.percent', message: 'must be from 1 to 10' },
    ]);
    const analysis = parseExperiments(doc({ ...HOLDOUT, status: 'analysis' }));
    expect(analysis.ok ? [] : (analysis.issues ?? []).map((issue) => issue.path)).toEqual([
      'holdout.analysisFrom',
    ]);
  });

  it('refuses a change of seed or percent while it runs, saying why', () => {
    const live = doc(HOLDOUT);
    expect(refusals(doc({ ...HOLDOUT, percent: 8 }), live)).toEqual([
      'experiments.holdout.percent: cannot change from 5 to 8 while the holdout runs (it would move visitors between the groups): end it, then start a new one with a new seed',
    ]);
    expect(refusals(doc({ ...HOLDOUT, seed: 'h-2' }), live)).toEqual([
      'experiments.holdout.seed: cannot change while the holdout runs (it would move visitors between the groups): end it, then start a new one',
    ]);
    expect(refusals(doc({ ...HOLDOUT, startedAt: '2026-10-01T00:00Z' }), live)).toHaveLength(1);
    expect(refusals(doc(undefined), live)).toEqual([
      'experiments.holdout: cannot be removed while it runs: end it first',
    ]);
  });

  it('moves running → analysis → ended, never back', () => {
    const analysis: HoldoutDocument = {
      ...HOLDOUT,
      status: 'analysis',
      analysisFrom: '2026-11-15T00:00Z',
    };
    expect(refusals(doc(analysis), doc(HOLDOUT))).toEqual([]);
    const ended: HoldoutDocument = { ...analysis, status: 'ended', endedAt: '2026-11-20T00:00Z' };
    expect(refusals(doc(ended), doc(analysis))).toEqual([]);
    expect(refusals(doc(HOLDOUT), doc(analysis))).toEqual([
      'experiments.holdout.analysisFrom: cannot change once set (it says which experiments the holdout covers)',
      'experiments.holdout.status: cannot go from analysis to running: a holdout moves running → analysis → ended',
    ]);
  });

  it('starts a new holdout with a new seed, after every experiment already running', () => {
    const ended: HoldoutDocument = { ...HOLDOUT, status: 'ended', endedAt: '2026-11-10T00:00Z' };
    const again: HoldoutDocument = { ...HOLDOUT, startedAt: '2026-11-20T00:00Z' };
    expect(refusals(doc(again), doc(ended))).toEqual([
      'experiments.holdout.seed: a new holdout takes a new seed: with "h-1" it would hold out the same visitors again',
    ]);
    expect(refusals(doc({ ...again, seed: 'h-2' }), doc(ended))).toEqual([]);
    const running = { 'lp-ai': LANDING };
    expect(refusals(doc(HOLDOUT, running), doc(undefined, running))).toEqual([
      'experiments.holdout.startedAt: must not come before the start of "lp-ai", which already runs and may have exposed its visitors: start the holdout now',
    ]);
  });

  it("keeps the id `holdout` for the holdout's pin", () => {
    expect(refusals(doc(undefined, { holdout: LANDING }))).toEqual([
      'experiments.experiments.holdout: "holdout" is the holdout\'s id: give this experiment another',
    ]);
  });

  it('refuses making a covered experiment a route default while it runs', () => {
    const rolledOut = rolledOutLanding(Date.parse('2026-11-11T00:00Z'));
    const routeDefault: ExperimentDocument = {
      ...rolledOut,
      startedAt: '2026-11-03T00:00Z',
      decision: { ...rolledOut.decision!, action: 'route_default' },
    };
    expect(refusals(doc(HOLDOUT, { 'lp-ai': routeDefault }))).toContain(
      'experiments.experiments.lp-ai.decision.action: cannot make a route default while the holdout covers this experiment (its visitors would get it too): roll it out instead',
    );
    const before = { ...routeDefault, startedAt: '2026-10-01T00:00Z' };
    expect(refusals(doc(HOLDOUT, { 'lp-ai': before }))).toEqual([]);
  });
});
