import { describe, expect, it } from 'vitest';
import {
  decisionEvidence,
  decisionOptions,
  reasonNeeded,
} from '../../../console/experiments/decision-options';
import { experimentOfForm } from '../../../console/experiments/experiment-presets';
import { moveText } from '../../../console/experiments/experiment-texts';
import {
  fitsFree,
  freeRanges,
  takenRanges,
  widestFree,
} from '../../../console/experiments/layer-space';
import { rampFormOf, rampOfForm } from '../../../console/experiments/ramp-form';
import {
  freeId,
  idOfName,
  withAlertsWebhook,
  withDecision,
  withDuplicate,
} from '../../../console/kit/experiment-edits';
import { rampLine } from '../../../console/kit/ramp-line';
import { withVariantAsRouteDefault } from '../../../console/kit/route-defaults';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import { wonDecision } from '../../fixtures/won-decision';
import { plansResults, priceResults } from './experiment-fixtures';
import { liveDocument } from './fixtures';

const NOW = new Date('2026-11-25T00:00:00Z');

function priceTest(): ExperimentDocument {
  return experimentOfForm(
    {
      preset: 'price',
      name: ' Price US ',
      hypothesis: '',
      layer: 'paywall',
      routes: ['default'],
      audience: '',
      coverage: 50,
      range: [30, 70],
      changes: [{ plans: ['monthly_3d_intro', 'quarterly'] }],
      primary: 'mature_revenue',
      plannedPerArm: 5000,
      ramp: rampFormOf(undefined),
    },
    'seed1',
  );
}

describe('a new experiment from a preset', () => {
  it('has equal weights, a control that changes nothing, shares in 0–1 and the seed given', () => {
    expect(priceTest()).toEqual({
      name: 'Price US',
      status: 'draft',
      layer: 'paywall',
      audience: { routes: ['default'] },
      coverage: 0.5,
      range: [0.3, 0.7],
      seed: 'seed1',
      control: 'a',
      variants: {
        a: { weight: 1, change: {} },
        b: { weight: 1, change: { plans: ['monthly_3d_intro', 'quarterly'] } },
      },
      metrics: { primary: 'mature_revenue', plannedPerArm: 5000 },
    });
  });

  it('takes an id from its name that no experiment has', () => {
    expect(idOfName('Price test: US / iOS')).toBe('price-test-us-ios');
    expect(freeId('price', { price: 1, 'price-2': 1 })).toBe('price-3');
  });
});

describe('the layers', () => {
  it('counts running, paused and draining experiments, and the split, as taken', () => {
    const document = liveDocument();
    document.experiments.experiments.price = { ...priceTest(), status: 'running' };
    document.experiments.experiments.old = {
      ...priceTest(),
      status: 'stopped',
      range: [0.8, 0.9],
      endedAt: '2026-11-01T00:00:00Z',
    };
    document.experiments.experiments.gone = { ...priceTest(), status: 'archived', range: [0, 0.3] };
    const taken = takenRanges(document, 'paywall', NOW);
    expect(taken.map((range) => range.id)).toEqual(['price']);
    expect(freeRanges(taken)).toEqual([
      [0, 0.3],
      [0.7, 1],
    ]);
    expect(widestFree(taken)).toEqual([0, 0.3]);
    expect(fitsFree(taken, 0.7, 1)).toBe(true);
    expect(fitsFree(taken, 0.6, 0.8)).toBe(false);
    // Stopped 24 days ago with 7 days of drain: free; stopped yesterday: still held.
    document.experiments.experiments.old.endedAt = '2026-11-24T00:00:00Z';
    expect(takenRanges(document, 'paywall', NOW).map((range) => range.id)).toEqual([
      'price',
      'old',
    ]);
    // The split of several variants holds the whole flow layer.
    expect(freeRanges(takenRanges(document, 'flow', NOW))).toEqual([]);
  });

  it('leaves a route the space an experiment on other routes takes, as the validator does', () => {
    const document = liveDocument();
    document.routing.routes.push({ id: 'spring', flow: 'default' });
    // A landing test rolled out on `default` holds its layer there for as long as it is shipped.
    document.experiments.experiments['landing-all'] = {
      ...document.experiments.experiments['landing-all']!,
      status: 'shipped',
      endedAt: '2026-11-01T00:00:00Z',
    };
    document.experiments.experiments['landing-all'].decision = wonDecision('b', {
      at: '2026-11-01T00:00:00Z',
    });
    const on = (routes?: string[]) =>
      freeRanges(takenRanges(document, 'landing', NOW, { audience: routes ? { routes } : {} }));
    expect(on()).toEqual([]);
    expect(on(['default'])).toEqual([]);
    expect(on(['spring'])).toEqual([[0, 1]]);
    // Without an audience (the layer bars): everything anyone takes.
    expect(freeRanges(takenRanges(document, 'landing', NOW))).toEqual([]);
    // The split takes the flow layer only on the routes it draws.
    expect(
      freeRanges(takenRanges(document, 'flow', NOW, { audience: { routes: ['spring'] } })),
    ).toEqual([[0, 1]]);
  });
});

describe('what a status change does for whom', () => {
  it('names the routes, the exposed count and the drain days', () => {
    const experiment = { ...priceTest(), status: 'running' as const, drainDays: 14 };
    expect(moveText('stop', experiment, 1204)[1]).toBe(
      'The 1,204 visitors already exposed keep their variant for 14 days, then see the route as it is too.',
    );
    expect(moveText('pause', experiment, null)[0]).toBe(
      'New visitors on route default stop entering; they see the route as it is.',
    );
  });

  it('starts a guarded ramp at its first step, the share its fields typed and its card then shows', () => {
    // The careful preset, as the create form makes it: 5% of the audience enters first.
    const ramp = rampOfForm({ ...rampFormOf(undefined), on: true }, NOW)!;
    const experiment = { ...priceTest(), coverage: 1, ramp };
    expect(moveText('start', experiment, null)[0]).toBe(
      'New visitors on route default who match its audience start entering on its guarded ramp: at step 1 of 4, 5% of those in its range of layer paywall, half in the variant and half in the control; more at each step while no guardrail breaks.',
    );
    expect(rampLine(ramp)).toBe(
      'Guarded ramp running, step 1 of 4 since 2026-11-25 00:00 UTC: 5% of its visitors enter, half of them getting the variant. Next gate: Step 2 (25% enter) once 2026-11-26 00:00 UTC has passed and each arm has 500 exposed, with no guardrail that holds or rolls back broken.',
    );
    // Without a ramp its coverage says who enters, split by the weights.
    expect(moveText('start', { ...priceTest(), ramp: undefined }, null)[0]).toBe(
      'New visitors on route default who match its audience start entering: 50% of those in its range of layer paywall, split between 2 variants by their weights.',
    );
  });
});

describe('the decision', () => {
  it('offers every choice with the verdict behind it, and keeps the chosen variant’s evidence', () => {
    const experiment = { ...priceTest(), status: 'running' as const, phase: 2 };
    const options = decisionOptions(experiment, plansResults(), null);
    expect(options.map((option) => option.value)).toEqual([
      'keep_control',
      'roll_out:b',
      'route_default:b',
    ]);
    expect(options[0]!.evidence).toBe('Better than the control on Purchase: b.');
    expect(options[1]!.evidence).toBe('better: +10% (+5% to +15%) on Purchase.');
    const evidence = decisionEvidence(experiment, plansResults(), 'b');
    expect(evidence).toEqual({
      phase: 2,
      metric: 'purchase',
      relativeLift: 0.1,
      interval: [0.05, 0.15000000000000002],
      verdict: 'better',
      srmAlarm: false,
    });
    expect(reasonNeeded(evidence, 'b')).toBeNull();
  });

  it('gives no verdict to ship on while a price test waits for its mature sample', () => {
    const experiment = { ...priceTest(), status: 'running' as const };
    const evidence = decisionEvidence(experiment, priceResults(), 'b');
    expect(evidence.verdict).toBeNull();
    expect(reasonNeeded(evidence, 'b')).toBe('Variant b did not win: say why it ships anyway.');
    expect(decisionOptions(experiment, priceResults(), null)[1]!.evidence).toBe(
      'No verdict on Mature net revenue per visitor: the mature sample has not reached 5,000 per variant.',
    );
  });

  it('asks a reason to end at all while the sample ratio alarm is on', () => {
    const answer = plansResults();
    answer.sampleRatio.alarm = true;
    const evidence = decisionEvidence(priceTest(), answer, undefined);
    expect(reasonNeeded(evidence, undefined)).toBe(
      'The sample ratio alarm is on: say why you end it anyway.',
    );
  });

  it('stops an experiment that keeps the control and ships one that rolls a variant out', () => {
    const document = liveDocument();
    document.experiments.experiments.price = { ...priceTest(), status: 'running' };
    const base = {
      result: 'lost' as const,
      at: '2026-11-25T00:00:00.000Z',
      by: 'm@example.com',
      evidence: decisionEvidence(priceTest(), null, undefined),
    };
    const kept = withDecision(document, 'price', {
      ...base,
      action: 'keep_control',
      variant: 'b',
      reason: '  ',
    });
    expect(kept.experiments.experiments.price!.status).toBe('stopped');
    expect(kept.experiments.experiments.price!.decision).toEqual({
      ...base,
      action: 'keep_control',
    });
    const shipped = withDecision(document, 'price', {
      ...base,
      result: 'won',
      action: 'roll_out',
      variant: 'b',
      reason: ' cheaper ',
    });
    expect(shipped.experiments.experiments.price!.status).toBe('shipped');
    expect(shipped.experiments.experiments.price!.decision?.reason).toBe('cheaper');
  });

  it('bakes a variant made the routes’ default into each route it names', () => {
    const document = liveDocument();
    const kinds = { one_pager: 'landing', one_pager_all: 'landing', checkout_v3_tr: 'checkout' };
    const baked = withVariantAsRouteDefault(document, 'landing-all', 'b', kinds);
    expect(baked.routing.routes).toEqual([{ id: 'default', flow: 'default_landing-all_b' }]);
    expect(baked.flows.flows['default_landing-all_b']).toEqual([
      'one_pager_all',
      'searching',
      'signup',
      'checkout_v3_tr',
      'success',
    ]);
    document.experiments.experiments.price = priceTest();
    expect(withVariantAsRouteDefault(document, 'price', 'b', kinds).routing.routes).toEqual([
      { id: 'default', flow: 'default', plans: ['monthly_3d_intro', 'quarterly'] },
    ]);
    const upsellTest = priceTest();
    upsellTest.layer = 'upsell';
    upsellTest.variants.b!.change = {
      upsellPlans: ['upsell_monthly_599'],
      guidePlans: ['guide_1799'],
    };
    document.experiments.experiments['up-599'] = upsellTest;
    expect(withVariantAsRouteDefault(document, 'up-599', 'b', kinds).routing.routes).toEqual([
      {
        id: 'default',
        flow: 'default',
        upsellPlans: ['upsell_monthly_599'],
        guidePlans: ['guide_1799'],
      },
    ]);
    // A content test's winner: the route's landing shows its content from now on.
    const headline = priceTest();
    headline.layer = 'landing';
    headline.variants.b!.change = { content: { one_pager: 'testimonials_first' } };
    document.experiments.experiments.headline = headline;
    expect(withVariantAsRouteDefault(document, 'headline', 'b', kinds).routing.routes).toEqual([
      { id: 'default', flow: 'default', content: { one_pager: 'testimonials_first' } },
    ]);
  });
});

describe('a follow-up', () => {
  it('is a draft with a new id and seed and nothing of the first one’s run', () => {
    const document = liveDocument();
    const copy = withDuplicate(document, 'landing-all', 'landing-all-followup', 'fresh').experiments
      .experiments['landing-all-followup'];
    expect(copy).toEqual({
      ...document.experiments.experiments['landing-all'],
      name: 'All-in-one landing (follow-up)',
      status: 'draft',
      seed: 'fresh',
      phase: undefined,
    });
    expect(copy && 'phase' in copy).toBe(false);
  });
});

describe('the alerts webhook', () => {
  it('is set, and taken out when emptied', () => {
    const set = withAlertsWebhook(liveDocument(), ' https://hooks.slack.com/services/x ');
    expect(set.experiments.alerts).toEqual({ webhook: 'https://hooks.slack.com/services/x' });
    expect('alerts' in withAlertsWebhook(set, '').experiments).toBe(false);
  });
});
