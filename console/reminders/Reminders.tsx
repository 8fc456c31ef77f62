import { useEffect } from 'react';
import {
  REMINDER_KIND_TEXT,
  type ScheduledRemindersAnswer,
} from '../../shared/console-api/reminders';
import { FailureNotice } from '../kit/FailureNotice';
import { useStore } from '../kit/stores/atom';
import {
  askTimeText,
  captionText,
  countryTotals,
  kindTotals,
  renewalDayText,
  totalText,
  unavailableText,
} from './reminder-text';
import {
  $scheduledReminders,
  loadScheduledReminders,
  openScheduledReminders,
} from './stores/reminders';

const SECTION_ID = 'reminders';
const CAPTION_ID = 'reminders-caption';

/** Reads the reminders when their page is opened, rather than with the rest of the console. */
function useReadWhenGoneTo(): void {
  useEffect(() => {
    openScheduledReminders();
  }, []);
}

/**
 * The renewal reminders the cron will ask the product API for (docs/operate.md, "Scheduled
 * reminders"): how many of each kind and country, and the soonest, each with its subscription,
 * brand and language, read when the section is gone to or asked for. Read only: what was asked
 * already is the product API's to show.
 */
export function Reminders() {
  const scheduled = useStore($scheduledReminders);
  useReadWhenGoneTo();
  return (
    <section className="section" id={SECTION_ID} aria-labelledby="reminders-title">
      <h2 id="reminders-title">Reminders</h2>
      <p className="muted">
        The renewal reminders the cron will ask the product API to send, every 15 minutes, from the
        time each is due: before a trial or intro price ends, once a year, and before each renewal
        where the country asks for it. A reminder being asked for right now is leased to that run.
      </p>
      {/* One button to read again, also after a failure: it stays where it is, and so does the
          focus of whoever pressed it (a Try again that the answer removed would drop it). */}
      <div className="actions">
        <button type="button" className="button" onClick={() => void loadScheduledReminders()}>
          Refresh the reminders
        </button>
      </div>
      {scheduled.kind === 'loading' ? (
        <p className="muted" role="status">
          Loading the scheduled reminders…
        </p>
      ) : null}
      {scheduled.kind === 'failed' ? <FailureNotice message={scheduled.message} /> : null}
      {scheduled.kind === 'ready' ? <Scheduled answer={scheduled.answer} /> : null}
    </section>
  );
}

/** The totals above the table, a shard that did not answer, and the table or why it is empty. */
function Scheduled({ answer }: { answer: ScheduledRemindersAnswer }) {
  return (
    <>
      {answer.unavailable.length > 0 ? (
        <FailureNotice message={unavailableText(answer.unavailable)} />
      ) : null}
      <p>
        <strong>{totalText(answer)}</strong>
      </p>
      <ul aria-label="Scheduled by kind">
        {kindTotals(answer).map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
      {answer.byCountry.length > 0 ? (
        <ul aria-label="Scheduled by country">
          {countryTotals(answer).map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      ) : null}
      {answer.reminders.length === 0 ? (
        <p className="muted">
          {answer.unavailable.length > 0
            ? 'No reminder is scheduled in the shards that answered.'
            : 'No reminder is scheduled: none of the subscriptions bought so far has one to come.'}
        </p>
      ) : (
        <ReminderTable answer={answer} />
      )}
    </>
  );
}

function ReminderTable({ answer }: { answer: ScheduledRemindersAnswer }) {
  return (
    // A box that scrolls must be reachable by keyboard to scroll it (axe's
    // scrollable-region-focusable): the table has nothing focusable of its own.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls sideways on a phone.
    <section className="table-scroll" aria-labelledby={CAPTION_ID} tabIndex={0}>
      <table className="results-table">
        <caption id={CAPTION_ID}>{captionText(answer)}</caption>
        <thead>
          <tr>
            <th scope="col">Asked for from</th>
            <th scope="col">Kind</th>
            <th scope="col">Renews on</th>
            <th scope="col">Subscription</th>
            <th scope="col">Country</th>
            <th scope="col">Brand</th>
            <th scope="col">Language</th>
            <th scope="col">Plan</th>
            <th scope="col">Leased</th>
          </tr>
        </thead>
        <tbody>
          {answer.reminders.map((reminder) => (
            <tr key={`${reminder.subscriptionId}:${reminder.kind}`}>
              <td>{askTimeText(reminder.askAt)}</td>
              <td>{REMINDER_KIND_TEXT[reminder.kind]}</td>
              <td>{renewalDayText(reminder.renewsAt)}</td>
              <th scope="row">{reminder.subscriptionId}</th>
              <td>{reminder.country ?? 'unknown'}</td>
              <td>{reminder.brand ?? 'unknown'}</td>
              <td>{reminder.language ?? 'unknown'}</td>
              <td>{reminder.plan}</td>
              <td>{reminder.leased ? 'yes, being asked for' : 'no'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
