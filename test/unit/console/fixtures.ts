import type { ContentSelection } from '../../../console/content/stores/content-editor';
import { EMPTY_CONTENT } from '../../../shared/config/content';
import type { ConfigDocument, ConsoleState } from '../../../shared/console-api/config';
import type { ContentCatalogue } from '../../../shared/console-api/content';
import type { CopyState } from '../../../shared/console-api/copy';
import {
  type MetricResult,
  RESULT_METRICS,
  type ResultMetric,
  type ResultsAnswer,
  type ResultVerdict,
} from '../../../shared/console-api/results';
import type { VisitorGetsAnswer } from '../../../shared/console-api/routes';

/** A live config with three variants, one walking a flow of its own and one paused. */
export function liveDocument(): ConfigDocument {
  return {
    split: {
      version: 'v2',
      defaultVariant: 'default',
      phase: 1,
      variants: {
        default: { weight: 50 },
        'lp11ch8/vc': { weight: 30 },
        lp17: { weight: 20, flow: 'lp17ch17pr5' },
        old: { weight: 0, flow: 'default' },
      },
    },
    flows: {
      version: 'v2',
      flows: {
        default: ['one_pager', 'searching', 'signup', 'checkout_v3_tr', 'success'],
        lp11ch8_vc: ['one_pager', 'searching', 'signup', 'checkout_v3_pp', 'success'],
        lp17ch17pr5: ['one_pager_all', 'searching_2', 'signup_testim', 'success'],
      },
    },
    routing: { version: 'v2', audiences: {}, routes: [{ id: 'default', flow: 'default' }] },
    experiments: {
      version: 'v2',
      experiments: {
        'landing-all': {
          name: 'All-in-one landing',
          status: 'running',
          layer: 'landing',
          audience: { routes: ['default'] },
          coverage: 1,
          seed: 'landing-all',
          phase: 1,
          control: 'a',
          variants: {
            a: { weight: 1, change: {} },
            b: { weight: 1, change: { screens: { landing: 'one_pager_all' } } },
          },
        },
      },
    },
    content: EMPTY_CONTENT,
  };
}

export function consoleState(): ConsoleState {
  return {
    author: 'marketer@example.com',
    live: liveDocument(),
    head: {
      seq: 2,
      id: 'v2',
      at: '2026-11-22T08:06:37.840Z',
      author: 'anna@example.com',
      note: 'more traffic to lp17',
      base: 1,
      phase: 1,
      source: 'console',
    },
    drift: null,
    screens: [
      { id: 'one_pager', kind: 'landing' },
      { id: 'one_pager_all', kind: 'landing' },
      { id: 'searching', kind: 'searching' },
      { id: 'searching_2', kind: 'searching' },
      { id: 'signup', kind: 'signup' },
      { id: 'signup_testim', kind: 'signup' },
      { id: 'checkout_v3_tr', kind: 'checkout' },
      { id: 'checkout_v3_pp', kind: 'checkout' },
      { id: 'upsell_an_private', kind: 'upsell' },
      { id: 'success', kind: 'end' },
    ],
    previews: {
      default: '/console/preview/default',
      'lp11ch8/vc': '/console/preview/lp11ch8%2Fvc',
      lp17: '/console/preview/lp17',
      old: '/console/preview/old',
    },
  };
}

const RATES: Record<ResultMetric, number> = {
  lookup: 0.6,
  signup: 0.3,
  checkout: 0.2,
  purchase: 0.05,
  revenue: 149.5,
};

function metricsOf(
  exposed: number,
  compared: { lift: number; verdict: ResultVerdict } | null,
): MetricResult[] {
  return RESULT_METRICS.map((metric) => {
    const mean = RATES[metric] * (1 + (compared?.lift ?? 0));
    const converters = metric === 'revenue' ? RATES.purchase : mean;
    return {
      metric,
      primary: metric === 'purchase',
      count: Math.round(converters * exposed),
      mean,
      absoluteLift: compared ? mean - RATES[metric] : null,
      absoluteInterval: compared ? { lower: -0.01, upper: 0.03 } : null,
      relativeLift: compared?.lift ?? null,
      relativeInterval: compared
        ? { lower: compared.lift - 0.08, upper: compared.lift + 0.08 }
        : null,
      pValue: compared ? 0.2 : null,
      verdict: compared?.verdict ?? null,
    };
  });
}

/** Phase 2 of an experiment: lp17 (+12% on every metric, better) against the control, default. */
export function resultsAnswer(): ResultsAnswer {
  return {
    phase: 2,
    phases: [2, 1],
    configVersion: 'v2',
    startedAt: '2026-11-20T09:00:00.000Z',
    control: 'default',
    primaryMetric: 'purchase',
    plannedPerArm: 10_000,
    mainCurrency: 'USD',
    revenueCap: 12_000,
    sampleRatio: { chiSquare: 0.4, pValue: 0.53, alarm: false },
    // The control second, as an answer may list it: the page puts it first.
    variants: [
      {
        variant: 'lp17',
        control: false,
        share: 0.5,
        exposed: 2000,
        bots: 0,
        overBudget: 0,
        unconfirmed: 0,
        metrics: metricsOf(2000, { lift: 0.12, verdict: 'better' }),
        otherRevenue: { EUR: 2990 },
      },
      {
        variant: 'default',
        control: true,
        share: 0.5,
        exposed: 2010,
        bots: 7,
        overBudget: 0,
        unconfirmed: 0,
        metrics: metricsOf(2010, null),
        otherRevenue: {},
      },
    ],
    liftOverDays: [
      {
        day: '2026-11-21',
        variant: 'lp17',
        relativeLift: 0.1,
        relativeInterval: { lower: -0.4, upper: 0.6 },
      },
      { day: '2026-11-20', variant: 'lp17', relativeLift: null, relativeInterval: null },
      {
        day: '2026-11-22',
        variant: 'lp17',
        relativeLift: 0.12,
        relativeInterval: { lower: 0.04, upper: 0.2 },
      },
    ],
  };
}

/**
 * What the worker's "what does this visitor get" answers (POST CONSOLE_API.visitorGets) for a
 * visitor of route `default` given the split's arm `variant`, walking `screens` of `flow`; the
 * landing test `lp-ai` rolled out when `rolledOut` names the landing it swaps in.
 */
export function visitorGetsAnswer(
  flow: string,
  screens: readonly string[],
  rolledOut?: string,
): VisitorGetsAnswer {
  const served = screens.map((ref, index) => ({
    ref: index === 0 && rolledOut ? rolledOut : ref,
    screen: index === 0 && rolledOut ? rolledOut : ref,
    slot: index === 0 ? 'landing' : null,
    variant: null,
  }));
  return {
    route: 'default',
    flow,
    landing: served[0] ?? null,
    screens: served,
    arms: rolledOut
      ? [
          {
            experiment: 'lp-ai',
            name: 'AI landing',
            layer: 'landing',
            variant: 'ai',
            source: 'rolled_out',
          },
        ]
      : [],
    plans: null,
    upsellPlans: null,
    guidePlans: null,
    currencies: null,
    anchors: true,
    countdown: true,
  };
}

/** The content editor's catalogue with no screen: nothing to arrange or preview. */
export const EMPTY_CATALOGUE: ContentCatalogue = {
  screens: [],
  languages: ['en'],
  rtl: [],
  themes: ['geozilla'],
  texts: { en: {} },
  overridden: { en: [] },
};

/** The Copy area with no key and nothing published. */
export const EMPTY_COPY: CopyState = {
  languages: [{ code: 'en', name: 'English' }],
  areas: [],
  keys: [],
  live: {},
  head: null,
  drift: null,
  outdated: [],
  pages: {},
};

/** What the content editor shows as it opens: the classic landing in English, as everyone sees it. */
export const OPENING_SELECTION: ContentSelection = {
  screen: 'one_pager',
  language: 'en',
  theme: 'geozilla',
  section: null,
  variant: null,
  width: 'phone',
  route: null,
  country: '',
};
