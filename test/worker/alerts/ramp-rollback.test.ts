import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { EMPTY_CONTENT } from '../../../shared/config/content';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { RoutingDocument } from '../../../shared/config/routing';
import { type AlertsAnswer, CONSOLE_ALERTS_PATH } from '../../../shared/console-api/alerts';
import {
  CONSOLE_EXPERIMENTS_PATH,
  type ExperimentResultsAnswer,
} from '../../../shared/console-api/experiment-results';
import { gateOf } from '../../../worker/alerts/break-glass';
import { experimentResultsReader } from '../../../worker/alerts/results-reader';
import { runRamps } from '../../../worker/alerts/run-ramps';
import { DEFAULT_FLOWS, DEFAULT_ROUTING, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import { createConfigSource } from '../../../worker/config/load';
import { kvLiveKeys, publish } from '../../../worker/config/publish';
import { d1Runner, versionStore } from '../../../worker/config/versions';
import { hashShare } from '../../../worker/experiments/assignment/assign';
import { recordPurchases } from '../../../worker/experiments/store/experiment-purchase';
import { experimentStores } from '../../../worker/experiments/store/experiment-stores';
import { recordErrors } from '../../../worker/experiments/store/record-outcomes';
import { aiLandingTest } from '../../fixtures/ai-landing-test';
import { resultsAnswer } from '../../fixtures/experiment-results-answer';
import { wonDecision } from '../../fixtures/won-decision';
import {
  aBrowser,
  CHROME,
  emptyExperiments,
  recordConfirmedVisitors,
  SEGMENTS,
  shardRows,
} from '../experiments/experiment-fixtures';
import { freshApp } from '../fetch-app';
import { ALERTS_ENV, deliveryRows, readerOf, WEBHOOK, webhookAndLogs } from './alerts-fixtures';

/**
 * A guarded ramp rolled back by the cron's run (worker/alerts/run-ramps.ts) in workerd, with the
 * real KV and CONFIG_DB: the rollback is a config version by `ramp` with its reason, the alert is
 * claimed for the webhook and listed new in the console's inbox, and the next request of a
 * visitor who had the variant serves the control, their exposure still recorded.
 */

const hook = webhookAndLogs();
const NOW = Date.parse('2026-12-02T12:00:00Z');

/** The landing test on a ramp at its last step (0.5: everyone, half in each arm). */
const RAMPED: ExperimentDocument = {
  ...aiLandingTest(1),
  ramp: {
    steps: [
      { coverage: 0.05, holdHours: 24, minPerArm: 100 },
      { coverage: 0.5, holdHours: 24, minPerArm: 0 },
    ],
    state: { step: 1, since: '2026-12-01T12:00Z', status: 'running' },
  },
};

/** The results the cron reads: the variant declines 6% of its exposed, the control 3%. */
function doubledDeclines() {
  const answer = resultsAnswer({ control: { exposed: 3000 }, cheap: { exposed: 3000 } });
  answer.control = 'control';
  answer.variants[0]!.guardrails.declines.count = 90;
  answer.variants[1]!.variant = 'ai';
  answer.variants[1]!.guardrails.declines.count = 180;
  return answer;
}

const DAY = 24 * 60 * 60 * 1000;

/** The landing test's winner rolled out on a ramp at its last step (0.5: half and half). */
const ROLL_OUT = wonDecision('ai', {
  ramp: {
    steps: [
      { coverage: 0.05, holdHours: 24, minPerArm: 100 },
      { coverage: 0.5, holdHours: 24, minPerArm: 0 },
    ],
    state: { step: 1, since: '2026-12-01T12:00Z', status: 'running' },
  },
});

/** A TikTok route with its own flow on a ramp at its last step (0.5: half and half). */
const RAMPED_ROUTING: RoutingDocument = {
  version: 'v0',
  audiences: {
    tiktok: { groups: [[{ attribute: 'source', operator: 'in', values: ['tiktok'] }]] },
  },
  routes: [
    {
      id: 'tiktok_new',
      audience: 'tiktok',
      flow: 'lp17ch17pr5',
      ramp: {
        steps: [
          { coverage: 0.05, holdHours: 24, minPerArm: 100 },
          { coverage: 0.5, holdHours: 24, minPerArm: 0 },
        ],
        state: { step: 1, since: '2026-12-01T12:00Z', status: 'running' },
      },
    },
    { id: 'default', flow: 'default' },
  ],
};

/** The route's results as the cron reads them: the route's band declines 6%, the fallback's 3%. */
function routeDeclines() {
  const answer = doubledDeclines();
  answer.control = 'fallback';
  answer.variants[0]!.variant = 'fallback';
  answer.variants[1]!.variant = 'route';
  return answer;
}

/** The landing test at its last step since an hour before NOW: the cron only watches it. */
function watchedRamp(): ExperimentDocument {
  return {
    ...RAMPED,
    ramp: {
      ...RAMPED.ramp!,
      state: { step: 1, since: new Date(NOW - 60 * 60_000).toISOString(), status: 'running' },
    },
  };
}

/** 150 visitors of the landing test's `variant` band, exposed an hour before NOW. */
function exposedBand(variant: string) {
  return Array.from({ length: 150 }, () => ({
    experiment: 'lp-ai',
    phase: 1,
    variant,
    visitorId: crypto.randomUUID(),
    configVersion: 'v1+v1',
    at: NOW - 60 * 60_000,
    segments: SEGMENTS,
  }));
}

/**
 * The watched ramp published a day before NOW, and 150 visitors of each band exposed an hour
 * before, straight in the shards: the bands' visitors.
 */
async function watchedBands() {
  await freshConfig();
  expect((await publishLive({ 'lp-ai': watchedRamp() }, 'ramp the AI landing', DAY)).kind).toBe(
    'published',
  );
  const control = exposedBand('control');
  const variant = exposedBand('ai');
  await recordConfirmedVisitors(experimentStores(env), [...control, ...variant]);
  return { control, variant };
}

/** The cron's run at NOW on the live config, reading the real results. */
async function runRampsOnResults() {
  const config = await createConfigSource().load(env.FUNNEL_CONFIG, 0);
  return runRamps(ALERTS_ENV, config, {
    now: NOW,
    readResults: experimentResultsReader(ALERTS_ENV),
  });
}

/** No experiment counted, no version published, nothing live in KV. */
async function freshConfig() {
  await emptyExperiments();
  await env.CONFIG_DB.prepare('DELETE FROM config_versions').run();
  for (const { name } of (await env.FUNNEL_CONFIG.list()).keys)
    await env.FUNNEL_CONFIG.delete(name);
}

/**
 * Publishes the built-in config with `experiments` (and `routing`, on top of `base`) by
 * anna@example.com, `ago` ms before NOW.
 */
function publishLive(
  experiments: Record<string, ExperimentDocument>,
  note: string,
  ago: number,
  {
    base = null,
    routing = DEFAULT_ROUTING,
  }: { base?: number | null; routing?: RoutingDocument } = {},
) {
  return publish(stores, {
    base,
    document: {
      split: DEFAULT_SPLIT,
      flows: DEFAULT_FLOWS,
      routing,
      content: EMPTY_CONTENT,
      experiments: { version: 'v0', experiments, alerts: { webhook: WEBHOOK } },
    },
    author: 'anna@example.com',
    note,
    source: 'console',
    now: new Date(NOW - ago),
  });
}

/** A new visitor whose first page at `path` satisfies `found`; one of 30 tried. */
async function aVisitorWhere(
  path: string,
  found: (browser: ReturnType<typeof aBrowser>, body: string) => Promise<boolean>,
) {
  for (let tries = 0; tries < 30; tries++) {
    const browser = aBrowser(freshApp({ now: () => NOW }));
    if (await found(browser, (await browser.get(path)).body)) return browser;
  }
  throw new Error(`no visitor of 30 found at ${path}`);
}

/** One run of the cron at NOW on the live config, the results read from `answers`. */
async function runRampsOn(answers: Record<string, ExperimentResultsAnswer>) {
  const config = await createConfigSource().load(env.FUNNEL_CONFIG, 0);
  return runRamps(ALERTS_ENV, config, { now: NOW, readResults: readerOf(answers) });
}

const stores = {
  versions: versionStore(d1Runner(env.CONFIG_DB)),
  live: kvLiveKeys(env.FUNNEL_CONFIG),
  gate: gateOf(env),
};

describe('a ramp rolled back by the cron', () => {
  it('is a new version with its reason, alerts, and serves the control next', async () => {
    await freshConfig();
    const published = await publishLive({ 'lp-ai': RAMPED }, 'ramp the AI landing', DAY);
    expect(published.kind).toBe('published');

    // A visitor in the variant's band, exposed and pinned to it.
    const inVariant = await aVisitorWhere('/', async (_, body) => body.includes('one_pager_ai'));

    expect(await runRampsOn({ 'lp-ai': doubledDeclines() })).toEqual({ moved: 1, alerts: 1 });
    expect(hook.coded('ramp_moved')).toEqual([
      expect.objectContaining({ experiment: 'lp-ai', move: 'rollback', version: 'v2' }),
    ]);

    const head = (await stores.versions.head())!;
    expect(head).toMatchObject({ seq: 2, author: 'ramp', source: 'ramp', base: 1 });
    expect(head.note).toMatch(
      /^Ramp of lp-ai: rolled back: broken: declines \(6\.00% against 3\.00%\)/,
    );
    expect(head.document.experiments.experiments['lp-ai']!.ramp!.state).toMatchObject({
      status: 'rolled_back',
      reason: expect.stringContaining('declines'),
    });
    expect(await deliveryRows()).toEqual([
      expect.objectContaining({ key: 'lp-ai|1|ramp|rollback-move', state: 'pending' }),
    ]);
    // The console's inbox holds it, new, in its words.
    const inbox = await freshApp({ now: () => NOW })(CONSOLE_ALERTS_PATH);
    const { alerts, unacknowledged } = (await inbox.json()) as AlertsAnswer;
    expect(unacknowledged).toBe(1);
    expect(alerts).toEqual([
      expect.objectContaining({
        key: 'lp-ai|1|ramp|rollback-move',
        kind: 'ramp',
        headline: 'Guarded ramp',
        acknowledged: null,
      }),
    ]);
    expect(alerts[0]?.text).toMatch(/rolled back.*broken: declines \(6\.00% against 3\.00%\)/);

    // The next request, on an app reading the config afresh: the control's landing.
    const again = aBrowser(freshApp({ now: () => NOW + 60_000 }), inVariant.cookies);
    const landing = await again.get('/');
    expect(landing.status).toBe(200);
    expect(landing.body).not.toContain('one_pager_ai');

    // The console's results of the experiment show the ramp as rolled back, with its reason.
    const shown = await freshApp({ now: () => NOW })(`${CONSOLE_EXPERIMENTS_PATH}/lp-ai/results`);
    const { ramp } = (await shown.json()) as ExperimentResultsAnswer;
    expect(ramp).toMatchObject({ status: 'rolled_back', coverage: 0, gate: null });
    expect(ramp!.reason).toMatch(/^broken: declines/);
    expect(ramp!.guardrails.map((g) => g.guardrail)).toContain('checkout_errors');

    // A marketer's draft begun before the rollback, the ramp as it was then, cannot bring the
    // variant back, on its old base or re-based on the rollback: the publish check refuses to
    // revive a rolled-back ramp, before it looks at the base.
    for (const base of [1, 2]) {
      const stale = await publishLive(
        { 'lp-ai': { ...RAMPED, notes: 'a note written before the rollback' } },
        'a draft begun before the rollback',
        0,
        { base },
      );
      expect(stale).toMatchObject({
        kind: 'invalid',
        errors: [
          expect.objectContaining({ path: 'experiments.experiments.lp-ai.ramp.state.status' }),
        ],
      });
    }
    expect((await stores.versions.head())!.seq).toBe(2);

    // Looked at again, a rolled-back ramp makes no move and no second alert.
    const later = await createConfigSource().load(env.FUNNEL_CONFIG, 0);
    expect(
      await runRamps(ALERTS_ENV, later, {
        now: NOW + 15 * 60_000,
        readResults: readerOf({ 'lp-ai': doubledDeclines() }),
      }),
    ).toEqual({ moved: 0, alerts: 0 });
  });

  it('rolls a roll-out on a ramp back: everyone on the control, who decided kept', async () => {
    await freshConfig();
    const running = aiLandingTest(1);
    const first = await publishLive({ 'lp-ai': running }, 'start the AI landing', 3 * DAY);
    expect(first.kind).toBe('published');
    const shipped = await publishLive(
      { 'lp-ai': { ...running, status: 'shipped', decision: ROLL_OUT } },
      'roll the AI landing out in steps',
      DAY,
      { base: 1 },
    );
    expect(shipped).toMatchObject({ kind: 'published' });
    // Its roll-out is counted in a phase of its own.
    expect((await stores.versions.head())!.document.experiments.experiments['lp-ai']!.phase).toBe(
      2,
    );

    const inVariant = await aVisitorWhere('/', async (_, body) => body.includes('one_pager_ai'));

    expect(await runRampsOn({ 'lp-ai': doubledDeclines() })).toEqual({ moved: 1, alerts: 1 });
    const head = (await stores.versions.head())!;
    expect(head).toMatchObject({ seq: 3, author: 'ramp', source: 'ramp' });
    expect(head.note).toMatch(/^Ramp of the roll-out of lp-ai: rolled back: broken: declines/);
    const decision = head.document.experiments.experiments['lp-ai']!.decision!;
    expect(decision).toMatchObject({ by: 'anna@example.com', action: 'roll_out' });
    expect(decision.ramp!.state.status).toBe('rolled_back');
    expect(await deliveryRows()).toEqual([
      expect.objectContaining({ key: 'lp-ai|2|ramp|rollback-move', state: 'pending' }),
    ]);

    // The visitor the roll-out reached, and a new one: both on the control's landing.
    const again = aBrowser(freshApp({ now: () => NOW + 60_000 }), inVariant.cookies);
    expect((await again.get('/')).body).not.toContain('one_pager_ai');
    const fresh = aBrowser(freshApp({ now: () => NOW + 60_000 }));
    expect((await fresh.get('/')).body).not.toContain('one_pager_ai');

    // The results show the roll-out's phase as its two arms, with the ramp rolled back.
    const shown = await freshApp({ now: () => NOW })(`${CONSOLE_EXPERIMENTS_PATH}/lp-ai/results`);
    const answer = (await shown.json()) as ExperimentResultsAnswer;
    expect(answer).toMatchObject({ phase: 2, ramp: { status: 'rolled_back', coverage: 0 } });
    expect(answer.variants.map((arm) => [arm.variant, arm.share])).toEqual([
      ['control', 0.5],
      ['ai', 0.5],
    ]);
    expect(answer.variants.find((arm) => arm.variant === 'ai')!.exposed).toBe(1);
  });

  it('rolls a new route on a ramp back: its visitors routed to the fallback', async () => {
    await freshConfig();
    const published = await publishLive({}, 'ramp the TikTok route', DAY, {
      routing: RAMPED_ROUTING,
    });
    expect(published).toMatchObject({ kind: 'published' });

    // A TikTok visitor the ramp drew onto the route, counted in its arm `route`.
    const onRoute = await aVisitorWhere(
      '/?utm_source=tiktok',
      async (browser) => browser.route() === 'tiktok_new',
    );
    const counted = await shardRows<{ variant: string }>(
      "SELECT variant FROM xp_exposures WHERE experiment = 'route:tiktok_new' AND visitor_id = ?1",
      onRoute.visitorId()!,
    );
    expect(counted).toEqual([{ variant: 'route' }]);
    // The console reads the route's bands as an experiment's two arms, with its ramp.
    const shown = await freshApp({ now: () => NOW })(
      `${CONSOLE_EXPERIMENTS_PATH}/route:tiktok_new/results`,
    );
    expect(shown.status).toBe(200);
    const answer = (await shown.json()) as ExperimentResultsAnswer;
    expect(answer).toMatchObject({ control: 'fallback', ramp: { status: 'running', step: 1 } });
    expect(answer.variants.find((arm) => arm.variant === 'route')?.exposed).toBe(1);

    expect(await runRampsOn({ 'route:tiktok_new': routeDeclines() })).toEqual({
      moved: 1,
      alerts: 1,
    });
    const head = (await stores.versions.head())!;
    expect(head).toMatchObject({ seq: 2, author: 'ramp', source: 'ramp' });
    expect(head.note).toMatch(/^Ramp of route tiktok_new: rolled back: broken: declines/);
    expect(head.document.routing.routes[0]!.ramp!.state.status).toBe('rolled_back');
    expect(await deliveryRows()).toEqual([
      expect.objectContaining({ key: 'route:tiktok_new|1|ramp|rollback-move', state: 'pending' }),
    ]);
    const told = await env.CONFIG_DB.prepare('SELECT body FROM alert_deliveries').first<{
      body: string;
    }>();
    expect(told!.body).toContain('rolled back the route: it takes no one');

    // The visitor on the route, their gf_route kept: routed again, to the fallback.
    const again = aBrowser(freshApp({ now: () => NOW + 60_000 }), onRoute.cookies);
    expect((await again.get('/')).status).toBe(200);
    expect(again.route()).toBe('default');

    // No publish brings it back: the visitors it had were moved to the fallback.
    const revived = await publishLive({}, 'try again', 0, { base: 2, routing: RAMPED_ROUTING });
    expect(revived).toMatchObject({
      kind: 'invalid',
      errors: [expect.objectContaining({ path: 'routing.routes.0.ramp.state.status' })],
    });
  });

  it('the bot probe: ids minted into the variant from one address count in no arm and hold no ramp', async () => {
    await freshConfig();
    expect((await publishLive({ 'lp-ai': watchedRamp() }, 'ramp the AI landing', DAY)).kind).toBe(
      'published',
    );
    // 150 real visitors in each band, exposed an hour before.
    await recordConfirmedVisitors(experimentStores(env), [
      ...exposedBand('control'),
      ...exposedBand('ai'),
    ]);
    // The hash is public, so a bot mints ids in the variant's band (a share under 0.5 at this
    // step) and loads the landing with each from one address, running none of the pages'
    // script: 100 loads (the probe made 300), past the address's budget of 30 and enough that,
    // counted, the variant's 250 against the control's 150 would break the ramp's sample-ratio
    // check (sampleRatioTest at the ramp's α, from 87 more) and hold the ramp.
    const app = freshApp({ now: () => NOW });
    let loads = 0;
    while (loads < 100) {
      const id = crypto.randomUUID();
      if (hashShare('lp-ai', id) >= 0.5) continue;
      const bot = aBrowser(app, new Map([['userUuid', id]]), { script: false });
      const page = await bot.get('/', { 'cf-connecting-ip': '203.0.113.66', 'user-agent': CHROME });
      expect(page.body).toContain('one_pager_ai');
      loads++;
    }
    const config = await createConfigSource().load(env.FUNNEL_CONFIG, 0);
    const results = await experimentResultsReader(ALERTS_ENV)(config, 'lp-ai');
    const arms = Object.fromEntries(results!.variants.map((v) => [v.variant, v]));
    // None counts: the address's day's budget wrote 30 of them pending, which no page script
    // confirmed, and left the rest out; both are counted apart, and said.
    expect(arms.ai).toMatchObject({ exposed: 150, unconfirmed: 30, overBudget: 70 });
    expect(arms.control).toMatchObject({ exposed: 150, unconfirmed: 0, overBudget: 0 });
    // So the sample-ratio test is not broken, and the cron moves nothing.
    expect(
      await runRamps(ALERTS_ENV, config, {
        now: NOW,
        readResults: experimentResultsReader(ALERTS_ENV),
      }),
    ).toEqual({ moved: 0, alerts: 0 });
    expect((await stores.versions.head())!.seq).toBe(1);
  });

  it('rolls back a variant whose visitors stop buying, and says why', async () => {
    // 30 of the control's bought since, and none of the variant's: its Pay button never works,
    // so no charge, and no decline either.
    const { control } = await watchedBands();
    const exposedAt = NOW - 60 * 60_000;
    await recordPurchases(
      experimentStores(env),
      control.slice(0, 30).map(({ visitorId }, n) => ({
        subscriptionId: `sub_${n}`,
        visitorId,
        amountMinor: 699,
        currency: 'USD',
        at: exposedAt + 10 * 60_000,
      })),
    );
    expect(await runRampsOnResults()).toEqual({ moved: 1, alerts: 1 });
    const head = (await stores.versions.head())!;
    expect(head).toMatchObject({ author: 'ramp', source: 'ramp' });
    expect(head.note).toMatch(
      /^Ramp of lp-ai: rolled back: broken: conversion \(0\.00% converted against 20\.00%\)/,
    );
    expect(hook.coded('ramp_moved')).toEqual([
      expect.objectContaining({ experiment: 'lp-ai', move: 'rollback' }),
    ]);
  });

  it.each([
    ['server_error', 'rolled back', 'server errors'],
    ['client_error', 'held', 'client errors'],
  ] as const)(
    'a variant whose visitors meet %s is %s, and says why',
    async (kind, moved, guardrail) => {
      // 30 of the variant's met the error since (the worker's 5xx, or their own page's), 1 of the
      // control's.
      const { control, variant } = await watchedBands();
      const at = NOW - 30 * 60_000;
      await recordErrors(experimentStores(env), [
        ...variant.slice(0, 30).map(({ visitorId }) => ({ visitorId, kind, at })),
        { visitorId: control[0]!.visitorId, kind, at },
      ]);
      expect(await runRampsOnResults()).toEqual({ moved: 1, alerts: 1 });
      expect((await stores.versions.head())!.note).toMatch(
        new RegExp(`^Ramp of lp-ai: ${moved}: broken: ${guardrail} \\(20\\.00% against 0\\.67%\\)`),
      );
    },
  );
});
