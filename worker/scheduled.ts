import { logError } from '../shared/log';
import { malformedSecrets } from '../shared/secret-shapes';
import { runCheck } from './alerts/check-run';
import { claimMissedRemindersAlert } from './alerts/reminders-alert';
import { experimentResultsReader } from './alerts/results-reader';
import { runRedrive } from './collector/redrive';
import { runRetention } from './collector/retention';
import { createConfigSource } from './config/load';
import { ALERTS_CRON, RETENTION_CRON } from './crons';
import type { Bindings } from './env';
import { runReminders } from './lifecycle/reminders';
import type { PortalFetch } from './portal-client/portal-call';
import { runPurchaseSweep } from './purchases/purchase-outbox';

/**
 * The crons of wrangler.toml [triggers], for both entries (worker/index.ts, worker/dev.ts):
 * - RETENTION_CRON, hourly: EVENTS_DB rows past their retention (worker/collector/retention.ts);
 * - ALERTS_CRON, every 15 minutes: the guarded ramps' moves (worker/alerts/run-ramps.ts), the
 *   experiments' alerts (worker/alerts/run-alerts.ts), and
 *   the renewal reminders due (worker/lifecycle/reminders.ts);
 * - both: verified purchases kept in EVENTS_DB because the queue refused them are queued
 *   (worker/purchases/purchase-outbox.ts), and the dead letters an operator asked to redrive are
 *   sent back to the events queue (worker/collector/redrive.ts); each costs one indexed statement
 *   a run when there is nothing to do; and the worker's secrets are held to their shapes
 *   (logMalformedSecrets below).
 * A cron named otherwise (`wrangler dev --test-scheduled` sends its own) runs both.
 */
export { ALERTS_CRON, RETENTION_CRON } from './crons';

/** The cron reads the live config as a page does, without the pages' cache: one read a run. */
const configSource = createConfigSource();

async function alertsRun(env: Bindings, scheduledTime: number): Promise<void> {
  const config = await configSource.load(env.FUNNEL_CONFIG, 0);
  await runCheck(env, config, { now: scheduledTime, readResults: experimentResultsReader(env) });
}

/**
 * The scheduled handler; `portalFetch` is the development entry's embedded portal (worker/dev.ts),
 * which the reminders ask where no PORTAL_URL is set.
 */
/**
 * The renewal reminders due, then, when some were missed, the day's alert claimed for the
 * experiments' webhook (the alerts' next run posts it).
 */
async function remindersRun(
  env: Bindings,
  scheduledTime: number,
  portalFetch: PortalFetch | undefined,
): Promise<void> {
  const run = await runReminders(env, { now: scheduledTime, portalFetch });
  if (run.missed === 0) return;
  const config = await configSource.load(env.FUNNEL_CONFIG, 0);
  await claimMissedRemindersAlert(
    env,
    config.experiments.alerts?.webhook,
    run.missed,
    scheduledTime,
  );
}

/**
 * One `secret_malformed` error line per secret whose value is not of its shape
 * (shared/secret-shapes.ts), naming the secret and the shape, never the value. The deployed
 * worker is the one place a put secret's value can be read (Cloudflare gives none back to the
 * doctor), and a cron runs there anyway; string checks only, so every run affords it.
 */
function logMalformedSecrets(env: Bindings): void {
  for (const { name, expected } of malformedSecrets(env)) {
    logError('secret_malformed', { name, expected });
  }
}

export function scheduledHandler(
  options: { portalFetch?: PortalFetch } = {},
): ExportedHandlerScheduledHandler<Bindings> {
  return (controller, env, ctx) => {
    logMalformedSecrets(env);
    ctx.waitUntil(runPurchaseSweep(env.EVENTS_DB, env.EVENTS_QUEUE, controller.scheduledTime));
    ctx.waitUntil(runRedrive(env.EVENTS_DB, env.EVENTS_QUEUE, controller.scheduledTime));
    const known = controller.cron === RETENTION_CRON || controller.cron === ALERTS_CRON;
    if (controller.cron === RETENTION_CRON || !known)
      ctx.waitUntil(runRetention(env.EVENTS_DB, controller.scheduledTime));
    if (controller.cron === ALERTS_CRON || !known) {
      ctx.waitUntil(alertsRun(env, controller.scheduledTime));
      ctx.waitUntil(remindersRun(env, controller.scheduledTime, options.portalFetch));
    }
  };
}

/** The production entry's (worker/index.ts): reminders go to PORTAL_URL only. */
export const scheduled = scheduledHandler();
