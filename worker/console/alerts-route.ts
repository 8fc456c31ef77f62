import { Hono } from 'hono';
import {
  type AcknowledgeAlertAnswer,
  ALERTS_SHOWN,
  type AlertsAnswer,
  type InboxAlert,
} from '../../shared/console-api/alerts';
import { acknowledgeAlertRequest } from '../../shared/console-api/request-schemas';
import { inboxWords } from '../alerts/alert-message';
import { acknowledgeAlert, listAlerts, type StoredAlert } from '../alerts/alert-store';
import { readJsonBody } from '../http/api-json';
import { consoleError } from '../http/console-errors';
import type { ConsoleEnv } from '../request/envs';

const isoOf = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function inboxAlertOf(row: StoredAlert): InboxAlert {
  const { headline, text } = inboxWords(row.kind, row.body);
  return {
    key: row.key,
    kind: row.kind,
    headline,
    text,
    experiment: row.experiment,
    phase: row.phase,
    variant: row.variant,
    at: new Date(row.claimed_at).toISOString(),
    delivery: {
      state: row.state,
      attempts: row.attempts,
      sentAt: isoOf(row.sent_at),
      lastStatus: row.last_status,
      lastError: row.last_error,
    },
    acknowledged:
      row.acknowledged_at === null
        ? null
        : { by: row.acknowledged_by ?? '', at: new Date(row.acknowledged_at).toISOString() },
  };
}

/**
 * /console/api/alerts (CONSOLE_ALERTS_PATH), behind the console's Access check, its same-origin
 * and JSON guards (worker/request/console-guard.ts): GET the inbox, newest first (AlertsAnswer);
 * POST /acknowledge `{ key }` marks one acknowledged by the signed-in author, once: a second
 * acknowledgement answers the first, unchanged. 404 unknown_alert for a key never raised.
 */
export function alertsRoutes(options: { now: () => number }) {
  const routes = new Hono<ConsoleEnv>();
  routes.get('/', async (c) => {
    const { alerts, unacknowledged } = await listAlerts(c.env.CONFIG_DB, ALERTS_SHOWN);
    return c.json({ alerts: alerts.map(inboxAlertOf), unacknowledged } satisfies AlertsAnswer);
  });
  routes.post('/acknowledge', async (c) => {
    const parsed = acknowledgeAlertRequest.safeParse(await readJsonBody(c.req.raw));
    if (!parsed.success) return consoleError(c, 400, 'bad_request');
    const { key } = parsed.data;
    const by = c.get('consoleAuthor');
    const alert = await acknowledgeAlert(c.env.CONFIG_DB, key, by, options.now());
    if (alert === null) return consoleError(c, 404, 'unknown_alert');
    return c.json({ alert: inboxAlertOf(alert) } satisfies AcknowledgeAlertAnswer);
  });
  return routes;
}
