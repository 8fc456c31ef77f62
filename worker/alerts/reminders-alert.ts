import type { Bindings } from '../env';
import { alertKey, type DueAlert } from './alert-rules';
import { recordAlerts } from './record-alerts';

/**
 * Missed renewal reminders as an alert (docs/operate-alerts.md): when a run of the reminders
 * (worker/lifecycle/reminders.ts) found reminders whose charge passed unasked, one alert a UTC
 * day is claimed for the console's inbox and the experiments' webhook, and the alerts' run posts
 * it as it posts theirs (signed, retried, once per key; record-alerts.ts).
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
  if (missed === 0) return false;
  const day = new Date(now).toISOString().slice(0, 10);
  const alert: DueAlert = {
    key: alertKey(REMINDERS_SUBJECT, 0, 'reminders_missed', day),
    experiment: REMINDERS_SUBJECT,
    name: 'Renewal reminders',
    phase: 0,
    facts: { kind: 'reminders_missed', missed, day },
  };
  return (await recordAlerts(env, webhook, [alert], now)) === 1;
}
