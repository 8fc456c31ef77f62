import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { EMPTY_CONTENT } from '../../../shared/config/content';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import {
  CONSOLE_EXPERIMENTS_PATH,
  type ExperimentResultsAnswer,
} from '../../../shared/console-api/experiment-results';
import { runRamps } from '../../../worker/alerts/run-ramps';
import { DEFAULT_FLOWS, DEFAULT_ROUTING, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import { createConfigSource } from '../../../worker/config/load';
import { kvLiveKeys, publish } from '../../../worker/config/publish';
import { d1Runner, versionStore } from '../../../worker/config/versions';
import { aiLandingTest } from '../../fixtures/ai-landing-test';
import { resultsAnswer } from '../../fixtures/experiment-results-answer';
import { aBrowser, emptyExperiments } from '../experiments/experiment-fixtures';
import { freshApp } from '../fetch-app';
import { ALERTS_ENV, deliveryRows, readerOf, WEBHOOK, webhookAndLogs } from './alerts-fixtures';

/**
 * A guarded ramp rolled back by the cron's run (worker/alerts/run-ramps.ts) in workerd, with the
 * real KV and CONFIG_DB: the rollback is a config version by `ramp` with its reason, the alert is
 * claimed for the webhook, and the next request of a visitor who had the variant serves the
 * control, their exposure still recorded.
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

const stores = {
  versions: versionStore(d1Runner(env.CONFIG_DB)),
  live: kvLiveKeys(env.FUNNEL_CONFIG),
};

describe('a ramp rolled back by the cron', () => {
  it('is a new version with its reason, alerts, and serves the control next', async () => {
    await emptyExperiments();
    await env.CONFIG_DB.prepare('DELETE FROM config_versions').run();
    const published = await publish(stores, {
      base: null,
      document: {
        split: DEFAULT_SPLIT,
        flows: DEFAULT_FLOWS,
        routing: DEFAULT_ROUTING,
        content: EMPTY_CONTENT,
        experiments: {
          version: 'v0',
          experiments: { 'lp-ai': RAMPED },
          alerts: { webhook: WEBHOOK },
        },
      },
      author: 'anna@example.com',
      note: 'ramp the AI landing',
      source: 'console',
      now: new Date(NOW - 24 * 60 * 60 * 1000),
    });
    expect(published.kind).toBe('published');

    // A visitor in the variant's band, exposed and pinned to it.
    let inVariant: ReturnType<typeof aBrowser> | null = null;
    for (let tries = 0; tries < 30 && inVariant === null; tries++) {
      const browser = aBrowser(freshApp({ now: () => NOW }));
      if ((await browser.get('/')).body.includes('one_pager_ai')) inVariant = browser;
    }
    expect(inVariant).not.toBeNull();

    const config = await createConfigSource().load(env.FUNNEL_CONFIG, 0);
    const summary = await runRamps(ALERTS_ENV, config, {
      now: NOW,
      readResults: readerOf({ 'lp-ai': doubledDeclines() }),
    });
    expect(summary).toEqual({ moved: 1, alerts: 1 });
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

    // The next request, on an app reading the config afresh: the control's landing.
    const again = aBrowser(freshApp({ now: () => NOW + 60_000 }), inVariant!.cookies);
    const landing = await again.get('/');
    expect(landing.status).toBe(200);
    expect(landing.body).not.toContain('one_pager_ai');

    // The console's results of the experiment show the ramp as rolled back, with its reason.
    const shown = await freshApp({ now: () => NOW })(`${CONSOLE_EXPERIMENTS_PATH}/lp-ai/results`);
    const { ramp } = (await shown.json()) as ExperimentResultsAnswer;
    expect(ramp).toMatchObject({ status: 'rolled_back', coverage: 0, gate: null });
    expect(ramp!.reason).toMatch(/^broken: declines/);
    expect(ramp!.guardrails.map((g) => g.guardrail)).toContain('checkout_errors');

    // Looked at again, a rolled-back ramp makes no move and no second alert.
    const later = await createConfigSource().load(env.FUNNEL_CONFIG, 0);
    expect(
      await runRamps(ALERTS_ENV, later, {
        now: NOW + 15 * 60_000,
        readResults: readerOf({ 'lp-ai': doubledDeclines() }),
      }),
    ).toEqual({ moved: 0, alerts: 0 });
  });
});
