import { d1Runner } from '../config/versions';
import type { Bindings } from '../env';
import { isDevelopment } from '../environment';
import { webhookAddressProblem } from '../http/webhook-address';
import { alertMessage } from './alert-message';
import { alertKey, type DueAlert } from './alert-rules';
import { claimAlert } from './alert-store';

/**
 * Missed renewal reminders as an alert (docs/operate-alerts.md): when a run of the reminders
 * (worker/lifecycle/reminders.ts) found reminders whose charge passed unasked, one alert a UTC
 * day is claimed for the experiments' webhook, and the alerts' run posts it as it posts theirs
 * (signed, retried, once per key). Without the webhook or ALERTS_HMAC_KEY only the log says it.
 */

/** Stands where an experiment's id does in the delivery record: no experiment has this id. */
const REMINDERS_SUBJECT = 'renewal-reminders';

/** Claims the day's alert for `missed` reminders; true when it is new. */
export async function claimMissedRemindersAlert(
  env: Bindings,
  webhook: string | undefined,
  missed: number,
  now: number,
): Promise<boolean> {
  if (missed === 0 || !webhook || !env.ALERTS_HMAC_KEY) return false;
  if (webhookAddressProblem(webhook, { development: isDevelopment(env) }) !== null) return false;
  const day = new Date(now).toISOString().slice(0, 10);
  const alert: DueAlert = {
    key: alertKey(REMINDERS_SUBJECT, 0, 'reminders_missed', day),
    experiment: REMINDERS_SUBJECT,
    name: 'Renewal reminders',
    phase: 0,
    facts: { kind: 'reminders_missed', missed, day },
  };
  const body = JSON.stringify(alertMessage(alert, null));
  return claimAlert(d1Runner(env.CONFIG_DB), alert, webhook, body, now);
}
