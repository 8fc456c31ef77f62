import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_API, type ConsoleState } from '../../shared/console-api/config';
import { CONSOLE_FUNNEL_PATH, type FunnelReportAnswer } from '../../shared/console-api/funnel';
import { CONSOLE_RESULTS_PATH, type ResultsAnswer } from '../../shared/console-api/results';
import { isPlanId, planById } from '../../shared/plans/catalogue';
import { USD_PER_UNIT } from '../../worker/experiments/results/reporting-currency';
import { runAxe, seriousViolations } from './a11y-checks';
import { consoleFetch } from './console-steps';
import { type BrowserSession, startBrowserSession } from './harness';
import { buy, httpVisitor, land } from './http-visitors';
import { portalSubscriptions } from './money-path';
import { PATIENCE_MS } from './patience';
import { uniqueEmail } from './visitor-steps';

/**
 * The funnel by campaign in Chromium (docs/marketers.md, "The funnel by campaign"), after visitors
 * came through the built worker from two ad links, one of them buying with the test card: the
 * report's counts for the route equal the split's results for the same day; a marketer imports
 * the day's ad costs as a CSV file on the page, which then shows each campaign's cost per
 * purchase and return on ad spend, and the campaigns' CSV says the same.
 *
 * The visitors go by HTTP (http-visitors.ts), each request the one their browser would send;
 * Chromium here is the marketer's.
 */

const DESKTOP_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

const today = () => new Date().toISOString().slice(0, 10);

describe('the funnel by campaign in Chromium', () => {
  it('matches the split’s results, and prices each campaign’s results once its costs are in', async () => {
    // Two variants drawn 50/50 on the default route: the split exposes each visitor on landing.
    const state = await consoleFetch<ConsoleState>(session, CONSOLE_API.state);
    const edited = structuredClone(state.live);
    edited.split.variants = { default: { weight: 50 }, lp1ch2: { weight: 50 } };
    const published = await consoleFetch<{ ok: boolean }>(session, CONSOLE_API.publish, {
      base: state.head?.seq ?? null,
      document: edited,
      note: 'funnel test',
    });
    expect(published.ok).toBe(true);

    const people = [0, 1, 2, 3, 4].map((n) =>
      httpVisitor(session, n, { userAgent: DESKTOP_CHROME }),
    );
    for (const [n, person] of people.entries()) {
      await land(
        person,
        n < 3 ? '/?utm_source=tiktok&utm_campaign=bf24' : '/?utm_source=google&utm_campaign=search',
      );
    }
    const bought = await buy(people[0]!, { email: uniqueEmail('funnel') });
    expect(bought.told).toBe('succeeded');
    const [subscription] = await portalSubscriptions(session, bought.userId);
    const planId = subscription?.plan_id ?? '';
    if (!isPlanId(planId)) throw new Error(`the portal subscribed the buyer to ${planId}`);
    const plan = planById(planId);
    const paidCents = Math.round(plan.periodPrice * USD_PER_UNIT[plan.currency]);

    const day = today();
    const reportPath = `${CONSOLE_FUNNEL_PATH}?from=${day}&to=${day}&route=default`;
    let report = await consoleFetch<FunnelReportAnswer>(session, reportPath);
    await expect
      .poll(
        async () => {
          report = await consoleFetch<FunnelReportAnswer>(session, reportPath);
          return [report.totals.visitors, report.totals.signups, report.totals.purchases];
        },
        { timeout: PATIENCE_MS, interval: 500 },
      )
      .toEqual([5, 1, 1]);
    // The split draws every visitor of the default route on the landing: its results count the
    // same people and steps (the split's phase began today), as the marketer reads both pages.
    const results = await consoleFetch<ResultsAnswer>(session, CONSOLE_RESULTS_PATH);
    const total = (metric: string) =>
      results.variants.reduce(
        (sum, arm) => sum + (arm.metrics.find((m) => m.metric === metric)?.count ?? 0),
        0,
      );
    expect(results.variants.reduce((sum, arm) => sum + arm.exposed, 0)).toBe(
      report.totals.visitors,
    );
    expect([total('lookup'), total('signup'), total('checkout'), total('purchase')]).toEqual([
      report.totals.lookups,
      report.totals.signups,
      report.totals.checkouts,
      report.totals.purchases,
    ]);

    // The marketer opens the page, at a desktop's width, and imports the day's costs.
    const { context, page } = await session.newVisitor({ viewport: { width: 1280, height: 900 } });
    await page.goto('/console/funnel');
    const campaigns = page.getByRole('table', { name: 'Campaigns, every route' });
    await campaigns.waitFor();
    const row = (campaign: string) => campaigns.getByRole('row', { name: new RegExp(campaign) });
    expect(await row('bf24').getByRole('cell').allTextContents()).toEqual([
      'tiktok',
      '3',
      '1',
      '1',
      money(paidCents),
      '–',
      '–',
      '–',
      '–',
    ]);

    const csv = `day,source,campaign,currency,amount\n${day},tiktok,bf24,EUR,25.00\n${day},google,search,USD,12\n`;
    await page.getByLabel('Costs file (CSV)').setInputFiles({
      name: 'costs.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await page.getByRole('button', { name: 'Import the costs' }).click();
    await page.getByText('Imported 2 rows.').waitFor();
    const bf24Cost = Math.round(2500 * USD_PER_UNIT.EUR);
    const roas = `${Math.round((paidCents / bf24Cost) * 100)} %`;
    await expect
      .poll(() => row('bf24').getByRole('cell').allTextContents(), { timeout: PATIENCE_MS })
      .toEqual([
        'tiktok',
        '3',
        '1',
        '1',
        money(paidCents),
        money(bf24Cost),
        money(bf24Cost),
        money(bf24Cost),
        roas,
      ]);
    expect(await row('search').getByRole('cell').allTextContents()).toEqual([
      'google',
      '2',
      '0',
      '0',
      '$0.00',
      '$12.00',
      '–',
      '–',
      '0 %',
    ]);
    expect(seriousViolations(await runAxe(page))).toEqual([]);

    // The campaigns' CSV, as its link downloads it, says the same.
    const href = await page
      .getByRole('link', { name: 'Download the campaigns (CSV)' })
      .getAttribute('href');
    const download = await page.request.get(href ?? '');
    expect(download.headers()['content-type']).toBe('text/csv; charset=utf-8');
    const lines = (await download.text()).trim().split('\r\n');
    const priced = await consoleFetch<FunnelReportAnswer>(
      session,
      `${CONSOLE_FUNNEL_PATH}?from=${day}&to=${day}`,
    );
    const bf24 = priced.campaigns.find((campaign) => campaign.campaign === 'bf24');
    expect(bf24).toMatchObject({
      visitors: 3,
      purchases: 1,
      revenueCents: paidCents,
      costCents: bf24Cost,
      costPerPurchaseCents: bf24Cost,
    });
    const dollars = (cents: number) => (cents / 100).toFixed(2);
    expect(lines).toContain(
      [
        'tiktok',
        'bf24',
        bf24?.visitors,
        bf24?.lookups,
        bf24?.signups,
        bf24?.checkouts,
        bf24?.purchases,
        bf24?.upsells,
        dollars(paidCents),
        dollars(bf24Cost),
        dollars(bf24Cost),
        dollars(bf24Cost),
        Math.round((paidCents / bf24Cost) * 100) / 100,
      ].join(','),
    );

    // On a phone the tables scroll sideways inside the page, which itself stays the phone's width.
    await page.setViewportSize({ width: 390, height: 844 });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await context.close();
  });
});

/** US cents as the page writes them. */
function money(cents: number): string {
  return (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
}
