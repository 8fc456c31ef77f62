// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FunnelReport } from '../../../console/funnel/FunnelReport';
import { $funnelReport } from '../../../console/funnel/stores/funnel';
import { CONSOLE_API, type ConsoleState } from '../../../shared/console-api/config';
import { CONSOLE_FUNNEL_PATH, type FunnelReportAnswer } from '../../../shared/console-api/funnel';

/**
 * The console's Funnel by campaign page (console/funnel/FunnelReport.tsx) as it draws GET
 * /console/api/funnel (shared/console-api/funnel.ts): read when the page opens, for the last 7
 * UTC days; the campaigns with what each result cost, in words a marketer reads; the days under
 * a disclosure; the CSV links for the same range; another range and route on Show; a failure.
 */

const NOW = Date.parse('2026-11-28T12:00:00Z');

const counts = { lookups: 0, checkouts: 0, upsells: 0, revenueUnconverted: [] };

function answer(overrides: Partial<FunnelReportAnswer> = {}): FunnelReportAnswer {
  return {
    from: '2026-11-22',
    to: '2026-11-28',
    route: null,
    currency: 'USD',
    ratesDate: '2026-11-02',
    days: [
      {
        day: '2026-11-27',
        route: 'tiktok',
        source: 'tiktok',
        campaign: 'bf24',
        visitors: 40,
        signups: 8,
        purchases: 2,
        revenueCents: 7998,
        ...counts,
      },
    ],
    campaigns: [
      {
        source: 'direct',
        campaign: '',
        visitors: 10,
        signups: 1,
        purchases: 0,
        revenueCents: 0,
        ...counts,
        costCents: null,
        costPerSignupCents: null,
        costPerPurchaseCents: null,
        roas: null,
      },
      {
        source: 'tiktok',
        campaign: 'bf24',
        visitors: 40,
        signups: 8,
        purchases: 2,
        revenueCents: 7998,
        ...counts,
        costCents: 5000,
        costPerSignupCents: 625,
        costPerPurchaseCents: 2500,
        roas: 1.6,
      },
    ],
    totals: {
      visitors: 50,
      signups: 9,
      purchases: 2,
      revenueCents: 7998,
      ...counts,
      costCents: 5000,
      costPerSignupCents: 556,
      costPerPurchaseCents: 2500,
      roas: 1.6,
    },
    ...overrides,
  };
}

const STATE = {
  live: { routing: { routes: [{ id: 'tiktok' }, { id: 'default' }] } },
} as unknown as ConsoleState;

/** The worker, answering each GET of the report with the next of `replies`. */
function stubWorker(...replies: (FunnelReportAnswer | 'down')[]) {
  const fetch = vi.fn(async (url: string) => {
    expect(url.startsWith(`${CONSOLE_FUNNEL_PATH}?`)).toBe(true);
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

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  $funnelReport.set({ kind: 'idle' });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('Funnel by campaign', () => {
  it('reads the last 7 days on opening and shows what each campaign’s results cost', async () => {
    const fetch = stubWorker(answer());
    render(<FunnelReport state={STATE} />);
    expect(fetch).toHaveBeenCalledWith(
      `${CONSOLE_FUNNEL_PATH}?from=2026-11-22&to=2026-11-28`,
      expect.anything(),
    );
    const table = await screen.findByRole('table', { name: 'Campaigns, every route' });
    const bf24 = within(table).getByRole('row', { name: /bf24/ });
    expect(
      within(bf24)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['tiktok', '40', '8', '2', '$79.98', '$50.00', '$6.25', '$25.00', '160 %']);
    const direct = within(table).getByRole('row', { name: /\(no campaign\)/ });
    expect(within(direct).getAllByRole('cell').at(-1)?.textContent).toBe('–');
    expect(
      screen.getByText('50 visitors, 9 sign-ups, 2 purchases, $79.98').closest('p')?.textContent,
    ).toBe('50 visitors, 9 sign-ups, 2 purchases, $79.98 for $50.00 of ads. Rates of 2026-11-02.');
    expect(screen.getByRole('link', { name: 'Download the campaigns (CSV)' })).toHaveProperty(
      'href',
      expect.stringContaining(
        `${CONSOLE_FUNNEL_PATH}?from=2026-11-22&to=2026-11-28&format=csv&table=campaigns`,
      ),
    );
    // The days wait under their disclosure, one row a day, route, source and campaign.
    expect(screen.getByText('The funnel by day').tagName).toBe('SUMMARY');
  });

  it('reads another range and one route on Show, and says when the worker cannot be reached', async () => {
    const user = userEvent.setup();
    const fetch = stubWorker(answer(), 'down');
    render(<FunnelReport state={STATE} />);
    await screen.findByRole('table', { name: 'Campaigns, every route' });
    await user.selectOptions(screen.getByLabelText('Route'), 'tiktok');
    await user.clear(screen.getByLabelText('From'));
    await user.type(screen.getByLabelText('From'), '2026-11-01');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(fetch).toHaveBeenLastCalledWith(
      `${CONSOLE_FUNNEL_PATH}?from=2026-11-01&to=2026-11-28&route=tiktok`,
      expect.anything(),
    );
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      expect.stringMatching(/reach|network|connection/i),
    );
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('imports a costs file, then reads the report again; a bad file lists its lines, nothing imported', async () => {
    const user = userEvent.setup();
    const posts: { type: string | null; body: string }[] = [];
    const uploads = [
      { status: 200, body: { ok: true, imported: 2, replaced: 1 } },
      {
        status: 400,
        body: {
          ok: false,
          error: 'invalid_ad_costs',
          errors: [
            {
              line: 3,
              field: 'currency',
              message: 'Line 3, currency: "NOK" has no reporting rate',
            },
          ],
          more: 0,
        },
      },
    ];
    let reads = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        if (init.method === 'POST') {
          expect(url).toBe(CONSOLE_API.adCosts);
          posts.push({
            type: new Headers(init.headers).get('content-type'),
            body: String(init.body),
          });
          const { status, body } = uploads.shift()!;
          return Response.json(body, { status });
        }
        expect(url.startsWith(`${CONSOLE_FUNNEL_PATH}?`)).toBe(true);
        reads += 1;
        return Response.json(answer());
      }),
    );
    render(<FunnelReport state={STATE} />);
    await screen.findByRole('table', { name: 'Campaigns, every route' });
    expect(reads).toBe(1);

    const csv = 'day,source,campaign,currency,amount\n2026-11-27,tiktok,bf24,USD,50\n';
    await user.upload(
      screen.getByLabelText('Costs file (CSV)'),
      new File([csv], 'costs.csv', { type: 'text/csv' }),
    );
    await user.click(screen.getByRole('button', { name: 'Import the costs' }));
    expect(
      await screen.findByText('Imported 2 rows, 1 of them replacing earlier ones.'),
    ).toBeTruthy();
    expect(posts).toEqual([{ type: 'text/csv', body: csv }]);
    await screen.findByRole('table', { name: 'Campaigns, every route' });
    expect(reads).toBe(2);

    await user.upload(
      screen.getByLabelText('Costs file (CSV)'),
      new File(['x'], 'bad.csv', { type: 'text/csv' }),
    );
    await user.click(screen.getByRole('button', { name: 'Import the costs' }));
    const problems = await screen.findByRole('alert');
    expect(problems.textContent).toBe(
      'Nothing was imported: the file has these problems.Line 3, currency: "NOK" has no reporting rate',
    );
    expect(reads).toBe(2);
  });
});
