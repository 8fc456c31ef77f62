import { describe, expect, it } from 'vitest';
import type { FlowsDocument } from '../../../../shared/config/flows';
import { experimentFromSplit } from '../../../../worker/experiments/config/migrate-split';
import { experimentTriggers, triggerFor } from '../../../../worker/experiments/config/triggers';
import { applyChange, routeFunnel } from '../../../../worker/funnel/flow';
import { rolledOutLanding } from '../../../fixtures/rolled-out';
import {
  CONTEXT,
  FLOWS,
  landingTest,
  priceTest,
  ROUTING,
  SPLIT,
  section,
  upsellPriceTest,
} from './config-fixtures';

/**
 * Where an experiment exposes its visitors, route by route: the first screen at which its
 * variants' funnels differ. A visitor served that screen or a later one is counted; one who
 * leaves before it never is, in any arm.
 */

describe('the trigger of each kind of test', () => {
  it('a price test on Meta US exposes on the checkout, where the plans differ', () => {
    const triggers = experimentTriggers('pw-us', priceTest(), CONTEXT);
    expect([...triggers]).toEqual([
      ['meta-us', { index: 3, screen: 'checkout_v3_pp', slot: 'paywall' }],
    ]);
  });

  it('a landing test on every route exposes on the first page of each', () => {
    const triggers = experimentTriggers('lp-ai', landingTest(), CONTEXT);
    expect(Object.fromEntries(triggers)).toEqual({
      'meta-us': { index: 0, screen: 'one_pager', slot: 'landing' },
      'tt-dach': { index: 0, screen: 'one_pager_all', slot: 'landing' },
      default: { index: 0, screen: 'one_pager', slot: 'landing' },
    });
  });

  it('a paywall screen test exposes on the paywall, not before', () => {
    const test = landingTest({
      layer: 'paywall',
      audience: { routes: ['default', 'tt-dach'] },
      variants: {
        control: { weight: 1, change: {} },
        combo: { weight: 1, change: { screens: { paywall: 'paycheck_combo_3d' } } },
      },
    });
    expect(Object.fromEntries(experimentTriggers('pw-combo', test, CONTEXT))).toEqual({
      default: { index: 3, screen: 'checkout_v3_tr', slot: 'paywall' },
      'tt-dach': { index: 3, screen: 'paycheck1_pr5_h_win', slot: 'paywall' },
    });
  });

  it('a flow test exposes where the two flows first part, and nowhere they are the same', () => {
    const test = landingTest({
      layer: 'flow',
      audience: { routes: ['default', 'meta-us'] },
      variants: {
        control: { weight: 1, change: {} },
        h3: { weight: 1, change: { flow: 'lp11ch8' } },
      },
    });
    // default walks checkout_v3_tr, lp11ch8 checkout_h3_pp: they part at the checkout. Meta US
    // walks lp11ch8_vc, which parts from lp11ch8 at the checkout too.
    expect(Object.fromEntries(experimentTriggers('flow-h3', test, CONTEXT))).toEqual({
      default: { index: 3, screen: 'checkout_v3_tr', slot: 'paywall' },
      'meta-us': { index: 3, screen: 'checkout_v3_pp', slot: 'paywall' },
    });
    const same = landingTest({
      layer: 'flow',
      audience: { routes: ['default'] },
      variants: {
        control: { weight: 1, change: {} },
        // lp1ch2 lists the very screens of default.
        lp1: { weight: 1, change: { flow: 'lp1ch2' } },
      },
    });
    expect([...experimentTriggers('flow-lp1', same, CONTEXT)]).toEqual([['default', null]]);
  });

  it('plans a route already offers make no difference: no trigger', () => {
    const routing = {
      ...ROUTING,
      routes: ROUTING.routes.map((route) =>
        route.id === 'meta-us'
          ? { ...route, plans: ['monthly_3d_intro', 'monthly', 'quarterly'] }
          : route,
      ),
    };
    const triggers = experimentTriggers('pw-us', priceTest(), { flows: FLOWS, routing });
    expect([...triggers]).toEqual([['meta-us', null]]);
  });

  it('an upsell price test exposes on the upsell, after the checkout, on every route', () => {
    expect(Object.fromEntries(experimentTriggers('up-799', upsellPriceTest(), CONTEXT))).toEqual({
      'meta-us': { index: 4, screen: 'upsell_an_private', slot: 'upsell' },
      'tt-dach': { index: 4, screen: 'upsell_an_private', slot: 'upsell' },
      default: { index: 4, screen: 'upsell_an_private', slot: 'upsell' },
    });
  });

  it('a guide price test exposes on the guide; where the flow has none, nowhere', () => {
    const flows: FlowsDocument = {
      ...FLOWS,
      flows: {
        ...FLOWS.flows,
        default: ['one_pager', 'signup', 'checkout_v3_tr', 'upsell_an_private', 'upsell_guide'],
      },
    };
    const test = upsellPriceTest({
      variants: {
        a: { weight: 1, change: {} },
        b: { weight: 1, change: { guidePlans: ['guide_1799'] } },
      },
    });
    const triggers = experimentTriggers('guide-1799', test, { flows, routing: ROUTING });
    expect(Object.fromEntries(triggers)).toEqual({
      'meta-us': null,
      'tt-dach': null,
      default: { index: 4, screen: 'upsell_guide', slot: 'upsell' },
    });
  });

  it('upsell plans a route already offers make no difference: no trigger', () => {
    const routing = {
      ...ROUTING,
      routes: ROUTING.routes.map((route) =>
        route.id === 'default'
          ? { ...route, upsellPlans: ['upsell_monthly_799', 'upsell_quarterly_799'] }
          : route,
      ),
    };
    const triggers = experimentTriggers('up-799', upsellPriceTest(), { flows: FLOWS, routing });
    expect(triggers.get('default')).toBeNull();
    expect(triggers.get('meta-us')).toEqual({
      index: 4,
      screen: 'upsell_an_private',
      slot: 'upsell',
    });
  });

  it('a content test exposes on the screen whose content differs; where the flow lacks it, nowhere', () => {
    const headline = landingTest({
      variants: {
        control: { weight: 1, change: {} },
        b: { weight: 1, change: { content: { one_pager: 'testimonials_first' } } },
      },
    });
    const triggers = experimentTriggers('headline', headline, CONTEXT);
    // Meta US and the default route land on one_pager; TikTok DACH on one_pager_all, whose
    // content this test does not change.
    expect(Object.fromEntries(triggers)).toEqual({
      'meta-us': { index: 0, screen: 'one_pager', slot: 'landing' },
      'tt-dach': null,
      default: { index: 0, screen: 'one_pager', slot: 'landing' },
    });
    // A route already showing that content makes no difference either.
    const routing = {
      ...ROUTING,
      routes: ROUTING.routes.map((route) =>
        route.id === 'default' ? { ...route, content: { one_pager: 'testimonials_first' } } : route,
      ),
    };
    expect(
      experimentTriggers('headline', headline, { flows: FLOWS, routing }).get('default'),
    ).toBeNull();
  });

  it('a content change lays its screens over what the funnel already shows', () => {
    const base = routeFunnel({ flow: 'default', content: { one_pager: 'a', signup: 'x' } }, FLOWS);
    const changed = applyChange(base, { content: { one_pager: 'b' } }, FLOWS);
    expect(changed.content).toEqual({ one_pager: 'b', signup: 'x' });
    // The control changes nothing: the route's content stays.
    expect(applyChange(base, {}, FLOWS).content).toEqual({ one_pager: 'a', signup: 'x' });
  });

  it('a route the routing lacks gets no entry: the validator names it apart', () => {
    const test = priceTest({ audience: { routes: ['meta-us', 'gone'] } });
    expect([...experimentTriggers('pw-us', test, CONTEXT).keys()]).toEqual(['meta-us']);
  });
});

describe('the migrated split', () => {
  it('keeps exposing on the first page served, where it always has, on each of its routes', () => {
    const split = experimentFromSplit({ ...SPLIT, routes: ['default', 'meta-us'] });
    expect(Object.fromEntries(experimentTriggers('split', split, CONTEXT))).toEqual({
      default: { index: 0, screen: 'one_pager', slot: 'landing' },
      'meta-us': { index: 0, screen: 'one_pager', slot: 'landing' },
    });
  });

  it('even when its variants walk the same screens (an A/A test), unlike any other experiment', () => {
    const aa = experimentFromSplit({
      ...SPLIT,
      variants: { default: { weight: 1 }, lp1ch2: { weight: 1 } },
    });
    expect(experimentTriggers('split', aa, CONTEXT).get('default')).toEqual({
      index: 0,
      screen: 'one_pager',
      slot: 'landing',
    });
    expect(experimentTriggers('aa', aa, CONTEXT).get('default')).toBeNull();
  });
});

describe('the edge recomputes the trigger per visitor with triggerFor', () => {
  it("another layer's flow without a landing leaves a landing test nothing to show", () => {
    const base = routeFunnel({ flow: 'default' }, FLOWS);
    // The visitor's flow-layer variant walks stripe_test, which starts at auto-signup.
    const underFlowTest = applyChange(base, { flow: 'stripe_test' }, FLOWS);
    const shapes = [
      applyChange(underFlowTest, {}, FLOWS),
      applyChange(underFlowTest, { screens: { landing: 'one_pager_ai' } }, FLOWS),
    ];
    expect(triggerFor('lp-ai', shapes)).toBeNull();
    expect(
      triggerFor('lp-ai', [
        base,
        applyChange(base, { screens: { landing: 'one_pager_ai' } }, FLOWS),
      ]),
    ).toBe(0);
  });
});

describe('the trigger on a route another layer’s winner is rolled out to', () => {
  /** The AI landing's winner rolled out on route `default` (its audience: that route alone). */
  const shipped = landingTest({
    status: 'shipped',
    audience: { routes: ['default'] },
    endedAt: '2026-11-01T00:00:00.000Z',
    decision: rolledOutLanding(Date.parse('2026-11-02T00:00:00.000Z')).decision,
  });
  /** A content test in the flow layer of the rolled-out landing's headline. */
  const headline = landingTest({
    layer: 'flow',
    seed: 'E-headline',
    audience: { routes: ['default', 'meta-us'] },
    variants: {
      control: { weight: 1, change: {} },
      short: { weight: 1, change: { content: { one_pager_ai: 'short' } } },
    },
  });

  it('is where the served landing differs: route default serves the winner’s one_pager_ai', () => {
    const experiments = section({ 'lp-ai': shipped, 'ct-headline': headline });
    const triggers = experimentTriggers('ct-headline', headline, { ...CONTEXT, experiments });
    expect(triggers.get('default')).toEqual({ index: 0, screen: 'one_pager_ai', slot: 'landing' });
    // Route meta-us is not rolled out to: its landing is one_pager, which the test leaves alone.
    expect(triggers.get('meta-us')).toBeNull();
  });

  it('is nowhere on that route when the winner is not taken into account', () => {
    const triggers = experimentTriggers('ct-headline', headline, CONTEXT);
    expect(triggers.get('default')).toBeNull();
  });
});
