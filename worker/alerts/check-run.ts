import { describeError, logError } from '../../shared/log';
import type { FunnelConfig } from '../config/load';
import type { Bindings } from '../env';
import { type AlertsRun, type AlertsRunSummary, runAlerts } from './run-alerts';
import { type RampsRunSummary, runRamps } from './run-ramps';

/** What one check did: the ramps' moves (null: their run failed, logged) and the alerts. */
export interface CheckRunSummary {
  ramps: RampsRunSummary | null;
  alerts: AlertsRunSummary;
}

/**
 * The 15-minute check of the live config (worker/scheduled.ts, ALERTS_CRON; and on demand from
 * the console outside production, worker/console/guardrails-route.ts): the guarded ramps first,
 * so an alert a rollback claims is posted by this very run, then the experiments' alerts.
 */
export async function runCheck(
  env: Bindings,
  config: FunnelConfig,
  run: AlertsRun,
): Promise<CheckRunSummary> {
  const ramps = await runRamps(env, config, run).catch((error: unknown) => {
    logError('ramps_run_failed', { detail: describeError(error) });
    return null;
  });
  return { ramps, alerts: await runAlerts(env, config, run) };
}
