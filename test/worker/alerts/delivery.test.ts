import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { alertsDue } from '../../../worker/alerts/alert-rules';
import { claimAlert, LEASE_MS, takeDueDeliveries } from '../../../worker/alerts/alert-store';
import { MAX_ATTEMPTS } from '../../../worker/alerts/retry-schedule';
import { runAlerts } from '../../../worker/alerts/run-alerts';
import { d1Runner } from '../../../worker/config/versions';
import { matchingSignature, readSignatureHeader } from '../../../worker/lifecycle/signature';
import {
  holdoutAnswer,
  priceExperiment,
  resultsAnswer,
} from '../../fixtures/experiment-results-answer';
import {
  ALERTS_ENV,
  configWith,
  deliveryRows,
  MINUTE,
  NOW,
  readerOf,
  SECRET,
  WEBHOOK,
  webhookAndLogs,
} from './alerts-fixtures';

/**
 * The alerts' delivery (worker/alerts/run-alerts.ts) in workerd, against the real CONFIG_DB: each
 * alert is posted once, signed, retried on 5xx and no answer, given up on a refusal, and never
 * twice however runs overlap or die.
 */

const hook = webhookAndLogs();

const CONFIG = configWith({ 'pw-us': priceExperiment() });
const SRM = readerOf({ 'pw-us': resultsAnswer({ srmAlarm: true }) });

const runAt = (now: number, readResults = SRM, config = CONFIG, bindings = ALERTS_ENV) =>
  runAlerts(bindings, config, { now, readResults });

describe('sent once', () => {
  it('a condition that stays true over many runs is posted once', async () => {
    for (let run = 0; run < 4; run++) await runAt(NOW + run * 15 * MINUTE);

    expect(hook.posts).toHaveLength(1);
    expect(hook.posts[0]!.url).toBe(WEBHOOK);
    expect(JSON.parse(hook.posts[0]!.body).text).toContain('*Sample ratio mismatch*');
    expect(await deliveryRows()).toEqual([
      { key: 'pw-us|2|srm', state: 'sent', attempts: 1, next_attempt_at: NOW, last_status: 200 },
    ]);
    expect(hook.coded('alert_sent')).toEqual([
      expect.objectContaining({
        key: 'pw-us|2|srm',
        experiment: 'pw-us',
        phase: 2,
        kind: 'srm',
        attempt: 1,
        status: 200,
      }),
    ]);
  });

  it('the split is watched too while it tests two flows, and not when it has one', async () => {
    const twoFlows = {
      ...CONFIG,
      split: {
        ...CONFIG.split,
        variants: { ...CONFIG.split.variants, lp17ch17pr5: { weight: 1 } },
      },
    };
    const splitSrm = readerOf({ split: resultsAnswer({ srmAlarm: true }) });
    await runAt(NOW, splitSrm, CONFIG);
    expect(hook.posts).toHaveLength(0);
    await runAt(NOW, splitSrm, twoFlows);
    expect(hook.posts).toHaveLength(1);
    expect(hook.coded('alert_sent')).toEqual([
      expect.objectContaining({ experiment: 'split', kind: 'srm' }),
    ]);
  });

  it('each alert is its own post: SRM and a guardrail of the same experiment', async () => {
    const both = readerOf({
      'pw-us': resultsAnswer({ srmAlarm: true, cheap: { declines: 'worse' } }),
    });
    await runAt(NOW, both);
    await runAt(NOW + 15 * MINUTE, both);

    expect(hook.posts.map((post) => post.headers.get('Geofunnel-Alert-Id')).sort()).toEqual([
      'pw-us|2|guardrail_declines|cheap',
      'pw-us|2|srm',
    ]);
  });

  it('a new phase with the same fault is posted again, once', async () => {
    await runAt(NOW);
    const phase3 = readerOf({
      'pw-us': resultsAnswer({ phase: 3, phases: [3, 2], srmAlarm: true }),
    });
    await runAt(NOW + 15 * MINUTE, phase3);
    await runAt(NOW + 30 * MINUTE, phase3);

    expect(hook.posts.map((post) => post.headers.get('Geofunnel-Alert-Id'))).toEqual([
      'pw-us|2|srm',
      'pw-us|3|srm',
    ]);
  });

  it('two runs at once post it once', async () => {
    const summaries = await Promise.all([runAt(NOW), runAt(NOW), runAt(NOW)]);

    expect(hook.posts).toHaveLength(1);
    expect(summaries.map((summary) => summary.claimed).sort()).toEqual([0, 0, 1]);
    expect(summaries.reduce((sum, summary) => sum + summary.sent, 0)).toBe(1);
  });
});

describe('the holdout', () => {
  const holdout = {
    seed: 'h-1b9e44',
    percent: 5,
    status: 'running' as const,
    startedAt: new Date(NOW - 30 * 24 * 60 * MINUTE).toISOString(),
  };
  const withHoldout = (status: 'running' | 'ended' = 'running') => ({
    ...CONFIG,
    experiments: {
      ...CONFIG.experiments,
      holdout: {
        ...holdout,
        status,
        ...(status === 'ended' ? { endedAt: holdout.startedAt } : {}),
      },
    },
  });
  const worse = readerOf({ holdout: holdoutAnswer({ worse: true }) });

  it('posts once when the measured sample makes significantly less than the held out', async () => {
    for (let run = 0; run < 3; run++) await runAt(NOW + run * 15 * MINUTE, worse, withHoldout());
    expect(hook.posts.map((post) => post.headers.get('Geofunnel-Alert-Id'))).toEqual([
      'holdout:h-1b9e44|1|holdout_worse|measured',
    ]);
    expect(JSON.parse(hook.posts[0]!.body).text).toContain(
      '*Holdout: shipped winners cost revenue*: Holdout h-1b9e44 (5%): the measured sample',
    );
  });

  it('reads nothing once it ended', async () => {
    await runAt(NOW, worse, withHoldout('ended'));
    expect(hook.posts).toEqual([]);
  });
});

describe('retries', () => {
  it('a 500 then a 200: posted again by the next run, then never', async () => {
    hook.answer(500, 200);
    await runAt(NOW);
    expect(await deliveryRows()).toEqual([
      expect.objectContaining({
        state: 'pending',
        attempts: 1,
        next_attempt_at: NOW + 15 * MINUTE,
        last_status: 500,
      }),
    ]);
    expect(hook.coded('alert_failed')).toEqual([
      expect.objectContaining({
        level: 'warn',
        key: 'pw-us|2|srm',
        status: 500,
        detail: 'invalid_payload',
        retry_at: new Date(NOW + 15 * MINUTE).toISOString(),
      }),
    ]);

    await runAt(NOW + 5 * MINUTE);
    expect(hook.posts).toHaveLength(1);

    await runAt(NOW + 15 * MINUTE);
    await runAt(NOW + 30 * MINUTE);
    expect(hook.posts).toHaveLength(2);
    expect(hook.posts[1]!.body).toBe(hook.posts[0]!.body);
    expect(await deliveryRows()).toEqual([
      expect.objectContaining({ state: 'sent', attempts: 2, last_status: 200 }),
    ]);
    expect(hook.coded('alert_sent')).toHaveLength(1);
  });

  it('a 429 and no answer are retried too', async () => {
    hook.answer(429, 'network', 204);
    for (const minutes of [0, 15, 45, 105]) await runAt(NOW + minutes * MINUTE);

    expect(hook.posts).toHaveLength(3);
    expect(hook.coded('alert_failed').map((line) => [line.status, line.detail])).toEqual([
      [429, 'invalid_payload'],
      [null, 'TypeError: Network connection lost.'],
    ]);
    expect(await deliveryRows()).toEqual([expect.objectContaining({ state: 'sent', attempts: 3 })]);
  });

  it(`a webhook that never answers is given up after ${MAX_ATTEMPTS} attempts`, async () => {
    hook.answer(503);
    let now = NOW;
    // Every 15 minutes for a day: the schedule's 8 attempts take about 20 hours.
    for (let run = 0; run < 96; run++) {
      await runAt(now);
      now += 15 * MINUTE;
    }

    expect(hook.posts).toHaveLength(MAX_ATTEMPTS);
    expect(await deliveryRows()).toEqual([
      expect.objectContaining({ state: 'given_up', attempts: MAX_ATTEMPTS, last_status: 503 }),
    ]);
    expect(hook.coded('alert_given_up')).toEqual([
      expect.objectContaining({
        level: 'error',
        reason: 'attempts_exhausted',
        attempt: MAX_ATTEMPTS,
      }),
    ]);
  });

  it('a 400 is given up at once, and logged with what the webhook said', async () => {
    hook.answer(400);
    await runAt(NOW);
    await runAt(NOW + 15 * MINUTE);
    await runAt(NOW + 6 * 60 * MINUTE);

    expect(hook.posts).toHaveLength(1);
    expect(await deliveryRows()).toEqual([
      expect.objectContaining({ state: 'given_up', attempts: 1, last_status: 400 }),
    ]);
    expect(hook.coded('alert_given_up')).toEqual([
      expect.objectContaining({ reason: 'rejected', status: 400, detail: 'invalid_payload' }),
    ]);
  });

  it('a redirect is not followed: given up', async () => {
    hook.answer(302);
    await runAt(NOW);
    await runAt(NOW + 15 * MINUTE);

    expect(hook.posts).toHaveLength(1);
    expect(hook.coded('alert_given_up')).toEqual([
      expect.objectContaining({ reason: 'rejected', status: 302 }),
    ]);
  });
});

describe('a run that dies between claiming and posting', () => {
  it('leaves the alert to the next run once its lease is over, which posts it once', async () => {
    const [alert] = alertsDue(
      'pw-us',
      priceExperiment(),
      resultsAnswer({ srmAlarm: true }),
      new Date(NOW),
    );
    await claimAlert(d1Runner(env.CONFIG_DB), alert!, WEBHOOK, '{"text":"x"}', NOW);
    // The dead run took it and never posted.
    expect(await takeDueDeliveries(env.CONFIG_DB, NOW)).toHaveLength(1);

    await runAt(NOW + LEASE_MS - 1);
    expect(hook.posts).toHaveLength(0);

    await runAt(NOW + LEASE_MS);
    await runAt(NOW + LEASE_MS + 15 * MINUTE);
    expect(hook.posts).toHaveLength(1);
    expect(hook.posts[0]!.body).toBe('{"text":"x"}');
    expect(await deliveryRows()).toEqual([expect.objectContaining({ state: 'sent', attempts: 2 })]);
  });
});

describe('the signature', () => {
  it('verifies with the secret over the timestamp and the body, and fails with another', async () => {
    const before = Math.floor(Date.now() / 1000);
    await runAt(NOW);
    const [post] = hook.posts;
    const value = post!.headers.get('Geofunnel-Signature')!;
    expect(value).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    const reading = readSignatureHeader(value);
    if (!reading.ok) throw new Error(reading.detail);
    expect(reading.header.timestamp).toBeGreaterThanOrEqual(before);
    expect(await matchingSignature(SECRET, reading.header, post!.body)).not.toBeNull();
    expect(await matchingSignature('another-secret', reading.header, post!.body)).toBeNull();
    expect(await matchingSignature(SECRET, reading.header, `${post!.body} `)).toBeNull();
    expect(
      await matchingSignature(
        SECRET,
        { ...reading.header, timestamp: reading.header.timestamp + 1 },
        post!.body,
      ),
    ).toBeNull();
    expect(post!.headers.get('content-type')).toBe('application/json');
  });
});

describe('what is not posted', () => {
  it('nothing without ALERTS_HMAC_KEY, and nothing lost: it goes once the key is set', async () => {
    await runAt(NOW, SRM, CONFIG, { ...ALERTS_ENV, ALERTS_HMAC_KEY: undefined });
    expect(hook.posts).toHaveLength(0);
    // Claimed for the webhook (and the inbox), pending until the key signs it.
    expect(await deliveryRows()).toEqual([
      {
        key: 'pw-us|2|srm',
        state: 'pending',
        attempts: 0,
        next_attempt_at: NOW,
        last_status: null,
      },
    ]);
    expect(hook.coded('alerts_not_configured')).toEqual([
      expect.objectContaining({ level: 'error', reason: 'ALERTS_HMAC_KEY is not set' }),
    ]);

    await runAt(NOW + 15 * MINUTE);
    expect(hook.posts).toHaveLength(1);
  });

  it('nothing when no webhook is set, and no complaint either: the inbox alone has it', async () => {
    await runAt(NOW, SRM, configWith({ 'pw-us': priceExperiment() }, null));
    expect(hook.posts).toHaveLength(0);
    expect(hook.lines).toEqual([]);
    expect(await deliveryRows()).toEqual([
      { key: 'pw-us|2|srm', state: 'inbox', attempts: 0, next_attempt_at: NOW, last_status: null },
    ]);
    // Set later, the webhook is not sent what was raised before it.
    await runAt(NOW + 15 * MINUTE);
    expect(hook.posts).toHaveLength(0);
  });

  it.each([
    'http://hooks.example.com/services/x',
    'https://169.254.169.254/latest/meta-data',
    'https://localhost/hook',
  ])('nothing to %s in production, though KV holds it', async (webhook) => {
    await runAt(NOW, SRM, configWith({ 'pw-us': priceExperiment() }, webhook));
    expect(hook.fetchSpy()).not.toHaveBeenCalled();
    expect(await deliveryRows()).toEqual([expect.objectContaining({ state: 'inbox' })]);
    expect(hook.coded('alerts_webhook_refused')).toEqual([expect.objectContaining({ webhook })]);
  });

  it('one experiment whose results fail holds back no other', async () => {
    const config = configWith({ broken: priceExperiment(), 'pw-us': priceExperiment() });
    const reader = async (_config: unknown, id: string) => {
      if (id === 'broken') throw new Error('shard unavailable');
      return resultsAnswer({ srmAlarm: true });
    };
    await runAt(NOW, reader, config);

    expect(hook.posts.map((post) => post.headers.get('Geofunnel-Alert-Id'))).toEqual([
      'pw-us|2|srm',
    ]);
    expect(hook.coded('alerts_results_failed')).toEqual([
      expect.objectContaining({ experiment: 'broken', detail: 'Error: shard unavailable' }),
    ]);
  });

  it('drafts and ended experiments are not read at all', async () => {
    const read: string[] = [];
    const config = configWith({
      draft: priceExperiment({ status: 'draft' }),
      stopped: priceExperiment({ status: 'stopped' }),
      paused: priceExperiment({ status: 'paused' }),
    });
    await runAt(
      NOW,
      async (_config, id) => {
        read.push(id);
        return resultsAnswer();
      },
      config,
    );
    expect(read).toEqual(['paused']);
  });
});
