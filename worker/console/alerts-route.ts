import { Hono } from 'hono';
import {
  type AcknowledgeAlertAnswer,
  ALERTS_SHOWN,
  type AlertsAnswer,
  type InboxAlert,
} from '../../shared/console-api/alerts';
import { inboxWords } from '../alerts/alert-message';
import { acknowledgeAlert, listAlerts, type StoredAlert } from '../alerts/alert-store';
import { readJsonBody } from '../http/api-json';
import { consoleError } from '../http/console-errors';
import type { ConsoleEnv } from '../request/envs';

/** Longer than any key alertKey writes: a body past it names no alert. */
const ALERT_KEY_MAX = 300;

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

/** The key of an AcknowledgeAlertRequest, or null when the body is not one. */
function keyOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || !('key' in body)) return null;
  const { key } = body as { key: unknown };
  return typeof key === 'string' && key.length > 0 && key.length <= ALERT_KEY_MAX ? key : null;
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
    const key = keyOf(await readJsonBody(c.req.raw));
    if (key === null) return consoleError(c, 400, 'bad_request');
    const by = c.get('consoleAuthor');
    const alert = await acknowledgeAlert(c.env.CONFIG_DB, key, by, options.now());
    if (alert === null) return consoleError(c, 404, 'unknown_alert');
    return c.json({ alert: inboxAlertOf(alert) } satisfies AcknowledgeAlertAnswer);
  });
  return routes;
}
