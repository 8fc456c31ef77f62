import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { vitalsProperties } from '../../../islands/analytics/vitals';
import type { CollectedEvent } from '../../../shared/analytics/batch';
import type { ExperimentsDocument } from '../../../shared/config/experiments';
import {
  CONSOLE_EXPERIMENTS_PATH,
  type ExperimentResultsAnswer,
  type VitalGuardrail,
} from '../../../shared/console-api/experiment-results';
import { bucketOf } from '../../../worker/experiments/statistics/vitals-histogram';
import { recordVitals } from '../../../worker/experiments/store/record-vitals';
import { byIp, everyRequest } from '../../../worker/rate-limits/rate-limit-gate';
import { aiLandingTest } from '../../fixtures/ai-landing-test';
import { asDeliveries, consumer } from '../collector/consume';
import { anEvent, NOW } from '../collector/fixtures';
import { recordingQueue } from '../collector/recording-queue';
import { freshApp, putConfig } from '../fetch-app';
import { pageStateOf } from '../page-html';
import {
  aBrowser,
  emptyExperiments,
  recordConfirmedVisitors,
  SAME_ORIGIN,
  SEGMENTS,
  shardRows,
  stores,
} from './experiment-fixtures';

/**
 * The field vitals from the page to an experiment's results: a sampled visitor's landing names
 * the arms it counts in, its `web_vitals` event goes through `/e`, the queue and its consumer into
 * the visitor's shard, once per metric, only in the arm their own exposure row holds; the results
 * show each arm's p75 with its samples and, from enough of them, a verdict.
 */

/** The control and `ai`, half each; the fixed placements below pick the arm. */
const LANDING_TEST = aiLandingTest(1);

const queue = recordingQueue();
const SAMPLED = { EVENTS_QUEUE: queue.queue, VITALS_SAMPLE_RATE: '1' };
/**
 * The tests' visitors all come from one address (none given): each may send as many reports as
 * it has pages. The bot below meets production's limit.
 */
const ANY_NUMBER_OF_REPORTS = {
  collectorLimits: { vitals: everyRequest('vitals_per_ip_in_tests', byIp, 10_000, 60_000) },
};
/** A fixed placement: 0.2 draws the control, 0.7 variant ai. */
const controlApp = freshApp(
  { random: () => 0.2, now: () => NOW, ...ANY_NUMBER_OF_REPORTS },
  SAMPLED,
);
const variantApp = freshApp(
  { random: () => 0.7, now: () => NOW, ...ANY_NUMBER_OF_REPORTS },
  SAMPLED,
);
let delivered = 0;

beforeEach(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  await putConfig('split', {
    version: 1,
    defaultVariant: 'default',
    variants: { default: { weight: 1 } },
  });
  const experiments: ExperimentsDocument = {
    version: 'vitals',
    experiments: { 'lp-ai': LANDING_TEST },
  };
  await putConfig('experiments', experiments);
  await emptyExperiments();
  delivered = queue.events.length;
});
afterEach(async () => {
  await putConfig('experiments', { version: 'none', experiments: {} });
  vi.restoreAllMocks();
});

async function consume() {
  const fresh = queue.events.slice(delivered);
  delivered = queue.events.length;
  await consumer().run(asDeliveries(fresh));
}

/** A visitor landing: their browser, and the vitals their page state hands the tracker. */
async function landing(app: ReturnType<typeof freshApp>) {
  const browser = aBrowser(app);
  const page = await browser.get('/');
  expect(page.status).toBe(200);
  return { browser, vitals: pageStateOf(page.body).analytics.vitals };
}

function vitalsEvent(
  properties: Record<string, unknown>,
  deviceId: string,
  time?: number,
): CollectedEvent {
  return anEvent({
    event_type: 'web_vitals',
    device_id: deviceId,
    ...(time !== undefined ? { time } : {}),
    event_properties: {
      screen_name: 'one_pager',
      ...properties,
    } as CollectedEvent['event_properties'],
  });
}

async function post(browser: ReturnType<typeof aBrowser>, events: CollectedEvent[]) {
  const answer = await browser.request('/e', {
    method: 'POST',
    headers: SAME_ORIGIN,
    body: JSON.stringify({ events }),
  });
  expect(answer.status).toBe(200);
  return JSON.parse(answer.body) as { accepted: number; duplicates: number };
}

async function results(): Promise<ExperimentResultsAnswer> {
  const response = await controlApp(`${CONSOLE_EXPERIMENTS_PATH}/lp-ai/results`);
  expect(response.status).toBe(200);
  return response.json();
}

function vitalOf(answer: ExperimentResultsAnswer, variant: string, metric: string): VitalGuardrail {
  const found = answer.variants
    .find((arm) => arm.variant === variant)
    ?.vitals.find((vital) => vital.metric === metric);
  if (!found) throw new Error(`no ${metric} for ${variant}`);
  return found;
}

describe('a sampled visitor’s landing', () => {
  it('names the arm the page counts in; outside the sample the page measures nothing', async () => {
    const { vitals } = await landing(variantApp);
    expect(vitals).toEqual({ arms: { 'lp-ai': 'ai' }, ticket: expect.any(String) });
    const unsampled = freshApp({ random: () => 0.7, now: () => NOW }, { VITALS_SAMPLE_RATE: '0' });
    expect((await landing(unsampled)).vitals).toBeUndefined();
  });
});

describe('field vitals in an experiment’s results', () => {
  it('each visitor’s values show in their own arm’s p75, with the samples', async () => {
    const values = [
      [controlApp, { lcp: 1200, inp: 80, cls: 0.01 }],
      [controlApp, { lcp: 1500, inp: 120, cls: 0 }],
      [variantApp, { lcp: 2600, inp: 300 }],
      [variantApp, { lcp: 3100, inp: 90, cls: 0.2 }],
    ] as const;
    for (const [app, measured] of values) {
      const { browser, vitals } = await landing(app);
      const properties = vitalsProperties(measured, vitals!)!;
      await post(browser, [vitalsEvent(properties, browser.visitorId()!)]);
    }
    await consume();
    const answer = await results();
    expect(vitalOf(answer, 'control', 'lcp')).toMatchObject({ samples: 2, rating: 'good' });
    expect(vitalOf(answer, 'control', 'lcp').p75).toBeCloseTo(1500, -1);
    expect(vitalOf(answer, 'ai', 'lcp')).toMatchObject({ samples: 2, rating: 'needs-improvement' });
    expect(vitalOf(answer, 'ai', 'lcp').p75).toBeCloseTo(3100, -2);
    expect(vitalOf(answer, 'ai', 'inp').p75).toBeCloseTo(300, -1);
    expect(vitalOf(answer, 'ai', 'cls')).toMatchObject({ samples: 1 });
    expect(vitalOf(answer, 'ai', 'lcp')).toMatchObject({ verdict: 'not_enough_data' });
    expect(vitalOf(answer, 'ai', 'lcp').difference).toBeGreaterThan(1000);
  });

  it('counts a visitor once per metric, however many pages or resends', async () => {
    const { browser, vitals } = await landing(variantApp);
    const id = browser.visitorId()!;
    const first = vitalsEvent(vitalsProperties({ lcp: 2000 }, vitals!)!, id);
    await post(browser, [first]);
    // The same event again (a beacon after a fetch that arrived), and a later page's.
    expect(await post(browser, [first])).toEqual({ accepted: 0, duplicates: 1 });
    // Another report of the same page view, made up: one report per page view.
    const again = vitalsEvent(vitalsProperties({ lcp: 9000 }, vitals!)!, id);
    expect(await post(browser, [again])).toEqual({ accepted: 0, duplicates: 1 });
    const later = pageStateOf((await browser.get('/')).body).analytics.vitals;
    await post(browser, [vitalsEvent(vitalsProperties({ lcp: 9000, inp: 150 }, later!)!, id)]);
    await consume();
    await consume();
    const answer = await results();
    expect(vitalOf(answer, 'ai', 'lcp').samples).toBe(1);
    expect(vitalOf(answer, 'ai', 'lcp').p75).toBeCloseTo(2000, -2);
    // INP first came with the later page: it counts, once.
    expect(vitalOf(answer, 'ai', 'inp').samples).toBe(1);
    // And once more by the visitor's exposure day, for the results' daily looks.
    const day = new Date(NOW).toISOString().slice(0, 10);
    const order = 'ORDER BY metric, bucket';
    expect(
      await shardRows(`SELECT day, variant, metric, bucket, visitors FROM xp_day_vitals ${order}`),
    ).toEqual(
      (await shardRows(`SELECT variant, metric, bucket, visitors FROM xp_vitals ${order}`)).map(
        (row) => ({ day, ...(row as object) }),
      ),
    );
  });

  it('counts the first page’s values when a later page’s report reached the queue first', async () => {
    const { browser, vitals } = await landing(variantApp);
    const id = browser.visitorId()!;
    const later = pageStateOf((await browser.get('/')).body).analytics.vitals;
    // The two reports passed the collector's checks concurrently and were queued the other way
    // round: the later page's is first in the consumer's batch.
    await post(browser, [vitalsEvent(vitalsProperties({ lcp: 9000 }, later!)!, id, NOW - 1000)]);
    await post(browser, [vitalsEvent(vitalsProperties({ lcp: 2000 }, vitals!)!, id, NOW - 3000)]);
    await consume();
    const lcp = vitalOf(await results(), 'ai', 'lcp');
    expect(lcp.samples).toBe(1);
    expect(lcp.p75).toBeCloseTo(2000, -2);
  });

  it('a page cannot put its values in an arm or an experiment its visitor is not in', async () => {
    const { browser, vitals } = await landing(variantApp);
    const id = browser.visitorId()!;
    const { ticket } = vitals!;
    const elsewhere = { 'lp-ai': 'control', 'pw-price': 'cheap' };
    await post(browser, [
      vitalsEvent(vitalsProperties({ lcp: 100, inp: 10 }, { arms: elsewhere, ticket })!, id),
    ]);
    // Nor under another visitor's id: the event is stored as its sender's.
    const other = await landing(controlApp);
    const another = { arms: { 'lp-ai': 'control' }, ticket: other.vitals!.ticket };
    await post(browser, [
      vitalsEvent(vitalsProperties({ lcp: 100 }, another)!, other.browser.visitorId()!),
    ]);
    await consume();
    const answer = await results();
    expect(vitalOf(answer, 'control', 'lcp').samples).toBe(0);
    expect(vitalOf(answer, 'ai', 'lcp').samples).toBe(0);
    expect(await shardRows('SELECT * FROM xp_vitals')).toEqual([]);
  });

  it('forged values are dropped at the collector, and the batch’s other events still go', async () => {
    const { browser, vitals } = await landing(variantApp);
    const id = browser.visitorId()!;
    const arms = { 'exp_lp-ai': 'ai', vitals_ticket: vitals!.ticket };
    expect(vitals?.arms).toEqual({ 'lp-ai': 'ai' });
    const forged = [
      vitalsEvent({ lcp: 1e9, lcp_rating: 'poor', ...arms }, id),
      vitalsEvent({ lcp: 900, lcp_rating: 'poor', ...arms }, id),
      vitalsEvent({ inp: 'fast', inp_rating: 'good', ...arms }, id),
      vitalsEvent({ cls: -1, cls_rating: 'good', ...arms }, id),
      vitalsEvent({ ...arms, lcp: 900, lcp_rating: 'good', 'exp_lp-ai': 'ai"><img>' }, id),
    ];
    const load = anEvent({ device_id: id });
    expect(await post(browser, [...forged, load])).toEqual({ accepted: 1, duplicates: 0 });
    expect(queue.events.at(-1)?.event.insert_id).toBe(load.insert_id);
    await consume();
    expect(await shardRows('SELECT * FROM xp_vitals')).toEqual([]);
  });

  it('from a page outside the sample, or with another browser’s ticket, the collector takes none', async () => {
    const outside = recordingQueue();
    const app = freshApp(
      { random: () => 0.7, now: () => NOW },
      { EVENTS_QUEUE: outside.queue, VITALS_SAMPLE_RATE: '0' },
    );
    const browser = aBrowser(app);
    await browser.get('/');
    const event = vitalsEvent(
      { lcp: 900, lcp_rating: 'good', 'exp_lp-ai': 'ai' },
      browser.visitorId()!,
    );
    expect(await post(browser, [event])).toEqual({ accepted: 0, duplicates: 0 });
    expect(outside.events).toEqual([]);
    // A sampled page's ticket copied into another browser: signed for the first one's id.
    const sampled = await landing(variantApp);
    const copier = aBrowser(variantApp);
    await copier.get('/');
    const copied = vitalsProperties({ lcp: 9000 }, sampled.vitals!)!;
    expect(await post(copier, [vitalsEvent(copied, copier.visitorId()!)])).toEqual({
      accepted: 0,
      duplicates: 0,
    });
  });
});

/**
 * 500 visitors exposed straight in the shards, alternately in the control and `ai`, each with the
 * vitals `measured` gives the i-th of them: many visitors without a page each.
 */
async function exposedWithVitals(
  measured: (i: number, variant: string) => Partial<Record<'lcp' | 'inp', number>>,
) {
  const exposures = Array.from({ length: 500 }, (_, i) => ({
    visitorId: `00000000-0000-4000-8000-${i.toString().padStart(12, '0')}`,
    experiment: 'lp-ai',
    phase: 1,
    variant: i % 2 === 0 ? 'control' : 'ai',
    configVersion: 'vitals',
    at: NOW - 60_000,
    segments: SEGMENTS,
  }));
  await recordConfirmedVisitors(stores, exposures);
  const samples = exposures.map(({ visitorId, variant }, i) => {
    const buckets = Object.fromEntries(
      Object.entries(measured(i, variant)).map(([metric, value]) => [
        metric,
        bucketOf(metric as 'lcp' | 'inp', value),
      ]),
    );
    return { visitorId, arms: [{ experiment: 'lp-ai', variant }], buckets, at: NOW };
  });
  await recordVitals(stores, samples);
}

describe('the guardrail’s verdict', () => {
  it('says worse, in the results the alerts read, once both arms have enough visitors', async () => {
    // The variant's pages paint a second later; INP alike.
    await exposedWithVitals((i, variant) => ({
      lcp: 1500 + (i % 97) * 20 + (variant === 'ai' ? 1000 : 0),
      inp: 100 + (i % 53) * 3,
    }));
    const answer = await results();
    expect(vitalOf(answer, 'ai', 'lcp')).toMatchObject({ samples: 250, verdict: 'worse' });
    expect(vitalOf(answer, 'ai', 'lcp').interval!.lower).toBeGreaterThan(0);
    expect(vitalOf(answer, 'ai', 'inp').verdict).toBe('no_difference_yet');
  });
});

describe('a bot that loads pages and reports made-up page speed', () => {
  it('from one address, under ids it chose for one arm, moves neither that arm’s p75 nor its verdict', async () => {
    // 250 real visitors an arm, the same spread of LCP in both: an A/A on page speed.
    await exposedWithVitals((i) => ({ lcp: 1500 + ((i >> 1) % 97) * 20 }));
    const before = vitalOf(await results(), 'ai', 'lcp');
    // Production's limits, as a deployed worker applies them.
    const app = freshApp({ random: () => 0.7, now: () => NOW }, SAMPLED);
    const address = { 'cf-connecting-ip': '203.0.113.66' };
    let accepted = 0;
    for (let page = 0; page < 10; page++) {
      // A fresh id each time, all landing in `ai`; each page sampled, its ticket used.
      const bot = aBrowser(app);
      const served = await bot.get('/', address);
      expect(served.status).toBe(200);
      const { vitals } = pageStateOf(served.body).analytics;
      const report = vitalsEvent(vitalsProperties({ lcp: 9000 }, vitals!)!, bot.visitorId()!);
      const answer = await bot.request('/e', {
        method: 'POST',
        headers: { ...SAME_ORIGIN, ...address },
        body: JSON.stringify({ events: [report] }),
      });
      accepted += (JSON.parse(answer.body) as { accepted: number }).accepted;
    }
    await consume();
    const after = vitalOf(await results(), 'ai', 'lcp');
    // Its address's few reports an hour, of the 10 pages it loaded.
    expect(accepted).toBe(6);
    expect(after.samples).toBe(before.samples + 6);
    expect(Math.abs(after.p75! - before.p75!) / before.p75!).toBeLessThan(0.05);
    expect(after.verdict).toBe('no_difference_yet');
  });
});
