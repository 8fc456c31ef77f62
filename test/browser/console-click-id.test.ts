import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, startBrowserSession } from './harness';

/**
 * A marketer ties an offer to paid TikTok clicks in the console's Traffic area, by mouse: an
 * audience of TikTok ads that came with TikTok's click id, a route with its own plan, a test
 * visitor with a hand-typed `?utm_source=tiktok` (not taken) and with a TikTok click id (taken),
 * and the review before publishing, which says anyone with the link still gets the plan.
 */

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

describe('a route on paid TikTok clicks, built by mouse in Chromium', () => {
  it('takes only visitors with a TikTok click id, and the review warns of its plans', async () => {
    const { context, page, problems } = await session.newVisitor({
      viewport: { width: 1280, height: 900 },
    });
    await page.goto('/console');
    const traffic = page.getByRole('region', { name: 'Traffic' });
    await traffic.getByRole('heading', { name: 'Traffic map' }).waitFor();

    // The audience: source TikTok, and a TikTok click id.
    await traffic.getByLabel('Audience name').click();
    await page.keyboard.type('tiktok_paid');
    await traffic.getByLabel('Source to add to condition 1').selectOption('tiktok');
    await traffic.getByRole('button', { name: 'Add value to condition 1' }).click();
    await traffic.getByRole('button', { name: 'Add a condition' }).click();
    await traffic.getByLabel('Attribute of condition 2').selectOption({ label: 'Ad click id' });
    const network = traffic.getByLabel('Ad click id to add to condition 2');
    expect(await network.locator('option').allTextContents()).toEqual([
      'Meta (fbclid)',
      'TikTok (ttclid)',
      'Google (gclid, gbraid, wbraid)',
      'None (no click id in the link)',
    ]);
    await network.selectOption({ label: 'TikTok (ttclid)' });
    await traffic.getByRole('button', { name: 'Add value to condition 2' }).click();
    expect(await traffic.getByRole('list', { name: 'Values of condition 2' }).textContent()).toBe(
      'TikTok (ttclid) ×',
    );
    await traffic.getByRole('button', { name: 'Save audience' }).click();
    const saved = traffic.getByRole('list', { name: 'Saved audiences' });
    await saved.getByText('TikTok ads with a TikTok click id').waitFor();

    // The route, with the quarterly plan.
    await traffic.getByLabel('Route name').click();
    await page.keyboard.type('tiktok_paid');
    await traffic.getByLabel('Flow of the new route').selectOption('lp17ch17pr5');
    await traffic.getByRole('button', { name: 'Add route' }).click();
    const routes = traffic.getByRole('list', { name: 'Routes in the draft, in order' });
    const route = routes.getByRole('listitem').filter({ hasText: 'Route tiktok_paid' });
    await route.getByRole('button', { name: 'Choose plans of route tiktok_paid' }).click();
    await route.getByRole('checkbox', { name: /^quarterly:/ }).click();
    await route.getByText('Anyone who opens this link gets these plans.').waitFor();

    // A link tagged by hand is not a paid click; the same link with TikTok's click id is.
    await traffic.getByLabel('Ad link').click();
    await page.keyboard.type('https://funnel.example/?utm_source=tiktok');
    const test = traffic.getByRole('button', { name: 'Test visitor' });
    await test.click();
    const answer = traffic.locator('.route-test__answer');
    await answer.filter({ hasText: 'this visitor gets route default' }).waitFor();
    expect(await answer.textContent()).toContain('The link reads as: tiktok · no click id');
    await traffic.getByLabel('Ad click id', { exact: true }).selectOption('tiktok');
    await test.click();
    await answer.filter({ hasText: 'this visitor gets route tiktok_paid' }).waitFor();
    expect(await answer.textContent()).toContain('The link reads as: tiktok · click id tiktok');

    // The review, before publishing: the plan goes to whoever opens the link.
    await page.getByRole('button', { name: 'Review changes' }).click();
    const named = page.getByRole('list', { name: 'Routes whose plans anyone with the link gets' });
    await named.waitFor();
    expect(await named.getByRole('listitem').allTextContents()).toEqual([
      'Route tiktok_paid (plans quarterly): Anyone who opens this link gets these plans. Source, UTM tags, entry alias and click ids are typed into links, not verified. A link alone is enough, from anywhere: require a country in the audience too to keep the plans where you buy the ads.',
    ]);
    // It does not stop the publish.
    await page.getByRole('button', { name: 'Publish' }).waitFor();

    expect(problems).toEqual([]);
    await context.close();
  });
});
