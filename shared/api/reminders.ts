import * as z from 'zod';
import { REMINDER_KINDS } from '../plans/renewal-reminders';

/**
 * The worker's call that asks the product API to send a subscriber a renewal reminder
 * (docs/product-api.md, "Renewal reminders"): before a trial turns paid, and once a year. Server
 * to server, from the worker's cron (worker/lifecycle/reminders.ts), signed as the worker's other
 * calls for a subscriber are (`Geofunnel-Signature` over the method, path and body:
 * ./subscriber-calls.ts subscriberCallText, LIFECYCLE_HMAC_KEY), with the reminder's
 * id as its `Idempotency-Key`. Declared once for its two users: the worker sends it and the
 * embedded portal answers it (portal/routes/reminders.ts).
 */

/** The lifecycle hook's header and scheme (shared/api/lifecycle.ts), the worker signing. */
export { LIFECYCLE_SIGNATURE_HEADER as REMINDER_SIGNATURE_HEADER } from './lifecycle';

/** `POST <PORTAL_URL>/subscriptions/{subscription_id}/reminders`. */
export function reminderPath(subscriptionId: string): string {
  return `/subscriptions/${encodeURIComponent(subscriptionId)}/reminders`;
}

export const ReminderRequest = z.object({
  /** `<subscription>:<kind>:<renews_at ms>`, also the Idempotency-Key: send one email per id. */
  reminder_id: z.string().min(1).max(300),
  /** `trial_end`: the trial or intro price ends; `annual`: the yearly reminder. */
  kind: z.enum(REMINDER_KINDS),
  subscription_id: z.string().min(1).max(200),
  /** The charge to come, in major units of `currency` (the plan's recurring price). */
  price: z.number().nonnegative(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  /** When it is charged, ISO 8601 UTC. */
  renews_at: z.iso.datetime(),
  /** The subscriber's page (a signed `manage` link): see the plan, cancel. Null when unknown. */
  manage_url: z.string().url().nullable(),
  /** The language the funnel spoke to the buyer (`en`, `de`, …); null: the account's. */
  language: z.string().max(10).nullable(),
  /**
   * The brand (theme: `geozilla`, `family-locator`, `brainbloom`, `findo`) the subscription was
   * bought in, which the email wears as the manage link's page does; null or absent: unknown.
   */
  brand: z.string().max(32).nullable().optional(),
  /** The buyer's country at purchase (ISO 3166-1 alpha-2), null when unknown. */
  country: z.string().max(2).nullable(),
});
export type ReminderRequest = z.infer<typeof ReminderRequest>;

/** 2xx: `asked` (a new reminder, sent) or `duplicate` (this id was asked before: nothing sent). */
export type ReminderAnswer = { asked: true } | { duplicate: true };
