import { describe, expect, it, vi } from 'vitest';
import {
  readScheduledReminders,
  scheduledRemindersText,
} from '../../scripts/portal/scheduled-reminders';
import {
  CONSOLE_REMINDERS_PATH,
  type ScheduledRemindersAnswer,
} from '../../shared/console-api/reminders';

/**
 * `npm run portal -- reminders --scheduled` (scripts/portal/scheduled-reminders.ts): the
 * console's answer as a terminal prints it (totals, then the table in UTC), and what it says when
 * the worker is not running, sits behind Cloudflare Access, or is older than the command.
 */

const URL = 'http://localhost:8787';

function answer(overrides: Partial<ScheduledRemindersAnswer> = {}): ScheduledRemindersAnswer {
  return {
    at: '2026-03-02T10:00:00.000Z',
    reminders: [
      {
        kind: 'trial_end',
        subscriptionId: 'sub_trial',
        askAt: '2026-03-04T22:00:00.000Z',
        renewsAt: '2026-03-08T10:00:00.000Z',
        plan: 'monthly_7d_intro_usd',
        country: 'US',
        language: 'de',
        brand: 'brainbloom',
        leased: true,
      },
      {
        kind: 'annual',
        subscriptionId: 'sub_trial',
        askAt: '2027-03-01T10:00:00.000Z',
        renewsAt: '2027-03-08T10:00:00.000Z',
        plan: 'monthly_7d_intro_usd',
        country: null,
        language: null,
        brand: null,
        leased: false,
      },
    ],
    total: 5,
    byKind: { trial_end: 3, annual: 2, renewal: 0 },
    byCountry: [
      { country: 'US', count: 4 },
      { country: null, count: 1 },
    ],
    unavailable: [],
    ...overrides,
  };
}

function reply(status: number, body: unknown, headers: Record<string, string> = {}) {
  return vi.fn(async () =>
    typeof body === 'string'
      ? new Response(body, { status, headers })
      : Response.json(body, { status, headers }),
  ) as unknown as typeof fetch;
}

describe('reminders --scheduled', () => {
  it('prints the totals, then the soonest in a table, times in UTC and the kind in words', () => {
    expect(scheduledRemindersText(answer())).toBe(
      [
        '5 scheduled: Trial ends 3, Yearly 2, Before renewal 0',
        'by country: US 4, unknown 1',
        '',
        'The 2 soonest, soonest first:',
        'ask from (UTC)       kind        renews (UTC)  subscription  country  brand       language  plan                  leased',
        '-------------------  ----------  ------------  ------------  -------  ----------  --------  --------------------  ------',
        '2026-03-04 22:00:00  Trial ends  2026-03-08    sub_trial     US       brainbloom  de        monthly_7d_intro_usd  yes',
        '2027-03-01 10:00:00  Yearly      2027-03-08    sub_trial     -        -           -         monthly_7d_intro_usd  no',
      ].join('\n'),
    );
  });

  it('says so when none is scheduled', () => {
    const none = answer({
      reminders: [],
      total: 0,
      byKind: { trial_end: 0, annual: 0, renewal: 0 },
      byCountry: [],
    });
    expect(scheduledRemindersText(none)).toBe(
      '0 scheduled: Trial ends 0, Yearly 0, Before renewal 0\n\nNo reminder is scheduled.',
    );
  });

  it("reads the worker's console API with a plain GET", async () => {
    const fetch = reply(200, answer());
    expect(await readScheduledReminders(URL, fetch)).toEqual({ ok: true, answer: answer() });
    expect(fetch).toHaveBeenCalledWith(`${URL}${CONSOLE_REMINDERS_PATH}`, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
    });
  });

  it.each([
    [
      'no worker',
      (async () => {
        throw new TypeError('fetch failed');
      }) as unknown as typeof fetch,
      'nothing answers on http://localhost:8787: run npm start in another terminal first (or name the worker with --url or --port)',
    ],
    [
      'a deployed worker behind Access',
      reply(401, { ok: false, error: 'access_token_missing' }),
      "the worker on http://localhost:8787 refuses its console without Cloudflare Access (access_token_missing): this command reads npm start's development worker; open a deployed one's console, section Reminders",
    ],
    [
      "Access's sign-in page",
      reply(302, '', { location: 'https://team.cloudflareaccess.com/login' }),
      "the worker on http://localhost:8787 sends you to a sign-in (Cloudflare Access): this command reads npm start's development worker; open a deployed one's console, section Reminders",
    ],
    [
      'a worker older than the command',
      reply(404, { ok: false, error: 'bad_request' }),
      'the worker on http://localhost:8787 has no /console/api/reminders: restart npm start so it runs this version',
    ],
    [
      'a failing worker',
      reply(503, { ok: false, error: 'config_store_failed' }),
      'the worker on http://localhost:8787 answered HTTP 503 (config_store_failed)',
    ],
  ])('says what to do with %s', async (_, fetch, error) => {
    expect(await readScheduledReminders(URL, fetch)).toEqual({ ok: false, error });
  });
});
