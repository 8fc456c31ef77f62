import { d1Runner } from '../config/versions';
import type { Bindings } from '../env';
import { isDevelopment } from '../environment';
import { webhookAddressProblem } from '../http/webhook-address';
import { alertMessage } from './alert-message';
import type { DueAlert } from './alert-rules';
import { claimAlert } from './alert-store';

/**
 * Where an alert goes, for every kind (the experiments', the ramps', the missed reminders'):
 * always the console's inbox (/console/api/alerts), so an alert is seen where no webhook is set,
 * as in development; and the experiments' webhook (`experiments.alerts.webhook`) when one is set
 * and its address allowed (worker/http/webhook-address.ts; runAlerts logs a refused one), posted
 * signed by the alerts' run, which waits for ALERTS_HMAC_KEY when it is missing, the alert pending
 * meanwhile.
 */
function alertWebhookOf(env: Bindings, setting: string | undefined): string | null {
  if (!setting) return null;
  const refused = webhookAddressProblem(setting, { development: isDevelopment(env) });
  return refused === null ? setting : null;
}

/** Claims each of `alerts`, once per key ever, for the inbox and `setting`'s webhook; how many are new. */
export async function recordAlerts(
  env: Bindings,
  setting: string | undefined,
  alerts: readonly DueAlert[],
  now: number,
): Promise<number> {
  const webhook = alertWebhookOf(env, setting);
  const consoleUrl = env.CONSOLE_URL ? env.CONSOLE_URL : null;
  let claimed = 0;
  for (const alert of alerts) {
    const body = JSON.stringify(alertMessage(alert, consoleUrl));
    if (await claimAlert(d1Runner(env.CONFIG_DB), alert, webhook, body, now)) claimed++;
  }
  return claimed;
}
