import type { ExperimentDocument } from '../../shared/config/experiments';
import type { ExperimentResultsAnswer } from '../../shared/console-api/experiment-results';
import { SPLIT_EXPERIMENT_ID } from '../../shared/experiments';
import { describeError, type LogFields, logError, logLine, logWarning } from '../../shared/log';
import type { FunnelConfig } from '../config/load';
import type { Bindings } from '../env';
import { isDevelopment } from '../environment';
import { experimentFromSplit } from '../experiments/config/migrate-split';
import { HOLDOUT_PIN } from '../experiments/holdout/holdout';
import { webhookAddressProblem } from '../http/webhook-address';
import { alertsDue, type DueAlert } from './alert-rules';
import { type Delivery, markGivenUp, markRetry, markSent, takeDueDeliveries } from './alert-store';
import { holdoutAlertsDue } from './holdout-alerts';
import { postAlert } from './post-alert';
import { recordAlerts } from './record-alerts';
import { MAX_ATTEMPTS, retryDelayMs } from './retry-schedule';

/**
 * One run of the experiments' alerts (docs/operate-alerts.md), every 15 minutes by the cron
 * (worker/scheduled.ts): each running or paused experiment's results are read, and the
 * holdout's while it runs or is analysed, the alerts they call for are claimed (once per key,
 * ever; each in the console's inbox, record-alerts.ts), then whatever is due to the webhook is
 * posted: this run's claims, and earlier ones waiting for a retry
 * or left by a run that died.
 */

/** One experiment's results in its live phase, as the console shows them; null: none to read. */
export type ResultsReader = (
  config: FunnelConfig,
  experimentId: string,
) => Promise<ExperimentResultsAnswer | null>;

export interface AlertsRun {
  /** The run's time, epoch ms: the cron's scheduled time, which the retry schedule counts in. */
  now: number;
  readResults: ResultsReader;
}

export interface AlertsRunSummary {
  claimed: number;
  sent: number;
  retrying: number;
  givenUp: number;
}

const fieldsOf = (delivery: Delivery): LogFields => ({
  key: delivery.key,
  experiment: delivery.experiment,
  phase: delivery.phase,
  kind: delivery.kind,
  variant: delivery.variant,
  attempt: delivery.attempts,
});

/**
 * The experiments whose alerts are looked for: the running and paused ones, and the split while
 * it tests something (two variants or more), which is an experiment like any other.
 */
function watchedExperiments(config: FunnelConfig): [string, ExperimentDocument][] {
  const watched = Object.entries(config.experiments.experiments).filter(
    ([, experiment]) => experiment.status === 'running' || experiment.status === 'paused',
  );
  const split = experimentFromSplit(config.split);
  return Object.keys(split.variants).length > 1
    ? [[SPLIT_EXPERIMENT_ID, split], ...watched]
    : watched;
}

/** The results `id` shows in the console, or null: none, or unreadable (logged; tried next run). */
async function readSafely(
  readResults: ResultsReader,
  config: FunnelConfig,
  id: string,
): Promise<ExperimentResultsAnswer | null> {
  try {
    return await readResults(config, id);
  } catch (error) {
    // One experiment's unreadable results hold back no other's alerts; the next run tries again.
    logError('alerts_results_failed', { experiment: id, detail: describeError(error) });
    return null;
  }
}

/** The alerts the live config calls for: each watched experiment's, then the holdout's. */
async function dueAlerts(
  config: FunnelConfig,
  readResults: ResultsReader,
  now: number,
): Promise<DueAlert[]> {
  const due: DueAlert[] = [];
  for (const [id, experiment] of watchedExperiments(config)) {
    const results = await readSafely(readResults, config, id);
    if (results !== null) due.push(...alertsDue(id, experiment, results, new Date(now)));
  }
  const { holdout } = config.experiments;
  if (holdout !== undefined && holdout.status !== 'ended') {
    const results = await readSafely(readResults, config, HOLDOUT_PIN);
    if (results !== null) due.push(...holdoutAlertsDue(holdout, results));
  }
  return due;
}

export async function runAlerts(
  env: Bindings,
  config: FunnelConfig,
  run: AlertsRun,
): Promise<AlertsRunSummary> {
  const summary: AlertsRunSummary = { claimed: 0, sent: 0, retrying: 0, givenUp: 0 };
  const webhook = config.experiments.alerts?.webhook;
  if (webhook) {
    const refused = webhookAddressProblem(webhook, { development: isDevelopment(env) });
    if (refused !== null) logError('alerts_webhook_refused', { webhook, detail: refused });
  }
  const due = await dueAlerts(config, run.readResults, run.now);
  summary.claimed = await recordAlerts(env, webhook, due, run.now);
  const secret = env.ALERTS_HMAC_KEY;
  if (!secret) {
    // The webhook's alerts wait, pending, for the key: none is posted unsigned, none is lost.
    if (webhook) logError('alerts_not_configured', { reason: 'ALERTS_HMAC_KEY is not set' });
    return summary;
  }
  const rules = { development: isDevelopment(env) };
  for (const delivery of await takeDueDeliveries(env.CONFIG_DB, run.now)) {
    const outcome = await postAlert(delivery, secret, rules);
    const fields = fieldsOf(delivery);
    if (outcome.result === 'sent') {
      await markSent(env.CONFIG_DB, delivery.key, outcome.status, Date.now());
      logLine({ event: 'alert_sent', ...fields, status: outcome.status });
      summary.sent++;
    } else if (outcome.result === 'retry' && delivery.attempts < MAX_ATTEMPTS) {
      const retryAt = run.now + retryDelayMs(delivery.attempts, outcome.retryAfterMs);
      await markRetry(env.CONFIG_DB, delivery.key, outcome, retryAt);
      logWarning('alert_failed', {
        ...fields,
        status: outcome.status,
        detail: outcome.error,
        retry_at: new Date(retryAt).toISOString(),
      });
      summary.retrying++;
    } else {
      await markGivenUp(env.CONFIG_DB, delivery.key, outcome);
      logError('alert_given_up', {
        ...fields,
        status: outcome.status,
        detail: outcome.error,
        reason: outcome.result === 'retry' ? 'attempts_exhausted' : 'rejected',
      });
      summary.givenUp++;
    }
  }
  return summary;
}
