import { describe, expect, it } from 'vitest';
import type { ExperimentDocument } from '../../../../shared/config/experiments';
import { parseExperiments } from '../../../../shared/config/experiments';
import { parseRouting } from '../../../../shared/config/routing';
import { validateExperiments } from '../../../../worker/experiments/config/validate';
import { isPriceTest } from '../../../../worker/experiments/design/experiment-design';
import { CONTEXT, FLOWS, landingTest, ROUTING, section, upsellPriceTest } from './config-fixtures';

/**
 * The upsell's and the guide's plans of a route or a variant (`upsellPlans`, `guidePlans`):
 * refused by path when they name what the catalogue has not for that screen, and held by the
 * validator like any other change of the upsell slot.
 */

const UPSELLS =
  'upsell_monthly_999, upsell_monthly_799, upsell_monthly_599, upsell_quarterly_999, upsell_quarterly_799, upsell_quarterly_599';

function routingIssues(route: Record<string, unknown>) {
  const parsed = parseRouting({
    version: 'v1',
    audiences: {},
    routes: [{ id: 'default', flow: 'default', ...route }],
  });
  return parsed.ok ? [] : (parsed.issues ?? []);
}

function variantIssues(change: Record<string, unknown>) {
  const parsed = parseExperiments({
    version: 'v1',
    experiments: {
      up: {
        ...upsellPriceTest(),
        variants: { a: { weight: 1, change: {} }, b: { weight: 1, change } },
      },
    },
  });
  return parsed.ok ? [] : (parsed.issues ?? []);
}

describe('a route’s upsell and guide plans', () => {
  it('take the catalogue’s upsell tiers and guides', () => {
    expect(
      routingIssues({
        plans: ['monthly'],
        upsellPlans: ['upsell_monthly_599', 'upsell_quarterly_599'],
        guidePlans: ['guide_1799'],
      }),
    ).toEqual([]);
  });

  it('refuse a main plan as an upsell plan, an upsell as a guide, and an unknown plan, by path', () => {
    expect(
      routingIssues({
        upsellPlans: ['upsell_monthly_799', 'monthly_7d_intro'],
        guidePlans: ['upsell_monthly_799'],
      }),
    ).toEqual([
      {
        path: 'routes.0.upsellPlans.1',
        message: `"monthly_7d_intro" is a main plan, not an upsell plan: choose one of ${UPSELLS}`,
      },
      {
        path: 'routes.0.guidePlans.0',
        message:
          '"upsell_monthly_799" is an upsell plan, not a guide plan: choose one of guide_899, guide_1799',
      },
    ]);
    expect(routingIssues({ upsellPlans: ['upsell_monthly_1999'] })).toEqual([
      {
        path: 'routes.0.upsellPlans.0',
        message: `"upsell_monthly_1999" is not an upsell plan of the catalogue (${UPSELLS})`,
      },
    ]);
    expect(routingIssues({ plans: ['guide_899'] })).toEqual([
      {
        path: 'routes.0.plans.0',
        message:
          '"guide_899" is a guide plan, not a main plan: choose one of monthly, monthly_7d_intro, quarterly, monthly_5d_intro, monthly_3d_intro',
      },
    ]);
  });

  it('refuse two guides, three upsell tiers, an empty list and a plan twice', () => {
    expect(routingIssues({ guidePlans: ['guide_899', 'guide_1799'] })).toEqual([
      { path: 'routes.0.guidePlans', message: 'must list one plan: the screen offers one' },
    ]);
    expect(
      routingIssues({
        upsellPlans: ['upsell_monthly_999', 'upsell_monthly_799', 'upsell_monthly_599'],
      }),
    ).toEqual([{ path: 'routes.0.upsellPlans', message: 'must list at most 2 plans' }]);
    expect(routingIssues({ upsellPlans: [] })).toEqual([
      { path: 'routes.0.upsellPlans', message: 'must list at least one plan' },
    ]);
    expect(routingIssues({ upsellPlans: ['upsell_monthly_799', 'upsell_monthly_799'] })).toEqual([
      { path: 'routes.0.upsellPlans', message: 'must not list a plan twice' },
    ]);
  });
});

describe('a variant’s upsell and guide plans', () => {
  it('refuse a main plan as an upsell plan, and a guide as a main plan, by path', () => {
    expect(variantIssues({ upsellPlans: ['quarterly'], plans: ['guide_899'] })).toEqual([
      {
        path: 'experiments.up.variants.b.change.plans.0',
        message: expect.stringMatching(/^"guide_899" is a guide plan, not a main plan/),
      },
      {
        path: 'experiments.up.variants.b.change.upsellPlans.0',
        message: expect.stringMatching(/^"quarterly" is a main plan, not an upsell plan/),
      },
    ]);
  });

  it('the control changes nothing, upsell plans included', () => {
    const parsed = parseExperiments({
      version: 'v1',
      experiments: {
        up: upsellPriceTest({
          variants: {
            a: { weight: 1, change: { upsellPlans: ['upsell_monthly_599'] } },
            b: { weight: 1, change: { upsellPlans: ['upsell_monthly_799'] } },
          },
        }),
      },
    });
    expect(parsed.ok ? [] : parsed.issues?.map((issue) => issue.path)).toEqual([
      'experiments.up.variants.a.change',
    ]);
  });
});

describe('the validator', () => {
  const check = (experiments: Record<string, ExperimentDocument>, context = CONTEXT) =>
    validateExperiments(section(experiments), context);

  it('an upsell price test on every route is valid, and a price test', () => {
    expect(check({ 'up-799': upsellPriceTest() })).toEqual({ issues: [], warnings: [] });
    expect(isPriceTest(upsellPriceTest())).toBe(true);
  });

  it('upsell plans and an upsell screen are one slot: two layers cannot both change it', () => {
    const swap = landingTest({
      layer: 'landing',
      variants: {
        control: { weight: 1, change: {} },
        guide: { weight: 1, change: { screens: { upsell: 'upsell_guide' } } },
      },
    });
    const { issues } = check({ 'up-799': upsellPriceTest(), 'up-guide': swap });
    expect(issues).toEqual([
      {
        path: 'experiments.experiments.up-guide.layer',
        message:
          'experiments "up-799" and "up-guide" both change the upsell (its screen or plans) for visitors they can share (layers "upsell" and "landing"): put them in one layer, or give them audiences that cannot meet (other routes)',
      },
    ]);
  });

  it('a running guide price test where no flow has the guide never exposes: refused', () => {
    const test = upsellPriceTest({
      variants: {
        a: { weight: 1, change: {} },
        b: { weight: 1, change: { guidePlans: ['guide_1799'] } },
      },
    });
    expect(check({ guide: test }).issues).toEqual([
      {
        path: 'experiments.experiments.guide.variants',
        message:
          'never exposes visitors: its variants do not differ on any route; change what a variant changes',
      },
    ]);
  });

  it('warns where a named route’s flow has no guide: that part of the change shows no one', () => {
    const test = upsellPriceTest({
      audience: { routes: ['meta-us'] },
      variants: {
        a: { weight: 1, change: {} },
        b: {
          weight: 1,
          change: { upsellPlans: ['upsell_monthly_599'], guidePlans: ['guide_1799'] },
        },
      },
    });
    expect(check({ both: test })).toEqual({
      issues: [],
      warnings: [
        {
          path: 'experiments.experiments.both.variants.b.change.guidePlans',
          message:
            'variant "b" offers guide plans, but on route "meta-us" flow "lp11ch8_vc" has no guide screen: that part of the change shows no one there',
        },
      ],
    });
  });

  it('a route that already offers the variant’s tiers never exposes the test there', () => {
    const routing = {
      ...ROUTING,
      routes: ROUTING.routes.map((route) =>
        route.id === 'meta-us'
          ? { ...route, upsellPlans: ['upsell_monthly_799', 'upsell_quarterly_799'] }
          : route,
      ),
    };
    const test = upsellPriceTest({ audience: { routes: ['meta-us'] } });
    expect(
      check({ 'up-799': test }, { ...CONTEXT, flows: FLOWS, routing }).issues.map((i) => i.path),
    ).toEqual(['experiments.experiments.up-799.audience.routes.0']);
  });
});
