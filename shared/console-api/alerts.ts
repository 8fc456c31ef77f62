/**
 * The console's alerts inbox (worker/alerts/record-alerts.ts): every alert the cron raised, for
 * an experiment, a ramp, the holdout, the renewal reminders or a break-glass publish, whether a
 * webhook took it or none was set, and who acknowledged it (docs/operate-alerts.md).
 */

/** GET: the newest alerts (AlertsAnswer). */
export const CONSOLE_ALERTS_PATH = '/console/api/alerts';

/** POST AcknowledgeAlertRequest: the alert acknowledged (AcknowledgeAlertAnswer). */
export const CONSOLE_ALERTS_ACKNOWLEDGE_PATH = `${CONSOLE_ALERTS_PATH}/acknowledge`;

/** How many the inbox lists at most, newest first; the count of unacknowledged counts all. */
export const ALERTS_SHOWN = 100;

/** Longer than any key the worker's alerts write (alertKey): a body past it names no alert. */
export const ALERT_KEY_MAX = 300;

/** What became of an alert on its way to the webhook. */
export type AlertDeliveryState =
  /** Waiting for its next attempt (or for ALERTS_HMAC_KEY). */
  | 'pending'
  | 'sent'
  | 'given_up'
  /** No webhook was set, or its address was not allowed, when it was raised: the inbox's alone. */
  | 'inbox';

export interface InboxAlert {
  key: string;
  kind: string;
  /** What happened, in a few words ("Payment declines up"). */
  headline: string;
  /** The whole message, as the webhook was (or would have been) sent it, without markup. */
  text: string;
  /** The experiment's id, or what stands for the subject (`renewal-reminders`, `publishing-config`). */
  experiment: string;
  phase: number;
  variant: string | null;
  /** ISO instant it was raised. */
  at: string;
  delivery: {
    state: AlertDeliveryState;
    attempts: number;
    /** ISO instant the webhook took it. */
    sentAt: string | null;
    /** The webhook's last HTTP status; null: no answer, or never posted. */
    lastStatus: number | null;
    lastError: string | null;
  };
  acknowledged: { by: string; at: string } | null;
}

export interface AlertsAnswer {
  alerts: InboxAlert[];
  /** Of every alert, not only those listed. */
  unacknowledged: number;
}

export interface AcknowledgeAlertRequest {
  key: string;
}

/** The alert as it now stands: acknowledged by whoever did it first. */
export interface AcknowledgeAlertAnswer {
  alert: InboxAlert;
}

/**
 * POST (no body): the 15-minute check run now, as the cron runs it (GuardrailsCheckAnswer); in
 * development and on staging only, where a guarded ramp's rollback is rehearsed (404
 * unknown_route in production, where the cron alone runs it; 429 rate_limited past a few a minute).
 */
export const CONSOLE_GUARDRAILS_CHECK_PATH = '/console/api/guardrails/check';

export interface GuardrailsCheckAnswer {
  /** The guarded ramps' moves published (a step, a hold, a rollback); null: their run failed. */
  rampMoves: number | null;
  /** Alerts raised for the first time by this check. */
  raised: number;
  /** Alerts the webhook took in this check, raised now or before. */
  sent: number;
}
