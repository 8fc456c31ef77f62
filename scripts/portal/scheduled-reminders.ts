import {
  CONSOLE_REMINDERS_PATH,
  REMINDER_KIND_TEXT,
  type ScheduledReminderEntry,
  type ScheduledRemindersAnswer,
} from '../../shared/console-api/reminders';
import { REMINDER_KINDS } from '../../shared/plans/renewal-reminders';
import { shortTime } from './listings';
import { type Column, formatTable } from './table';

/**
 * `npm run portal -- reminders --scheduled`: the console's Reminders section in a terminal
 * (docs/operate.md, "Scheduled reminders"), read from the worker's console API, GET
 * /console/api/reminders. Under `npm start` (ENVIRONMENT=development) the console needs no
 * sign-in (worker/access/console-access.ts), so a plain GET is answered; a deployed worker sits
 * behind Cloudflare Access, which this tool does not sign in to: its console shows the same.
 * Times in UTC, as the other listings print them.
 */

const SCHEDULED_REMINDER_COLUMNS: readonly Column<ScheduledReminderEntry>[] = [
  { header: 'ask from (UTC)', cell: (reminder) => shortTime(reminder.askAt) },
  { header: 'kind', cell: (reminder) => REMINDER_KIND_TEXT[reminder.kind] },
  { header: 'renews (UTC)', cell: (reminder) => reminder.renewsAt.slice(0, 10) },
  { header: 'subscription', cell: (reminder) => reminder.subscriptionId },
  { header: 'country', cell: (reminder) => reminder.country },
  { header: 'brand', cell: (reminder) => reminder.brand },
  { header: 'language', cell: (reminder) => reminder.language },
  { header: 'plan', cell: (reminder) => reminder.plan },
  { header: 'leased', cell: (reminder) => (reminder.leased ? 'yes' : 'no') },
];

/** The totals, then the soonest reminders' table, or that there are none. */
export function scheduledRemindersText(answer: ScheduledRemindersAnswer): string {
  const kinds = REMINDER_KINDS.map((kind) => `${REMINDER_KIND_TEXT[kind]} ${answer.byKind[kind]}`);
  const countries = answer.byCountry.map(
    ({ country, count }) => `${country ?? 'unknown'} ${count}`,
  );
  const shown = answer.reminders.length;
  return [
    `${answer.total} scheduled: ${kinds.join(', ')}`,
    ...(countries.length > 0 ? [`by country: ${countries.join(', ')}`] : []),
    '',
    shown === 0
      ? 'No reminder is scheduled.'
      : `${shown < answer.total ? `The ${shown} soonest` : 'All'}, soonest first:\n${formatTable(SCHEDULED_REMINDER_COLUMNS, answer.reminders)}`,
  ].join('\n');
}

/** What a refusal of the call means for someone at a terminal. */
function refusalText(url: string, status: number, error: unknown): string {
  if (status >= 300 && status < 400) {
    return `the worker on ${url} sends you to a sign-in (Cloudflare Access): this command reads npm start's development worker; open a deployed one's console, section Reminders`;
  }
  if (
    error === 'access_token_missing' ||
    error === 'access_token_invalid' ||
    error === 'console_not_configured'
  ) {
    return `the worker on ${url} refuses its console without Cloudflare Access (${error}): this command reads npm start's development worker; open a deployed one's console, section Reminders`;
  }
  if (status === 404) {
    return `the worker on ${url} has no ${CONSOLE_REMINDERS_PATH}: restart npm start so it runs this version`;
  }
  return `the worker on ${url} answered HTTP ${status}${typeof error === 'string' ? ` (${error})` : ''}`;
}

export type ScheduledRead =
  | { ok: true; answer: ScheduledRemindersAnswer }
  | { ok: false; error: string };

/** Asks the worker at `url` for its scheduled reminders. */
export async function readScheduledReminders(
  url: string,
  fetchImpl: typeof fetch = fetch,
): Promise<ScheduledRead> {
  let response: Response;
  try {
    response = await fetchImpl(`${url}${CONSOLE_REMINDERS_PATH}`, {
      headers: { accept: 'application/json' },
      // An Access sign-in is a redirect to a login page: said as such, not followed.
      redirect: 'manual',
    });
  } catch {
    return {
      ok: false,
      error: `nothing answers on ${url}: run npm start in another terminal first (or name the worker with --url or --port)`,
    };
  }
  const body = (await response.json().catch(() => null)) as
    | ScheduledRemindersAnswer
    | { error?: unknown }
    | null;
  if (!response.ok || body === null || !('reminders' in body)) {
    const error = body !== null && 'error' in body ? body.error : undefined;
    return { ok: false, error: refusalText(url, response.status, error) };
  }
  return { ok: true, answer: body };
}
