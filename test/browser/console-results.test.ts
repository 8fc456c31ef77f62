import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moneyText, pValueText } from '../../console/kit/result-texts';
import { CONSOLE_API, type ConsoleState } from '../../shared/console-api/config';
import { CONSOLE_RESULTS_PATH, type ResultsAnswer } from '../../shared/console-api/results';
import { isPlanId, planById } from '../../shared/plans/catalogue';
import { pickedShares } from '../../worker/experiments/assignment/assign';
import { checkSampleRatio } from '../../worker/experiments/statistics/statistics';
import { unsigned } from '../fixtures/signed-cookies';
import { runAxe, seriousViolations } from './a11y-checks';
import { tabTo } from './console-keys';
import { consoleFetch } from './console-steps';
import { type BrowserSession, startBrowserSession } from './harness';
import { buy, httpVisitor, land } from './http-visitors';
import { portalSubscriptions } from './money-path';
import { PATIENCE_MS } from './patience';
import { uniqueEmail } from './visitor-steps';

/**
 * The results page in Chromium after visitors went through the built worker: a 50/50 split of
 * two variants on the default flow, four visitors drawn, one of them signing up and buying with
 * the test card, and one known bot. The page shows exactly those visitors and that purchase, as
 * the JSON says, loaded at its own address; axe finds nothing serious, and the keyboard reaches
 * the phase picker and the CSV download.
 *
 * The visitors go by HTTP (http-visitors.ts), each request the one their browser would send:
 * what the results count is the worker's own sighting of each (the exposure ticket a landing's
 * script sends back, the sign-up it relayed, the checkout it served a signed-in visitor, the
 * charge it verified), never what a page reports. What a visitor's Chromium does on those
 * screens is the checkout's and the exposure's own files' (checkout.test.ts,
 * exposure-confirmation.test.ts); Chromium here is the marketer's.
 */

/** A desktop Chrome's agent: its visitors are people, exposed and counted. */
const DESKTOP_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** Headless Chromium's own agent, a known bot's: counted apart rather than exposed. */
const HEADLESS_CHROMIUM =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36';

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

describe('the results page in Chromium', () => {
  // slow: a publish, five visitors and a purchase, then the results asked until the event queue
  // has delivered them, and the page read
  it('shows the visitors, the purchase and the bot the worker counted', async () => {
    // Two variants on the default flow's screens, drawn 50/50: a new phase, published as the
    // console's publish sends it.
    const state = await consoleFetch<ConsoleState>(session, CONSOLE_API.state);
    const edited = structuredClone(state.live);
    const weights = { default: { weight: 50 }, lp1ch2: { weight: 50 } };
    edited.split.variants = weights;
    const published = await consoleFetch<{ ok: boolean }>(session, CONSOLE_API.publish, {
      base: state.head?.seq ?? null,
      document: edited,
      note: 'results test',
    });
    expect(published.ok).toBe(true);

    // Four people land, each drawn on their first visit, and a bot.
    const people = [0, 1, 2, 3].map((n) => httpVisitor(session, n, { userAgent: DESKTOP_CHROME }));
    for (const person of people) await land(person);
    await land(httpVisitor(session, 4, { userAgent: HEADLESS_CHROMIUM }));
    const drawn = people.map((person) => unsigned(person.cookie('gf_variant')) ?? '');
    expect(drawn.every((variant) => variant === 'default' || variant === 'lp1ch2')).toBe(true);

    // The first signs up and pays with the test card.
    const bought = await buy(people[0]!, { email: uniqueEmail('results') });
    expect(bought.told).toBe('succeeded');
    const buyer = { variant: drawn[0]!, id: bought.userId };

    // What the portal charged: the plan's first charge from its own catalogue (the intro price
    // of an intro plan, SPEC.md §3 periodPrice), answered as price_with_discount.
    const subscriptions = await portalSubscriptions(session, buyer.id);
    expect(subscriptions).toHaveLength(1);
    const planId = subscriptions[0]!.plan_id;
    if (!isPlanId(planId)) throw new Error(`the portal subscribed the buyer to ${planId}`);
    const plan = planById(planId);
    const paidMinor = plan.periodPrice;
    const exposedIn = (variant: string) => drawn.filter((v) => v === variant).length;

    // The sign-up and checkout arrive through the event queue: the JSON is asked until they have.
    const arm = (answer: ResultsAnswer, variant: string) =>
      answer.variants.find((result) => result.variant === variant);
    const count = (answer: ResultsAnswer, variant: string, metric: string) =>
      arm(answer, variant)?.metrics.find((result) => result.metric === metric)?.count;
    let answer = await consoleFetch<ResultsAnswer>(session, CONSOLE_RESULTS_PATH);
    await expect
      .poll(
        async () => {
          answer = await consoleFetch<ResultsAnswer>(session, CONSOLE_RESULTS_PATH);
          return ['signup', 'checkout', 'purchase'].map((m) => count(answer, buyer.variant, m));
        },
        { timeout: PATIENCE_MS, interval: 500 },
      )
      .toEqual([1, 1, 1]);
    for (const variant of ['default', 'lp1ch2']) {
      expect(arm(answer, variant)?.exposed).toBe(exposedIn(variant));
    }
    expect(answer.variants.reduce((sum, result) => sum + result.bots, 0)).toBe(1);
    // Revenue per exposed visitor, zeros included: the one purchase over the buyer's arm; it is
    // also the 99th percentile of one purchase, so the cap leaves it whole.
    const revenueOf = (variant: string) =>
      arm(answer, variant)?.metrics.find((m) => m.metric === 'revenue');
    const buyerRevenue = paidMinor / exposedIn(buyer.variant);
    expect(answer.mainCurrency).toBe(plan.currency);
    expect(answer.revenueCap).toBe(paidMinor);
    expect(revenueOf(buyer.variant)).toMatchObject({ count: 1, mean: buyerRevenue });
    const otherVariant = buyer.variant === 'default' ? 'lp1ch2' : 'default';
    expect(revenueOf(otherVariant)).toMatchObject({ count: 0, mean: 0 });

    // Four visitors cannot break a 50/50 split (4 to 0 is chi-square 4, p = 0.046): the check of
    // these exposures against the weights is healthy, and the page must say so.
    const shares = pickedShares(Object.entries(weights).map(([key, { weight }]) => [key, weight]));
    const expectedCheck = checkSampleRatio(
      ['default', 'lp1ch2'].map((v) => ({ exposed: exposedIn(v), weight: shares[v] ?? 0 })),
    );
    expect(expectedCheck.alarm).toBe(false);
    expect(answer.sampleRatio).toMatchObject({ alarm: false, pValue: expectedCheck.pValue });

    // The page, opened at its own address on a phone, says the same.
    const { context, page: marketer } = await session.newVisitor({
      viewport: { width: 360, height: 740 },
    });
    await marketer.goto('/console/results');
    const results = marketer.getByRole('region', { name: 'Results' });
    await results.getByRole('article').first().waitFor();
    for (const variant of ['default', 'lp1ch2']) {
      const card = results.getByRole('article', { name: new RegExp(`^${variant}`) });
      const exposed = drawn.filter((v) => v === variant).length;
      expect(await card.getByText(/visitors exposed/).textContent()).toMatch(
        new RegExp(`^${exposed} visitors exposed, 50% of new visitors`),
      );
    }
    const buyerTable = results.getByRole('table', {
      name: buyer.variant === 'default' ? 'default (control)' : 'lp1ch2 against default',
      exact: true,
    });
    const purchaseRow = buyerTable.getByRole('row', { name: /^Purchase/ });
    expect(await purchaseRow.getByRole('cell').first().textContent()).toBe('1');
    // The revenue rows: converted and revenue per visitor, in each arm's table.
    const revenueCells = async (variant: string) => {
      const table = results.getByRole('table', {
        name: variant === 'default' ? 'default (control)' : 'lp1ch2 against default',
        exact: true,
      });
      const cells = table.getByRole('row', { name: /^Revenue per visitor/ }).getByRole('cell');
      return [await cells.nth(0).textContent(), await cells.nth(1).textContent()];
    };
    expect(await revenueCells(buyer.variant)).toEqual([
      '1',
      moneyText(buyerRevenue, plan.currency),
    ]);
    expect(await revenueCells(otherVariant)).toEqual(['0', moneyText(0, plan.currency)]);
    const paid = moneyText(paidMinor, plan.currency);
    expect(await results.getByText(/^Revenue above /).textContent()).toBe(
      `Revenue above ${paid} capped: a visitor's revenue counts up to ${paid} (the 99th ` +
        'percentile of all variants), so one large order cannot decide the experiment.',
    );
    expect(await results.locator('.srm-healthy').textContent()).toBe(
      `✓ Split healthy: visitors match the weights (${pValueText(expectedCheck.pValue)}).`,
    );
    expect(await results.getByText(/The split is broken/).count()).toBe(0);
    expect(await results.getByText(/known bot not counted/).count()).toBe(1);

    // Nothing serious for assistive technology, and no sideways scrolling on the phone.
    expect(seriousViolations(await runAxe(marketer))).toEqual([]);
    expect(
      await marketer.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBe(0);

    // The keyboard reaches the phase picker, then the CSV of the phase shown.
    await marketer.getByRole('heading', { level: 2, name: 'Results' }).click();
    await tabTo(marketer, marketer.locator('#results select'), 120);
    const csvLink = marketer.getByRole('link', { name: /^Download CSV/ });
    await tabTo(marketer, csvLink, 120);
    const href = (await csvLink.getAttribute('href')) ?? '';
    expect(href).toBe(`${CONSOLE_RESULTS_PATH}?format=csv&phase=${answer.phase}`);
    const csv = await marketer.evaluate(async (url) => {
      const response = await fetch(url);
      return { type: response.headers.get('content-type'), text: await response.text() };
    }, href);
    expect(csv.type).toMatch(/^text\/csv/);
    expect(csv.text).toContain('lp1ch2');
    await context.close();
  });
});
