import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { SECRET_SHAPES } from '../../../shared/secret-shapes';
import developmentWorker from '../../../worker/dev';
import { ALERTS_CRON, RETENTION_CRON } from '../../../worker/scheduled';
import { MALFORMED, WELL_FORMED } from '../../fixtures/secret-values';
import { ALERTS_ENV, NOW, WEBHOOK, webhookAndLogs } from './alerts-fixtures';

/**
 * The crons of wrangler.toml [triggers] reach the alerts through the worker's `scheduled`
 * (worker/scheduled.ts), which reads the live config from KV as the pages do.
 */

const hook = webhookAndLogs();

async function runCron(cron: string, bindings = ALERTS_ENV) {
  const ctx = createExecutionContext();
  await developmentWorker.scheduled(
    createScheduledController({ scheduledTime: NOW, cron }),
    bindings,
    ctx,
  );
  await waitOnExecutionContext(ctx);
}

describe('the alerts cron', () => {
  it('reads the webhook from the live config in KV: set, it needs the signing secret', async () => {
    await env.FUNNEL_CONFIG.put(
      'experiments',
      JSON.stringify({ version: 'v1', experiments: {}, alerts: { webhook: WEBHOOK } }),
    );
    await runCron(ALERTS_CRON, { ...ALERTS_ENV, ALERTS_HMAC_KEY: undefined });
    expect(hook.coded('alerts_not_configured')).toHaveLength(1);
    expect(hook.fetchSpy()).not.toHaveBeenCalled();
  });

  it('no webhook in KV, nothing to say', async () => {
    await env.FUNNEL_CONFIG.put('experiments', JSON.stringify({ version: 'v2', experiments: {} }));
    await runCron(ALERTS_CRON, { ...ALERTS_ENV, ALERTS_HMAC_KEY: undefined });
    expect(hook.coded('alerts_not_configured')).toEqual([]);
  });

  it('the retention cron runs no alerts', async () => {
    await env.FUNNEL_CONFIG.put(
      'experiments',
      JSON.stringify({ version: 'v1', experiments: {}, alerts: { webhook: WEBHOOK } }),
    );
    await runCron(RETENTION_CRON, { ...ALERTS_ENV, ALERTS_HMAC_KEY: undefined });
    expect(hook.coded('alerts_not_configured')).toEqual([]);
    expect(hook.lines).toContainEqual(expect.objectContaining({ task: 'retention' }));
  });

  it('each run names a secret not of its shape, and the shape, never the value', async () => {
    const pasted = MALFORMED.STRIPE_FINGERPRINT_KEY[0] ?? '';
    // The rest as wrangler.toml's development values leave them, which are of their shapes.
    await runCron(RETENTION_CRON, {
      ...ALERTS_ENV,
      ALERTS_HMAC_KEY: WELL_FORMED.ALERTS_HMAC_KEY,
      STRIPE_FINGERPRINT_KEY: pasted,
    });
    expect(hook.coded('secret_malformed')).toEqual([
      expect.objectContaining({
        level: 'error',
        name: 'STRIPE_FINGERPRINT_KEY',
        expected: SECRET_SHAPES.STRIPE_FINGERPRINT_KEY.description,
      }),
    ]);
    expect(JSON.stringify(hook.lines)).not.toContain(pasted);
  });
});
