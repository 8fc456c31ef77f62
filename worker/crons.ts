/**
 * The crons of wrangler.toml [triggers], by the expression worker/scheduled.ts tells them apart
 * by, each with what stops without it: also read by `npm run doctor`, which refuses an
 * environment that does not declare them.
 */

/** Hourly: EVENTS_DB rows past their retention (worker/collector/retention.ts). */
export const RETENTION_CRON = '17 * * * *';

/**
 * Every 15 minutes: the guarded ramps' moves, the experiments' alerts and the renewal reminders
 * due (worker/scheduled.ts).
 */
export const ALERTS_CRON = '*/15 * * * *';

/** Each cron, and what a deployed worker without it never does. */
export const CRONS: Readonly<Record<string, string>> = {
  [RETENTION_CRON]: 'EVENTS_DB keeps every row past its retention',
  [ALERTS_CRON]:
    'no guarded ramp moves or rolls back, no alert is sent and no renewal reminder is asked for',
};
