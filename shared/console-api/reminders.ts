import type { ReminderKind } from '../plans/renewal-reminders';

/**
 * The renewal reminders scheduled in the subscription ledger (worker/lifecycle/reminder-rows.ts):
 * which the cron will ask the product API for, when, for which subscription, country, brand and
 * language (docs/operate.md, "Scheduled reminders"). What was already asked is the product API's
 * to show (`npm run portal -- reminders` for the embedded one).
 */

/** GET: the scheduled reminders, soonest first (ScheduledRemindersAnswer). */
export const CONSOLE_REMINDERS_PATH = '/console/api/reminders';

/**
 * How many the answer lists at most: the soonest across every shard. A day of the cron asks up
 * to 77,000 (worker/lifecycle/reminders.ts), so a list of all is no page; the totals count all.
 */
export const SCHEDULED_REMINDERS_SHOWN = 200;

/** Each kind in an operator's words, as the console and the CLI show it. */
export const REMINDER_KIND_TEXT: Readonly<Record<ReminderKind, string>> = {
  trial_end: 'Trial ends',
  annual: 'Yearly',
  renewal: 'Before renewal',
};

/** One reminder to be asked for. */
export interface ScheduledReminderEntry {
  kind: ReminderKind;
  subscriptionId: string;
  /** ISO instant from which the cron asks for it (its first run after, every 15 minutes). */
  askAt: string;
  /** ISO instant of the charge it announces. */
  renewsAt: string;
  plan: string;
  /** ISO country of the purchase; null when unknown. */
  country: string | null;
  language: string | null;
  /** The theme (brand) it was bought in; null for a purchase recorded before it was kept. */
  brand: string | null;
  /** A cron run has taken it and is asking for it now (a 5-minute lease). */
  leased: boolean;
}

export interface ScheduledRemindersAnswer {
  /** When the shards were read, ISO. */
  at: string;
  /** The soonest to be asked for, at most SCHEDULED_REMINDERS_SHOWN. */
  reminders: ScheduledReminderEntry[];
  /** Every reminder scheduled in the shards that answered, listed or not. */
  total: number;
  byKind: Record<ReminderKind, number>;
  /** Most first, then by country; `country` null: none known. */
  byCountry: { country: string | null; count: number }[];
  /**
   * The ledger shards (0–15) that did not answer: their reminders are in neither the list nor
   * the totals. Empty when all answered.
   */
  unavailable: number[];
}
