import type { ExperimentDocument } from '../../../../shared/config/experiments';
import { type ExperimentsDocument, parseExperiments } from '../../../../shared/config/experiments';
import type { FlowsDocument } from '../../../../shared/config/flows';
import type { Condition } from '../../../../shared/config/routing';
import { parseRouting, type RoutingDocument } from '../../../../shared/config/routing';
import type { SplitDocument } from '../../../../shared/config/split';
import { DEFAULT_FLOWS } from '../../../../worker/config/defaults';
import type { ExperimentsContext } from '../../../../worker/experiments/config/validate';

/**
 * A project as a marketer would have it: Meta traffic from the US and TikTok traffic from DACH
 * on routes of their own, everyone else on `default`, where today's split test (default against
 * lp11ch8/vc) still runs. Each document goes through the section's own schema first, so every
 * test starts from what the console could publish.
 */

export const FLOWS: FlowsDocument = {
  version: 'v1',
  flows: {
    ...DEFAULT_FLOWS.flows,
    // A funnel straight to the checkout: no landing, no search.
    direct_checkout: ['signup', 'checkout_v3_pp', 'upsell_an_private', 'success'],
    // Sign-ups only, sold to later by e-mail: no checkout at all.
    leads: ['one_pager_l1', 'searching', 'signup', 'success'],
  },
};

const condition = (attribute: Condition['attribute'], ...values: string[]): Condition => ({
  attribute,
  operator: 'in',
  values,
});

function routing(raw: unknown): RoutingDocument {
  const parsed = parseRouting(raw);
  if (!parsed.ok) throw new Error(`fixture routing: ${parsed.error}`);
  return parsed.value;
}

export const ROUTING: RoutingDocument = routing({
  version: 'v1',
  audiences: {
    meta_us: { groups: [[condition('source', 'meta'), condition('country', 'US')]] },
    tiktok_dach: {
      groups: [[condition('source', 'tiktok'), condition('country', 'DE', 'AT', 'CH')]],
    },
    us: { label: 'United States', groups: [[condition('country', 'US')]] },
    dach: {
      label: 'Germany, Austria, Switzerland',
      groups: [[condition('country', 'DE', 'AT', 'CH')]],
    },
    iphones: { groups: [[condition('platform', 'ios')]] },
    android: { groups: [[condition('platform', 'android')]] },
  },
  routes: [
    { id: 'meta-us', audience: 'meta_us', flow: 'lp11ch8_vc' },
    { id: 'tt-dach', audience: 'tiktok_dach', flow: 'lp17ch17pr5' },
    { id: 'default', flow: 'default' },
  ],
});

/** Today's split: half the `default` route on lp11ch8/vc, in its third phase. */
export const SPLIT: SplitDocument = {
  version: 'v1',
  defaultVariant: 'default',
  phase: 3,
  variants: { default: { weight: 50 }, 'lp11ch8/vc': { weight: 50 } },
};

export const CONTEXT: ExperimentsContext = { flows: FLOWS, routing: ROUTING, split: SPLIT };

/** The price test of docs/experiments.md: on Meta US, a cheaper shorter intro. */
export function priceTest(overrides: Partial<ExperimentDocument> = {}): ExperimentDocument {
  return {
    name: 'US paywall: 3-day intro at 2.99 vs 7-day intro at 6.99',
    hypothesis: 'A cheaper, shorter intro raises revenue per paywall visitor.',
    status: 'running',
    layer: 'paywall',
    audience: { routes: ['meta-us'] },
    coverage: 1,
    seed: 'E-2d81aa',
    phase: 1,
    control: 'a',
    variants: {
      a: { name: '7-day 6.99 (current)', weight: 1, change: {} },
      b: {
        name: '3-day 2.99',
        weight: 1,
        change: { plans: ['monthly_3d_intro', 'monthly', 'quarterly'] },
      },
    },
    metrics: { primary: 'mature_revenue', plannedPerArm: 15000 },
    startedAt: '2026-11-20T09:00:00.000Z',
    ...overrides,
  };
}

/** An upsell price test on every route: the upsell at 7.99 against its own 9.99 (SPEC.md §3). */
export function upsellPriceTest(overrides: Partial<ExperimentDocument> = {}): ExperimentDocument {
  return {
    name: 'Upsell at 7.99',
    status: 'running',
    layer: 'upsell',
    audience: {},
    coverage: 1,
    seed: 'E-77c1e0',
    phase: 1,
    control: 'a',
    variants: {
      a: { name: '9.99 (current)', weight: 1, change: {} },
      b: {
        name: '7.99',
        weight: 1,
        change: { upsellPlans: ['upsell_monthly_799', 'upsell_quarterly_799'] },
      },
    },
    metrics: { primary: 'mature_revenue' },
    ...overrides,
  };
}

/** A landing test: the AI one-pager against the route's landing. */
export function landingTest(overrides: Partial<ExperimentDocument> = {}): ExperimentDocument {
  return {
    name: 'AI one-pager',
    status: 'running',
    layer: 'landing',
    audience: {},
    coverage: 1,
    seed: 'E-5a0c11',
    phase: 1,
    control: 'control',
    variants: {
      control: { weight: 1, change: {} },
      ai: { weight: 1, change: { screens: { landing: 'one_pager_ai' } } },
    },
    ...overrides,
  };
}

/** The experiments section holding these experiments, checked by its schema. */
export function section(experiments: Record<string, ExperimentDocument>): ExperimentsDocument {
  const parsed = parseExperiments({ version: 'v1', experiments });
  if (!parsed.ok) throw new Error(`fixture experiments: ${parsed.error}`);
  return parsed.value;
}
