import { describe, expect, it } from 'vitest';
import type { ExperimentDocument } from '../../../../shared/config/experiments';
import type { RoutingDocument } from '../../../../shared/config/routing';
import { DEFAULT_SPLIT } from '../../../../worker/config/defaults';
import {
  type ExperimentsContext,
  validateExperiments,
} from '../../../../worker/experiments/config/validate';
import { rolledOutLanding } from '../../../fixtures/rolled-out';
import { CONTEXT, landingTest, priceTest, ROUTING, SPLIT, section } from './config-fixtures';

/**
 * The validator of the experiments section against flows, routing and the split: what a marketer
 * publishing from the console or `npm run config` is refused, and what they are warned of.
 */

function check(
  experiments: Record<string, ExperimentDocument>,
  context: Partial<ExperimentsContext> = {},
) {
  return validateExperiments(section(experiments), { ...CONTEXT, ...context });
}

const paths = (found: { path: string }[]) => found.map((issue) => issue.path);

/** A flow-layer test of its own on Meta US: the direct checkout against the route's funnel. */
const flowTest = (overrides: Partial<ExperimentDocument> = {}): ExperimentDocument =>
  landingTest({
    name: 'Meta US straight to the checkout',
    layer: 'flow',
    audience: { routes: ['meta-us'] },
    variants: {
      control: { weight: 1, change: {} },
      direct: { weight: 1, change: { flow: 'direct_checkout' } },
    },
    ...overrides,
  });

describe('a project with several experiments', () => {
  it('a price test on Meta US, a landing test on TikTok DACH and the split on default: all valid', () => {
    const result = check({
      'pw-us': priceTest(),
      'lp-dach': landingTest({ audience: { routes: ['tt-dach'] } }),
    });
    expect(result).toEqual({ issues: [], warnings: [] });
  });

  it('"split" is the split test: no experiment may take its id', () => {
    const { issues } = check({ split: priceTest() });
    expect(issues).toEqual([
      {
        path: 'experiments.experiments.split',
        message: '"split" is the split test\'s id: give this experiment another',
      },
    ]);
  });
});

describe('everything named exists', () => {
  it('a flow the flows lack is refused at the variant that names it', () => {
    const test = flowTest({
      variants: {
        control: { weight: 1, change: {} },
        direct: { weight: 1, change: { flow: 'direct_checkout_v2' } },
      },
    });
    const { issues } = check({ 'flow-direct': test });
    expect(issues).toContainEqual({
      path: 'experiments.experiments.flow-direct.variants.direct.change.flow',
      message:
        'names flow "direct_checkout_v2", which is not defined: add it to the flows, or choose another',
    });
  });

  it('a route and a saved audience the routing lacks are refused', () => {
    const test = priceTest({ audience: { routes: ['meta-us', 'meta-ca'], audience: 'canada' } });
    const { issues } = check({ 'pw-us': test });
    expect(issues).toEqual([
      {
        path: 'experiments.experiments.pw-us.audience.routes.1',
        message: 'names route "meta-ca", which is not defined: add the route, or take it out',
      },
      {
        path: 'experiments.experiments.pw-us.audience.audience',
        message:
          'names audience "canada", which is not defined: save it with the routes\' audiences, or take it out',
      },
    ]);
  });

  it('a screen swapped in at a slot must be a screen of that slot', () => {
    const test = landingTest({
      status: 'draft',
      variants: {
        control: { weight: 1, change: {} },
        ai: { weight: 1, change: { screens: { landing: 'searching_ai' } } },
      },
    });
    const { issues } = check({ 'lp-ai': test });
    expect(issues).toEqual([
      {
        path: 'experiments.experiments.lp-ai.variants.ai.change.screens.landing',
        message:
          '"searching_ai" is not a landing screen: choose one of one_pager, one_pager_all, one_pager_ai, one_pager_l1, one_pager_l2',
      },
    ]);
  });

  it('an archived experiment is not held to names that went away since', () => {
    const test = flowTest({
      status: 'archived',
      audience: { routes: ['black-friday'] },
      variants: {
        control: { weight: 1, change: {} },
        direct: { weight: 1, change: { flow: 'bf_2025' } },
      },
    });
    expect(check({ 'flow-bf': test })).toEqual({ issues: [], warnings: [] });
  });
});

describe('a running experiment exposes someone', () => {
  it('refused on a route where its variants do not differ: the route already offers its plans', () => {
    const routing: RoutingDocument = {
      ...ROUTING,
      routes: ROUTING.routes.map((route) =>
        route.id === 'meta-us'
          ? { ...route, plans: ['monthly_3d_intro', 'monthly', 'quarterly'] }
          : route,
      ),
    };
    const { issues } = check({ 'pw-us': priceTest() }, { routing });
    expect(issues).toEqual([
      {
        path: 'experiments.experiments.pw-us.audience.routes.0',
        message:
          'never exposes visitors on route "meta-us": its variants do not differ there; change what a variant changes, or take the route out',
      },
    ]);
  });

  it('refused when it names no route and differs on none', () => {
    // Every flow already ends on `success`.
    const test = landingTest({
      variants: {
        control: { weight: 1, change: {} },
        same: { weight: 1, change: { screens: { end: 'success' } } },
      },
    });
    const { issues } = check({ 'end-same': test });
    expect(issues).toEqual([
      {
        path: 'experiments.experiments.end-same.variants',
        message:
          'never exposes visitors: its variants do not differ on any route; change what a variant changes',
      },
    ]);
    // A paused one may resume, so it is held to the same; a draft is still being written.
    expect(paths(check({ 'end-same': { ...test, status: 'paused' } }).issues)).toEqual([
      'experiments.experiments.end-same.variants',
    ]);
    expect(check({ 'end-same': { ...test, status: 'draft' } }).issues).toEqual([]);
  });

  it('plans mean something only where the funnel has a checkout or paywall', () => {
    const routing: RoutingDocument = {
      ...ROUTING,
      routes: [{ id: 'leads-us', audience: 'us', flow: 'leads' }, ...ROUTING.routes],
    };
    const test = priceTest({ audience: { routes: ['meta-us', 'leads-us'] } });
    expect(check({ 'pw-us': test }, { routing })).toEqual({
      issues: [
        {
          path: 'experiments.experiments.pw-us.audience.routes.1',
          message:
            'never exposes visitors on route "leads-us": its variants do not differ there; change what a variant changes, or take the route out',
        },
      ],
      warnings: [
        {
          path: 'experiments.experiments.pw-us.variants.b.change',
          message:
            'variant "b" offers plans, but on route "leads-us" flow "leads" has no paywall screen: that part of the change shows no one there',
        },
      ],
    });
  });

  it('warns where a variant swaps a slot a named route does not have: that part shows no one', () => {
    const routing: RoutingDocument = {
      ...ROUTING,
      routes: [{ id: 'app', audience: 'iphones', flow: 'stripe_test' }, ...ROUTING.routes],
    };
    const test = landingTest({
      audience: { routes: ['default', 'app'] },
      variants: {
        control: { weight: 1, change: {} },
        ai: {
          weight: 1,
          change: { screens: { landing: 'one_pager_ai', paywall: 'paycheck_combo_3d' } },
        },
      },
    });
    expect(check({ 'lp-pw': test }, { routing })).toEqual({
      issues: [],
      warnings: [
        {
          path: 'experiments.experiments.lp-pw.variants.ai.change',
          message:
            'variant "ai" swaps the landing screen, but on route "app" flow "stripe_test" has no landing screen: that part of the change shows no one there',
        },
      ],
    });
  });
});

describe('a test of a rolled-out winner’s screen', () => {
  it('is refused for sharing the landing with the winner, not as exposing no one', () => {
    const shipped = landingTest({
      status: 'shipped',
      audience: { routes: ['default'] },
      endedAt: '2026-11-01T00:00:00.000Z',
      decision: rolledOutLanding(Date.parse('2026-11-02T00:00:00.000Z')).decision,
    });
    // The headline of the landing route default serves since the roll-out: one_pager_ai.
    const headline = flowTest({
      seed: 'E-headline',
      audience: { routes: ['default'] },
      variants: {
        control: { weight: 1, change: {} },
        short: { weight: 1, change: { content: { one_pager_ai: 'short' } } },
      },
    });
    const content = {
      screens: {
        one_pager_ai: {
          variants: { short: { copy: { en: { 'screens.one_pager_ai.title': 'Short' } } } },
        },
      },
    } satisfies ExperimentsContext['content'];
    const { issues } = check(
      { 'lp-ai': shipped, 'ct-headline': headline },
      { content, split: DEFAULT_SPLIT },
    );
    expect(issues.map((issue) => issue.message)).toEqual([
      'experiments "lp-ai" and "ct-headline" both change the landing screen for visitors they can share (layers "landing" and "flow"): put them in one layer, or give them audiences that cannot meet (other routes)',
    ]);
  });
});

describe('within a layer', () => {
  const second = () =>
    priceTest({
      name: 'US paywall: quarterly first',
      seed: 'E-77e0b9',
      variants: {
        a: { weight: 1, change: {} },
        q: { weight: 1, change: { plans: ['quarterly', 'monthly_7d_intro'] } },
      },
    });

  it('two price tests on the same route and overlapping ranges are refused, naming both', () => {
    const { issues } = check({
      'pw-us': priceTest({ range: [0, 0.6] }),
      'pw-us-q': { ...second(), range: [0.5, 1] },
    });
    expect(issues).toEqual([
      {
        path: 'experiments.experiments.pw-us-q.range',
        message:
          'experiments "pw-us" and "pw-us-q" of layer "paywall" can take the same visitors: their ranges [0, 0.6] and [0.5, 1] overlap and their audiences can meet; give them ranges that do not overlap, or audiences that cannot meet (other routes)',
      },
    ]);
  });

  it('ranges that do not overlap share the route: each visitor is in one of them', () => {
    const result = check({
      'pw-us': priceTest({ range: [0, 0.5] }),
      'pw-us-q': { ...second(), range: [0.5, 1] },
    });
    expect(result.issues).toEqual([]);
  });

  it('overlapping ranges on routes with none in common are allowed', () => {
    const result = check({
      'pw-us': priceTest(),
      'pw-dach': { ...second(), audience: { routes: ['tt-dach', 'default'] } },
    });
    expect(result.issues).toEqual([]);
  });

  it('overlapping ranges with countries that never meet are allowed, on every route', () => {
    const result = check({
      'pw-us': priceTest({ audience: { audience: 'us' } }),
      'pw-dach': {
        ...second(),
        audience: { groups: [[{ attribute: 'country', operator: 'in', values: ['DE', 'AT'] }]] },
      },
    });
    expect(result.issues).toEqual([]);
  });

  it("a new flow test on the split's route is refused: the split takes the whole flow layer there", () => {
    const { issues } = check({ 'flow-direct': flowTest({ audience: { routes: ['default'] } }) });
    expect(issues).toEqual([
      {
        path: 'experiments.experiments.flow-direct.range',
        message:
          'experiments "split" (the split test) and "flow-direct" of layer "flow" can take the same visitors: their ranges [0, 1] and [0, 1] overlap and their audiences can meet; give them ranges that do not overlap, or audiences that cannot meet (other routes)',
      },
    ]);
    // On another route it is free to run.
    expect(check({ 'flow-direct': flowTest() }).issues).toEqual([]);
  });

  it('a split of one variant tests nothing and holds no layer', () => {
    const result = check(
      { 'flow-direct': flowTest({ audience: { routes: ['default'] } }) },
      { split: DEFAULT_SPLIT },
    );
    expect(result.issues).toEqual([]);
  });
});

describe('across layers', () => {
  it('two tests swapping the landing for visitors they can share are refused, naming both', () => {
    const { issues } = check({
      'lp-ai': landingTest(),
      'flow-lp': flowTest({
        variants: {
          control: { weight: 1, change: {} },
          l1: { weight: 1, change: { screens: { landing: 'one_pager_l1' } } },
        },
      }),
    });
    expect(issues).toEqual([
      {
        path: 'experiments.experiments.flow-lp.layer',
        message:
          'experiments "lp-ai" and "flow-lp" both change the landing screen for visitors they can share (layers "landing" and "flow"): put them in one layer, or give them audiences that cannot meet (other routes)',
      },
    ]);
  });

  it('plans and a paywall screen are one slot: a price test and a paywall swap cannot share visitors', () => {
    const swap = landingTest({
      layer: 'signup',
      audience: { audience: 'meta_us' },
      variants: {
        control: { weight: 1, change: {} },
        combo: { weight: 1, change: { screens: { paywall: 'paycheck_combo_3d' } } },
      },
    });
    const { issues } = check({ 'pw-us': priceTest(), 'pw-combo': swap });
    expect(issues).toEqual([
      {
        path: 'experiments.experiments.pw-combo.layer',
        message:
          'experiments "pw-us" and "pw-combo" both change the paywall (its screen or plans) for visitors they can share (layers "paywall" and "signup"): put them in one layer, or give them audiences that cannot meet (other routes)',
      },
    ]);
  });

  it('a landing-layer test that changes the flow meets the split on its route', () => {
    const test = landingTest({
      audience: { routes: ['default'] },
      variants: {
        control: { weight: 1, change: {} },
        pr5: { weight: 1, change: { flow: 'lp17ch17pr5' } },
      },
    });
    expect(paths(check({ 'lp-pr5': test }).issues)).toEqual([
      'experiments.experiments.lp-pr5.layer',
    ]);
  });

  it('the same slot on audiences that never meet is allowed', () => {
    const result = check({
      'lp-ai': landingTest({ audience: { routes: ['tt-dach'] } }),
      'flow-lp': flowTest({
        variants: {
          control: { weight: 1, change: {} },
          l1: { weight: 1, change: { screens: { landing: 'one_pager_l1' } } },
        },
      }),
    });
    expect(result.issues).toEqual([]);
  });

  it('different slots overlap freely: a landing test and a price test on Meta US', () => {
    const result = check({
      'lp-ai': landingTest({ audience: { routes: ['meta-us'] } }),
      'pw-us': priceTest(),
    });
    expect(result).toEqual({ issues: [], warnings: [] });
  });

  it('warns when a flow variant lacks the slot another test swaps: those visitors never see it', () => {
    const result = check({ 'flow-direct': flowTest(), 'lp-ai': landingTest() });
    expect(result).toEqual({
      issues: [],
      warnings: [
        {
          path: 'experiments.experiments.flow-direct.variants.direct.change.flow',
          message:
            'experiment "lp-ai" never exposes visitors in variant "direct" of "flow-direct": flow "direct_checkout" has no landing screen',
        },
      ],
    });
  });

  it("the split's variants are flow variants too", () => {
    const split = {
      ...SPLIT,
      variants: { default: { weight: 50 }, 'direct/checkout': { weight: 50 } },
    };
    const { warnings } = check({ 'lp-ai': landingTest() }, { split });
    expect(warnings).toEqual([
      {
        path: 'split.variants.direct/checkout',
        message:
          'experiment "lp-ai" never exposes visitors in variant "direct/checkout" of "split" (the split test): flow "direct_checkout" has no landing screen',
      },
    ]);
  });
});

describe('ended experiments hold their layer while their visitors keep their variant', () => {
  const now = new Date('2026-12-10T12:00:00Z');
  const stopped = (endedAt: string, drainDays?: number) =>
    landingTest({
      status: 'stopped',
      endedAt,
      ...(drainDays === undefined ? {} : { drainDays }),
    });
  const rival = () =>
    flowTest({
      audience: { routes: ['meta-us'] },
      variants: {
        control: { weight: 1, change: {} },
        l1: { weight: 1, change: { screens: { landing: 'one_pager_l1' } } },
      },
    });

  it('a test stopped 2 days ago still holds the landing for 5 more days (7 by default)', () => {
    const { issues } = check({ old: stopped('2026-12-08T12:00:00Z'), 'flow-lp': rival() }, { now });
    expect(paths(issues)).toEqual(['experiments.experiments.flow-lp.layer']);
  });

  it('past its drain days it frees them', () => {
    expect(
      check({ old: stopped('2026-12-02T12:00:00Z'), 'flow-lp': rival() }, { now }).issues,
    ).toEqual([]);
    expect(
      check({ old: stopped('2026-12-08T12:00:00Z', 1), 'flow-lp': rival() }, { now }).issues,
    ).toEqual([]);
  });

  it('without a time to judge by, it holds them until archived', () => {
    expect(
      paths(check({ old: stopped('2026-01-01T00:00:00Z'), 'flow-lp': rival() }).issues),
    ).toEqual(['experiments.experiments.flow-lp.layer']);
    const archived = { ...stopped('2026-12-09T12:00:00Z'), status: 'archived' as const };
    expect(check({ old: archived, 'flow-lp': rival() }, { now }).issues).toEqual([]);
  });

  it('a shipped test rolling its variant out holds them for good', () => {
    const shipped = landingTest({
      status: 'shipped',
      endedAt: '2026-01-01T00:00:00Z',
      decision: {
        result: 'won',
        action: 'roll_out',
        variant: 'ai',
        at: '2026-01-01T00:00:00Z',
        by: 'anna@example.com',
        evidence: {
          phase: 1,
          metric: 'purchase',
          relativeLift: 0.09,
          interval: [0.03, 0.15],
          verdict: 'better',
          srmAlarm: false,
        },
      },
    });
    expect(paths(check({ old: shipped, 'flow-lp': rival() }, { now }).issues)).toEqual([
      'experiments.experiments.flow-lp.layer',
    ]);
  });
});

describe('a save offer test (docs/experiments.md, "Testing the save offer")', () => {
  const content = {
    screens: {},
    saveOffer: {
      title: { en: 'Stay with us' },
      text: { en: 'A free month on us.' },
      variants: { half_price: { title: { en: 'Stay for half price' } } },
    },
  } satisfies ExperimentsContext['content'];
  const at = 'experiments.experiments.save';

  /** A test of the `half_price` offer against the offer as written, in layer `subscriber`. */
  const saveTest = (overrides: Partial<ExperimentDocument> = {}): ExperimentDocument =>
    landingTest({
      name: 'Half price',
      layer: 'subscriber',
      variants: {
        control: { weight: 1, change: {} },
        half: { weight: 1, change: { saveOffer: 'half_price' } },
      },
      ...overrides,
    });

  it('runs in layer "subscriber", beside the funnel’s tests, with no trigger of its own', () => {
    expect(check({ save: saveTest(), 'pw-us': priceTest() }, { content })).toEqual({
      issues: [],
      warnings: [],
    });
  });

  it('an offer the content lacks is refused, naming those it has', () => {
    const test = saveTest({
      variants: {
        control: { weight: 1, change: {} },
        half: { weight: 1, change: { saveOffer: 'third_off' } },
      },
    });
    expect(check({ save: test }, { content }).issues).toEqual([
      {
        path: `${at}.variants.half.change.saveOffer`,
        message: 'names save offer "third_off", which is not defined: choose one of half_price',
      },
    ]);
    expect(check({ save: saveTest() }).issues).toEqual([
      {
        path: `${at}.variants.half.change.saveOffer`,
        message:
          'names save offer "half_price", which is not defined: add it to the save offer\'s variants',
      },
    ]);
  });

  it('a funnel layer, an audience or a funnel change is refused: the page draws by subscription', () => {
    expect(check({ save: saveTest({ layer: 'paywall' }) }, { content }).issues).toEqual([
      {
        path: `${at}.layer`,
        message:
          'changes the save offer, which the subscriber\'s page shows: put it in layer "subscriber"',
      },
    ]);
    const mixed = saveTest({
      audience: { routes: ['meta-us'] },
      variants: {
        control: { weight: 1, change: {} },
        half: { weight: 1, change: { saveOffer: 'half_price', plans: ['monthly'] } },
      },
    });
    expect(paths(check({ save: mixed }, { content }).issues)).toEqual([
      `${at}.audience`,
      `${at}.variants.half.change.plans`,
    ]);
  });

  it('two save offer tests share the layer as any two tests do: by ranges', () => {
    const both = { save: saveTest(), save2: saveTest({ seed: 'E-5a0c12' }) };
    expect(paths(check(both, { content }).issues)).toEqual(['experiments.experiments.save2.range']);
    const apart = {
      save: saveTest({ range: [0, 0.5] }),
      save2: saveTest({ seed: 'E-5a0c12', range: [0.5, 1] }),
    };
    expect(check(apart, { content }).issues).toEqual([]);
  });
});
