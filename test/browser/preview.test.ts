import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, startBrowserSession } from './harness';
import { islandsHydrated } from './visitor-steps';

let session: BrowserSession;

/** Everyone is drawn `default`; lp17 is paused, so only a preview shows it. */
const SPLIT = {
  version: 'preview-walk',
  defaultVariant: 'default',
  variants: { default: { weight: 100 }, lp17: { weight: 0, flow: 'lp17ch17pr5' } },
};

beforeAll(async () => {
  session = await startBrowserSession();
  await session.worker.putConfig('split', SPLIT);
});
afterAll(() => session?.stop());

/**
 * The preview cookie is bound to the browser that opened the link: copied into another, it
 * previews nothing there (test/worker/console/preview.test.ts, "the preview cookie copied into
 * another browser").
 */
describe('a marketer’s preview link in Chromium', () => {
  it('shows the variant’s landing with the preview bar, walks on, and assigns no variant', async () => {
    // A phone's width (SPEC.md §9): the bar wraps rather than pushing the page sideways.
    const { context, page, problems } = await session.newVisitor({
      reducedMotion: 'reduce',
      viewport: { width: 350, height: 740 },
    });
    const collectorPosts: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/e') collectorPosts.push(request.url());
    });

    await page.goto('/console/preview/lp17');
    expect(new URL(page.url()).pathname).toBe('/');
    await islandsHydrated(page);
    expect(await page.locator('h1').textContent()).toBe('Locate any phone, with consent');
    const bar = page.getByRole('complementary', { name: 'Preview' });
    expect(await bar.getByRole('paragraph').textContent()).toBe(
      'Preview of variant lp17 — not counted, no ads',
    );
    expect(await bar.getByRole('link', { name: 'End preview' }).getAttribute('href')).toBe(
      '/console/preview?end=1',
    );
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBe(0);

    await page.locator('input[type="tel"]').fill('415 555 2671');
    await page.locator('#continue-button').click();
    await page.waitForURL((url) => url.pathname === '/searching_2');
    await islandsHydrated(page);
    expect(await bar.isVisible()).toBe(true);

    const cookies = await context.cookies();
    expect(cookies.map((cookie) => cookie.name)).not.toContain('gf_variant');
    expect(cookies.find((cookie) => cookie.name === 'gf_preview')).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
    });
    expect(collectorPosts).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
