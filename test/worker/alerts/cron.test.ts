import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import developmentWorker from '../../../worker/dev';
import { ALERTS_CRON, RETENTION_CRON } from '../../../worker/scheduled';
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
});
