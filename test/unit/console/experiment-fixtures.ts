import type {
  ExperimentMetricResult,
  ExperimentResultMetric,
  ExperimentResultsAnswer,
  ExperimentVariantResults,
} from '../../../shared/console-api/experiment-results';
import type { ResultVerdict } from '../../../shared/console-api/results';

const SHOWN: ExperimentResultMetric[] = [
  'checkout',
  'purchase',
  'revenue',
  'upsell',
  'net_revenue',
  'mature_revenue',
];

/** Every metric, those before the paywall too: the view must leave them out. */
const MEANS: Record<ExperimentResultMetric, number> = {
  lookup: 0.61,
  signup: 0.31,
  checkout: 0.2,
  purchase: 0.05,
  revenue: 149.5,
  upsell: 0.01,
  net_revenue: 120.25,
  mature_revenue: 110,
};

function metrics(
  primary: ExperimentResultMetric,
  compared: { lift: number; verdict: ResultVerdict } | null,
): ExperimentMetricResult[] {
  return (Object.keys(MEANS) as ExperimentResultMetric[]).map((metric) => ({
    metric,
    primary: metric === primary,
    count: 100,
    mean: MEANS[metric] * (1 + (compared?.lift ?? 0)),
    absoluteLift: compared ? 0.01 : null,
    absoluteInterval: compared ? { lower: -0.01, upper: 0.03 } : null,
    relativeLift: compared?.lift ?? null,
    relativeInterval: compared
      ? { lower: compared.lift - 0.05, upper: compared.lift + 0.05 }
      : null,
    pValue: compared ? 0.01 : null,
    verdict: compared?.verdict ?? null,
  }));
}

/** The arm's field vitals: the variant's LCP 460 ms slower than the control's, significantly. */
function vitals(compared: boolean): ExperimentVariantResults['vitals'] {
  const judged = (difference: number, lower: number, upper: number, verdict: ResultVerdict) =>
    compared ? { difference, interval: { lower, upper }, verdict } : NOT_COMPARED;
  return [
    {
      metric: 'lcp',
      samples: 412,
      p75: compared ? 2890 : 2430,
      rating: compared ? 'needs-improvement' : 'good',
      ...judged(460, 120, 800, 'worse'),
    },
    {
      metric: 'inp',
      samples: 388,
      p75: 168,
      rating: 'good',
      ...judged(-4, -30, 22, 'no_difference_yet'),
    },
    {
      metric: 'cls',
      samples: 412,
      p75: 0.042,
      rating: 'good',
      ...judged(0, -0.01, 0.01, 'no_difference_yet'),
    },
  ];
}

const NOT_COMPARED = { difference: null, interval: null, verdict: null };

function variant(
  key: string,
  primary: ExperimentResultMetric,
  compared: { lift: number; verdict: ResultVerdict } | null,
): ExperimentVariantResults {
  const guardrail = {
    count: 3,
    rate: 0.003,
    relativeLift: compared ? 0.5 : null,
    relativeInterval: compared ? { lower: -0.2, upper: 1.2 } : null,
    verdict: compared ? ('no_difference_yet' as const) : null,
  };
  return {
    variant: key,
    name: key === 'a' ? 'a' : `${key} cheaper intro`,
    control: compared === null,
    share: 0.5,
    exposed: 1000,
    bots: 0,
    overBudget: 0,
    unconfirmed: 0,
    metrics: metrics(primary, compared),
    otherRevenue: {},
    matureExposed: 400,
    guardrails: {
      declines: guardrail,
      refunds: guardrail,
      declineClasses: [],
      cancellations: guardrail,
      renewed: guardrail,
      serverErrors: guardrail,
      clientErrors: guardrail,
    },
    saveOffer: null,
    recovery: {
      renewalFailed: 12,
      recovered: 7,
      revenue: [{ currency: 'USD', amountMinor: 27993, renewals: 7 }],
    },
    byCurrency: [],
    vitals: vitals(compared !== null),
  };
}

/** A paywall price test, phase 2, b better on purchase, mature sample short of its plan. */
export function priceResults(): ExperimentResultsAnswer {
  return {
    experiment: 'price-us',
    name: 'Price US',
    status: 'running',
    layer: 'paywall',
    phase: 2,
    phases: [2, 1],
    configVersion: 'v3',
    startedAt: '2026-11-20T09:00:00.000Z',
    control: 'a',
    primaryMetric: 'mature_revenue',
    plannedPerArm: 5000,
    mainCurrency: 'USD',
    revenueCap: 12_000,
    triggers: [{ route: 'default', screen: 'checkout_v3_tr' }],
    metricsShown: SHOWN,
    priceTest: true,
    matureAfterDays: 10,
    awaitingMatureSample: true,
    reach: { exposed: 2000, expectedAtMost: 5200 },
    sampleRatio: { chiSquare: 0.1, pValue: 0.75, alarm: false },
    variants: [
      variant('b', 'mature_revenue', { lift: 0.1, verdict: 'better' }),
      variant('a', 'mature_revenue', null),
    ],
    liftOverDays: [],
  };
}

/** A paywall plans test decided on purchase: b better, every verdict shown. */
export function plansResults(): ExperimentResultsAnswer {
  return {
    ...priceResults(),
    primaryMetric: 'purchase',
    priceTest: false,
    awaitingMatureSample: false,
    variants: [
      variant('b', 'purchase', { lift: 0.1, verdict: 'better' }),
      variant('a', 'purchase', null),
    ],
  };
}

/**
 * A save offer test (layer subscriber) as the worker answers it: no trigger, every funnel metric
 * and guardrail still in each variant (all of them reading nothing), its shown subscriptions its
 * exposed, and no first visit on a route to bound its reach.
 */
export function saveOfferResults(): ExperimentResultsAnswer {
  const none = { relativeLift: null, relativeInterval: null, verdict: null };
  const answer = plansResults();
  return {
    ...answer,
    experiment: 'save-half',
    name: 'Half price before a cancel',
    layer: 'subscriber',
    triggers: [],
    metricsShown: Object.keys(MEANS) as ExperimentResultMetric[],
    reach: { exposed: 400, expectedAtMost: 0 },
    variants: answer.variants.map((arm) => ({
      ...arm,
      exposed: 200,
      saveOffer: {
        shown: 200,
        choseKeep: 30,
        tookAction: 0,
        cancelled: 140,
        kept: { ...none, count: 60, rate: 0.3 },
        reasons: [],
        netRevenue: [],
      },
    })),
  };
}
