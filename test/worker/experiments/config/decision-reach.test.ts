import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY_CONTENT } from '../../../../shared/config/content';
import type {
  ExperimentDecision,
  ExperimentDocument,
  ExperimentsDocument,
} from '../../../../shared/config/experiments';
import type { FlowsDocument } from '../../../../shared/config/flows';
import type { RouteDocument, RoutingDocument } from '../../../../shared/config/routing';
import type { SplitDocument } from '../../../../shared/config/split';
import { HASHED_PLACEMENT } from '../../../../worker/experiments/assignment/assign';
import {
  assignExperiments,
  compileExperiments,
  shapeOf,
} from '../../../../worker/experiments/config/evaluate';
import {
  type ExperimentsContext,
  validateExperiments,
} from '../../../../worker/experiments/config/validate';
import { routeFunnel } from '../../../../worker/funnel/flow';
import { CONTEXT, FLOWS, landingTest, priceTest, ROUTING, section } from './config-fixtures';

/**
 * "Make variant b the default of its routes" bakes the variant into the routes (console/
 * route-defaults.ts), which every new visitor of them walks, unless something still draws them
 * into a variant of its own: the split test, whose variants each walk their own flow; another
 * running experiment changing the same part; a price test over the route's plans. Such a decision
 * is refused by name, with the step that does ship it, before it is published.
 */

const DECISION: ExperimentDecision = {
  result: 'won',
  action: 'route_default',
  variant: 'ai',
  at: '2026-12-10T10:12:00Z',
  by: 'anna@example.com',
  evidence: {
    phase: 1,
    metric: 'lookup',
    relativeLift: 0.12,
    interval: [0.04, 0.2],
    verdict: 'better',
    srmAlarm: false,
  },
};

const ENDED = { status: 'shipped', endedAt: '2026-12-10T10:12:00.000Z' } as const;

/** The AI landing test on `routes`, ended with its variant `ai` made their default. */
const shippedLanding = (routes: string[], overrides: Partial<ExperimentDocument> = {}) =>
  landingTest({ audience: { routes }, ...ENDED, decision: DECISION, ...overrides });

/** The flows with the copy of `flow` the decision makes, its landing the AI one-pager. */
function flowsWithAiCopy(flow: string, name: string): FlowsDocument {
  const screens = (FLOWS.flows[flow] ?? []).map((screen) =>
    screen.startsWith('one_pager') ? 'one_pager_ai' : screen,
  );
  return { ...FLOWS, flows: { ...FLOWS.flows, [name]: screens } };
}

/** The routing with `route` changed as the decision changes it. */
function routingWith(route: string, fields: Partial<RouteDocument>): RoutingDocument {
  return {
    ...ROUTING,
    routes: ROUTING.routes.map((r) => (r.id === route ? { ...r, ...fields } : r)),
  };
}

/** Route `default` on the copy of its flow with the AI landing, as the console's decision bakes it. */
const DEFAULT_BAKED: ExperimentsContext = {
  ...CONTEXT,
  flows: flowsWithAiCopy('default', 'default_lp-ai_ai'),
  routing: routingWith('default', { flow: 'default_lp-ai_ai' }),
};

/** Route `tt-dach`, which the split does not draw, baked the same way. */
const TIKTOK_BAKED: ExperimentsContext = {
  ...CONTEXT,
  flows: flowsWithAiCopy('lp17ch17pr5', 'lp17ch17pr5_lp-ai_ai'),
  routing: routingWith('tt-dach', { flow: 'lp17ch17pr5_lp-ai_ai' }),
};

const AT = 'experiments.experiments.lp-ai.decision.action';

function refusals(
  experiments: Record<string, ExperimentDocument>,
  context: ExperimentsContext,
  live?: Record<string, ExperimentDocument>,
) {
  return validateExperiments(
    section(experiments),
    context,
    live === undefined ? undefined : section(live),
  ).issues;
}

describe('a decision making a variant its routes’ default', () => {
  it('is refused where the split test draws the route, naming it and the roll-out that ships it', () => {
    expect(refusals({ 'lp-ai': shippedLanding(['default']) }, DEFAULT_BAKED)).toEqual([
      {
        path: AT,
        message:
          'cannot make variant "ai" the default of its routes: new visitors would not see it, because the split test ("split") draws route "default" and walks its visitors through its own flows: variant "default" (landing "one_pager"). Roll variant "ai" out to the experiment\'s audience instead: it shows on top of the split test\'s flows',
      },
    ]);
  });

  it('is refused under a split of one variant too, which walks every visitor through its flow', () => {
    const oneFlow: SplitDocument = {
      version: 'v1',
      defaultVariant: 'default',
      variants: { default: { weight: 100, flow: 'default' } },
    };
    const found = refusals(
      { 'lp-ai': shippedLanding(['default']) },
      { ...DEFAULT_BAKED, split: oneFlow },
    );
    expect(found.map((issue) => issue.path)).toEqual([AT]);
    expect(found[0]?.message).toContain('the split test ("split") draws route "default"');
  });

  it('is refused for a whole flow under a split of one variant, whose flow the roll-out passes over', () => {
    const oneFlow: SplitDocument = {
      version: 'v1',
      defaultVariant: 'default',
      variants: { default: { weight: 100, flow: 'default' } },
    };
    const flowTest = landingTest({
      name: 'Leads funnel',
      layer: 'flow',
      seed: 'E-1eads0',
      audience: { routes: ['default'] },
      ...ENDED,
      variants: {
        control: { weight: 1, change: {} },
        leads: { weight: 1, change: { flow: 'leads' } },
      },
      decision: { ...DECISION, variant: 'leads' },
    });
    const baked = {
      ...CONTEXT,
      split: oneFlow,
      routing: routingWith('default', { flow: 'leads' }),
    };
    expect(refusals({ 'flow-leads': flowTest }, baked)).toEqual([
      {
        path: 'experiments.experiments.flow-leads.decision.action',
        message:
          'cannot make variant "leads" the default of its routes: new visitors would not see it, because the split test ("split") draws route "default" and walks its visitors through its own flows: variant "default" (flow "default"). Roll variant "leads" out to the experiment\'s audience instead: it shows on top of the split test\'s flows',
      },
    ]);
  });

  it('is right: under the split no new visitor sees the default, and every one sees the roll-out', () => {
    const landingOf = (
      doc: ExperimentsDocument,
      context: ExperimentsContext,
      visitorId: string,
    ) => {
      const compiled = compileExperiments(
        doc,
        context.split,
        context.routing,
        context.content ?? EMPTY_CONTENT,
      );
      const route = context.routing.routes.find((r) => r.id === 'default')!;
      const visitor = {
        visitorId,
        route: 'default',
        facts: { get: () => null },
        pins: new Map<string, string>(),
        now: Date.now(),
      };
      const assignments = assignExperiments(compiled, visitor, HASHED_PLACEMENT);
      const shape = shapeOf(
        compiled,
        routeFunnel(route, context.flows),
        assignments,
        context.flows,
      );
      return shape.screens[0];
    };
    const asDefault = section({ 'lp-ai': shippedLanding(['default']) });
    const rolledOut = section({
      'lp-ai': shippedLanding(['default'], { decision: { ...DECISION, action: 'roll_out' } }),
    });
    fc.assert(
      fc.property(fc.uuid(), (visitorId) => {
        expect(landingOf(asDefault, DEFAULT_BAKED, visitorId)).toBe('one_pager');
        expect(landingOf(rolledOut, CONTEXT, visitorId)).toBe('one_pager_ai');
      }),
    );
    // And the roll-out is not refused.
    expect(
      refusals(
        { 'lp-ai': shippedLanding(['default'], { decision: { ...DECISION, action: 'roll_out' } }) },
        CONTEXT,
      ),
    ).toEqual([]);
  });

  it('is refused where another running experiment shows its own landing to some of the route', () => {
    const other = landingTest({
      name: 'All-in-one landing',
      seed: 'E-77aa01',
      audience: { routes: ['tt-dach'] },
      range: [0.5, 1],
      variants: {
        control: { weight: 1, change: {} },
        all: { weight: 1, change: { screens: { landing: 'one_pager_l1' } } },
      },
    });
    const found = refusals(
      { 'lp-ai': shippedLanding(['tt-dach'], { range: [0, 0.5] }), 'lp-all': other },
      TIKTOK_BAKED,
    );
    expect(found).toEqual([
      {
        path: AT,
        message:
          'cannot make variant "ai" the default of its routes: new visitors would not see it, because experiment "lp-all" (running) shows variant "all" (landing "one_pager_l1") to visitors of route "tt-dach". Pause or end "lp-all" (its exposed visitors keep their variant) first, then make variant "ai" the default',
      },
    ]);
  });

  it('is refused where a price test over the route’s plans offers other plans', () => {
    const shipped = priceTest({
      ...ENDED,
      range: [0, 0.5],
      decision: {
        ...DECISION,
        variant: 'b',
        evidence: { ...DECISION.evidence, metric: 'mature_revenue' },
      },
    });
    const rival = priceTest({
      name: 'US paywall: quarterly only',
      seed: 'E-9bc3d0',
      range: [0.5, 1],
      variants: {
        a: { weight: 1, change: {} },
        q: { weight: 1, change: { plans: ['quarterly'] } },
      },
    });
    const baked = {
      ...CONTEXT,
      routing: routingWith('meta-us', { plans: ['monthly_3d_intro', 'monthly', 'quarterly'] }),
    };
    const found = refusals({ 'pw-us': shipped, 'pw-q': rival }, baked);
    expect(found).toEqual([
      {
        path: 'experiments.experiments.pw-us.decision.action',
        message:
          'cannot make variant "b" the default of its routes: new visitors would not see it, because experiment "pw-q" (running) shows variant "q" (plans quarterly) to visitors of route "meta-us". Pause or end "pw-q" (its exposed visitors keep their variant) first, then make variant "b" the default',
      },
    ]);
    // Once the rival test is paused, no new visitor enters it: the decision ships.
    expect(refusals({ 'pw-us': shipped, 'pw-q': { ...rival, status: 'paused' } }, baked)).toEqual(
      [],
    );
  });

  it('is refused where a variant rolled out to the route hides it', () => {
    const rolledOut = landingTest({
      name: 'All-in-one landing',
      seed: 'E-77aa01',
      audience: { routes: ['tt-dach'] },
      ...ENDED,
      variants: {
        control: { weight: 1, change: {} },
        all: { weight: 1, change: { screens: { landing: 'one_pager_l1' } } },
      },
      decision: { ...DECISION, action: 'roll_out', variant: 'all' },
    });
    const [found] = refusals(
      { 'lp-all': rolledOut, 'lp-ai': shippedLanding(['tt-dach'], { range: [0, 0.5] }) },
      TIKTOK_BAKED,
    );
    expect(found?.message).toContain(
      'experiment "lp-all" rolls variant "all" (landing "one_pager_l1") out to route "tt-dach"',
    );
  });

  it('is not flagged where nothing draws the route into another variant', () => {
    expect(refusals({ 'lp-ai': shippedLanding(['tt-dach']) }, TIKTOK_BAKED)).toEqual([]);
    // Another running test of another part of the funnel shows the new landing too.
    const price = priceTest({ audience: { routes: ['tt-dach'] } });
    expect(
      refusals({ 'lp-ai': shippedLanding(['tt-dach']), 'pw-us': price }, TIKTOK_BAKED),
    ).toEqual([]);
  });

  it('is not flagged for plans where the split draws the route: its flows keep the route’s plans', () => {
    const shipped = priceTest({
      audience: { routes: ['default'] },
      ...ENDED,
      decision: {
        ...DECISION,
        variant: 'b',
        evidence: { ...DECISION.evidence, metric: 'mature_revenue' },
      },
    });
    const baked = {
      ...CONTEXT,
      routing: routingWith('default', { plans: ['monthly_3d_intro', 'monthly', 'quarterly'] }),
    };
    expect(refusals({ 'pw-us': shipped }, baked)).toEqual([]);
  });

  it('is refused when the routes were not changed with it: they show no one the variant', () => {
    expect(refusals({ 'lp-ai': shippedLanding(['tt-dach']) }, CONTEXT)).toEqual([
      {
        path: AT,
        message:
          'route "tt-dach" does not show variant "ai" (it has landing "one_pager_all"): give the route the variant\'s flow, screen or plans, as the console\'s decision does',
      },
    ]);
  });

  it('is held to it only in the publish that decides: what starts on the route later is a new test', () => {
    const decided = shippedLanding(['default']);
    expect(refusals({ 'lp-ai': decided }, DEFAULT_BAKED, { 'lp-ai': decided })).toEqual([]);
    const running = landingTest({ audience: { routes: ['default'] } });
    expect(
      refusals({ 'lp-ai': decided }, DEFAULT_BAKED, { 'lp-ai': running }).map((i) => i.path),
    ).toEqual([AT]);
  });
});
