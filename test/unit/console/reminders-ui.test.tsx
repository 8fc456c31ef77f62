// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Reminders } from '../../../console/reminders/Reminders';
import { $scheduledReminders } from '../../../console/reminders/stores/reminders';
import {
  CONSOLE_REMINDERS_PATH,
  type ScheduledRemindersAnswer,
} from '../../../shared/console-api/reminders';

/**
 * The console's Reminders area (console/reminders/Reminders.tsx) as it draws GET
 * /console/api/reminders (shared/console-api/reminders.ts), read when its page is opened, not
 * with the rest of the console: the totals, then a table with a caption and a header for every column, the
 * kind in words and the times in the operator's own locale; a shard that did not answer; none
 * scheduled; and a call that failed, tried again.
 */

const ASK = '2026-03-04T22:00:00.000Z';
const RENEWS = '2026-03-08T10:00:00.000Z';

function answer(overrides: Partial<ScheduledRemindersAnswer> = {}): ScheduledRemindersAnswer {
  return {
    at: '2026-03-02T10:00:00.000Z',
    reminders: [
      {
        kind: 'trial_end',
        subscriptionId: 'sub_trial',
        askAt: ASK,
        renewsAt: RENEWS,
        plan: 'monthly_7d_intro_usd',
        country: 'US',
        language: 'de',
        brand: 'brainbloom',
        leased: true,
      },
      {
        kind: 'renewal',
        subscriptionId: 'sub_quarterly',
        askAt: '2026-05-01T10:00:00.000Z',
        renewsAt: '2026-05-31T10:00:00.000Z',
        plan: 'quarterly_usd',
        country: null,
        language: null,
        brand: null,
        leased: false,
      },
    ],
    total: 3,
    byKind: { trial_end: 1, annual: 1, renewal: 1 },
    byCountry: [
      { country: 'US', count: 2 },
      { country: null, count: 1 },
    ],
    unavailable: [],
    ...overrides,
  };
}

/** The worker, answering each GET of the reminders with the next of `replies`. */
function stubWorker(...replies: (ScheduledRemindersAnswer | 'down')[]) {
  const fetch = vi.fn(async (url: string) => {
    expect(url).toBe(CONSOLE_REMINDERS_PATH);
    const reply = replies.shift();
    if (reply === undefined || reply === 'down') throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(reply), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** The area drawn, as its page opens (console/page/Console.tsx draws one area a page). */
function openArea() {
  render(<Reminders />);
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  $scheduledReminders.set({ kind: 'idle' });
});

describe('the Reminders area', () => {
  it('reads them when its page opens, and once only while they are kept', async () => {
    const fetch = stubWorker(answer());
    render(<Reminders />);
    expect(await screen.findByRole('table')).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(1);

    // Another page, then this one again: what was read is shown, not read again.
    cleanup();
    render(<Reminders />);
    expect(screen.getByRole('table')).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('shows the totals, then the soonest reminders in a captioned table with a header for each column', async () => {
    stubWorker(answer());
    openArea();
    const area = within(screen.getByRole('region', { name: 'Reminders' }));
    const table = await area.findByRole('table', {
      name: 'The 2 soonest of 3 reminders to be asked for',
    });

    expect(area.getByText('3 reminders scheduled.')).toBeTruthy();
    expect(
      within(area.getByRole('list', { name: 'Scheduled by kind' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Trial ends: 1', 'Yearly: 1', 'Before renewal: 1']);
    expect(
      within(area.getByRole('list', { name: 'Scheduled by country' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['US: 2', 'unknown: 1']);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual([
      'Asked for from',
      'Kind',
      'Renews on',
      'Subscription',
      'Country',
      'Brand',
      'Language',
      'Plan',
      'Leased',
    ]);
    const [, trial, quarterly] = within(table).getAllByRole('row');
    const cells = (row: HTMLElement | undefined) =>
      [...(row?.querySelectorAll('td, th') ?? [])].map((cell) => cell.textContent);
    expect(cells(trial)).toEqual([
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(
        new Date(ASK),
      ),
      'Trial ends',
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(RENEWS)),
      'sub_trial',
      'US',
      'brainbloom',
      'de',
      'monthly_7d_intro_usd',
      'yes, being asked for',
    ]);
    expect(cells(quarterly).slice(1)).toEqual([
      'Before renewal',
      expect.any(String),
      'sub_quarterly',
      'unknown',
      'unknown',
      'unknown',
      'quarterly_usd',
      'no',
    ]);
    expect(within(table).getByRole('rowheader', { name: 'sub_trial' })).toBeTruthy();
    expect(area.queryByRole('alert')).toBeNull();
  });

  it('names the ledger shards that did not answer, above what the others did', async () => {
    stubWorker(answer({ unavailable: [3, 11] }));
    openArea();

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'Ledger shards 3 and 11 did not answer: their reminders are missing from the list and the totals.',
    );
    expect(screen.getByRole('table')).toBeTruthy();
  });

  it('says when none is scheduled, with no table', async () => {
    stubWorker(
      answer({
        reminders: [],
        total: 0,
        byKind: { trial_end: 0, annual: 0, renewal: 0 },
        byCountry: [],
      }),
    );
    openArea();

    expect(
      await screen.findByText(/No reminder is scheduled: none of the subscriptions/),
    ).toBeTruthy();
    expect(screen.getByText('0 reminders scheduled.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('list', { name: 'Scheduled by country' })).toBeNull();
  });

  it('says why when the worker cannot be read, and reads it again from the keyboard, the focus kept', async () => {
    const fetch = stubWorker('down', answer());
    openArea();

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The worker could not be reached.');
    expect(screen.queryByRole('table')).toBeNull();

    const refresh = screen.getByRole('button', { name: 'Refresh the reminders' });
    refresh.focus();
    await userEvent.keyboard('{Enter}');

    expect(await screen.findByRole('table')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(document.activeElement).toBe(refresh);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('reads them again on Refresh', async () => {
    const fetch = stubWorker(answer(), answer({ total: 2, reminders: answer().reminders }));
    openArea();
    await screen.findByText('3 reminders scheduled.');

    await userEvent.click(screen.getByRole('button', { name: 'Refresh the reminders' }));

    expect(await screen.findByText('2 reminders scheduled.')).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
