import {
  REMINDER_KIND_TEXT,
  type ScheduledRemindersAnswer,
} from '../../shared/console-api/reminders';
import { REMINDER_KINDS } from '../../shared/plans/renewal-reminders';

/**
 * What the Reminders area says of the worker's answer. Times are in the operator's own locale and
 * time zone (the browser's: `undefined` as the locale), as an operator plans around them; the
 * CLI prints UTC (scripts/portal/scheduled-reminders.ts).
 */

const askTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const renewalDay = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const count = new Intl.NumberFormat(undefined);
const list = new Intl.ListFormat('en', { type: 'conjunction' });

/** When the cron asks for a reminder: its date and time. */
export function askTimeText(iso: string): string {
  return askTime.format(new Date(iso));
}

/** The day of the charge a reminder announces. */
export function renewalDayText(iso: string): string {
  return renewalDay.format(new Date(iso));
}

/** "1,204 reminders scheduled." */
export function totalText(answer: ScheduledRemindersAnswer): string {
  return `${count.format(answer.total)} ${answer.total === 1 ? 'reminder' : 'reminders'} scheduled.`;
}

/** Each kind in words with how many are scheduled, in the kinds' order: "Trial ends: 8". */
export function kindTotals(answer: ScheduledRemindersAnswer): string[] {
  return REMINDER_KINDS.map(
    (kind) => `${REMINDER_KIND_TEXT[kind]}: ${count.format(answer.byKind[kind])}`,
  );
}

/** Each country with how many, most first: "US: 8", "unknown: 1". */
export function countryTotals(answer: ScheduledRemindersAnswer): string[] {
  return answer.byCountry.map(
    ({ country, count: n }) => `${country ?? 'unknown'}: ${count.format(n)}`,
  );
}

/** What a list of shards that did not answer leaves out. */
export function unavailableText(shards: readonly number[]): string {
  const named =
    shards.length === 1
      ? `Ledger shard ${shards[0]}`
      : `Ledger shards ${list.format(shards.map(String))}`;
  return `${named} did not answer: ${shards.length === 1 ? 'its' : 'their'} reminders are missing from the list and the totals.`;
}

/** The table's caption: all of them, or the soonest few of how many. */
export function captionText(answer: ScheduledRemindersAnswer): string {
  const shown = answer.reminders.length;
  return shown < answer.total
    ? `The ${count.format(shown)} soonest of ${count.format(answer.total)} reminders to be asked for`
    : `All ${count.format(shown)} reminders to be asked for, soonest first`;
}
