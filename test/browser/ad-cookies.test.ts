import type { BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, startBrowserSession } from './harness';
import { interactive } from './visitor-steps';

/**
 * The first-party ad cookies the worker keeps (SPEC.md §3 stored keys), in Chromium: what the
 * browser holds after a few pages, and which Set-Cookie headers the pages' answers carried. The
 * visitor has said yes to the ad tools (gf_consent), so the worker may write them.
 */

/** _ttp as TikTok's pixel writes it today. */
const PIXEL_TTP = '01JV8BFN75M3CKD94GVAWSG07T_.tt.1';

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(async () => {
  await session?.stop();
});

async function consentingVisitor() {
  const visitor = await session.newVisitor();
  await visitor.context.addCookies([
    { name: 'gf_consent', value: 'granted', url: session.worker.url.href },
  ]);
  return visitor;
}

/** The names of the cookies the page's own answer set. */
async function cookiesSetBy(response: Response | null): Promise<string[]> {
  const headers = (await response?.headersArray()) ?? [];
  return headers
    .filter((header) => header.name.toLowerCase() === 'set-cookie')
    .flatMap((header) => header.value.split('\n'))
    .map((cookie) => cookie.slice(0, cookie.indexOf('=')));
}

async function cookieValues(context: BrowserContext, name: string): Promise<string[]> {
  return (await context.cookies()).filter((c) => c.name === name).map((c) => c.value);
}

async function visit(page: Page, path: string): Promise<{ set: string[]; html: string }> {
  const response = await page.goto(path);
  await interactive(page);
  return { set: await cookiesSetBy(response), html: (await response?.text()) ?? '' };
}

/** Page after page, no answer sets _ttp, and each page reports the pixel's to its events. */
async function expectPixelTtpKept(context: BrowserContext, page: Page): Promise<void> {
  for (const path of ['/', '/signup', '/signup']) {
    const { set, html } = await visit(page, path);
    expect(set).not.toContain('_ttp');
    expect(html).toContain(`"ttp":"${PIXEL_TTP}"`);
  }
  expect(await cookieValues(context, '_ttp')).toEqual([PIXEL_TTP]);
}

describe("TikTok's _ttp", () => {
  it('a _ttp the pixel wrote is kept: no page sets another, and the page reports it', async () => {
    const { context, page, problems } = await consentingVisitor();
    await context.addCookies([{ name: '_ttp', value: PIXEL_TTP, url: session.worker.url.href }]);
    await expectPixelTtpKept(context, page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("the pixel writes its _ttp over the worker's: the worker leaves it be, page after page", async () => {
    const { context, page, problems } = await consentingVisitor();
    const first = await visit(page, '/signup');
    expect(first.set).toContain('_ttp');
    expect(await cookieValues(context, '_ttp')).toEqual([expect.stringMatching(/^[a-f0-9]{32}$/)]);

    // As TikTok's pixel does once it runs. (Two _ttp cookies side by side, the pixel's on the
    // registrable domain, need a host name Chromium's closed network does not give: workerd tests.)
    await page.evaluate((ttp) => {
      // biome-ignore lint/suspicious/noDocumentCookie: this is how TikTok's pixel writes it
      document.cookie = `_ttp=${ttp}; path=/; max-age=33696000; SameSite=Lax`;
    }, PIXEL_TTP);
    await expectPixelTtpKept(context, page);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the TikTok click id', () => {
  it('a visitor from a TikTok ad keeps the ttclid in _gf_ttclid on later pages without it', async () => {
    const { context, page, problems } = await consentingVisitor();
    const landing = await visit(page, '/?ttclid=E.C.P.CqgBtiktok-click_1');
    expect(landing.set).toContain('_gf_ttclid');
    for (const path of ['/signup', '/']) {
      const { set } = await visit(page, path);
      expect(set).not.toContain('_gf_ttclid');
    }
    const [kept] = (await context.cookies()).filter((c) => c.name === '_gf_ttclid');
    expect(kept).toMatchObject({ value: 'E.C.P.CqgBtiktok-click_1', httpOnly: true, path: '/' });
    // 28 days from the click.
    expect(kept?.expires).toBeGreaterThan(Date.now() / 1000 + 27.9 * 86_400);
    expect(kept?.expires).toBeLessThan(Date.now() / 1000 + 28.1 * 86_400);
    // The page's scripts (a third party's among them) are not given it.
    expect(await page.evaluate(() => document.cookie)).not.toContain('_gf_ttclid');
    expect(problems).toEqual([]);
    await context.close();
  });
});
