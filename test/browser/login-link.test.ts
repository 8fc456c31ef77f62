import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserSignupResponse } from '../../shared/api/contract';
import { type BrowserSession, startBrowserSession } from './harness';

/**
 * The success screen's login link in the hands of a chat app: its link previewer
 * fetches the page the way previewers do (a plain request, no script run) before the person
 * taps the link, and the person must still be logged in by it. Here the page's script posts the
 * token; without JavaScript the person presses Log in on the page's form, whose markup, post and
 * session cookie the worker alone decides (test/worker/portal/deeplink-login.test.ts).
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

/** A fresh account's one-time login link, on the worker under test. */
async function freshLoginLink(): Promise<URL> {
  const origin = session.worker.url.origin;
  const response = await fetch(new URL('/api/signup', origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({
      registration_source: 'email',
      email: `link-${crypto.randomUUID()}@example.test`,
      user_uuid: crypto.randomUUID(),
      landing_type: 'one_pager',
    }),
  });
  expect(response.status).toBe(200);
  const { data } = BrowserSignupResponse.parse(await response.json());
  const link = new URL('/app/login', origin);
  link.searchParams.set('token', data.deeplink_token);
  return link;
}

/** What a link previewer does with a link: fetches the page and reads it, running nothing. */
async function previewLink(link: URL): Promise<void> {
  const preview = await fetch(link, {
    headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' },
  });
  expect(preview.status).toBe(200);
  // No session for the previewer: nothing was consumed.
  expect(preview.headers.getSetCookie().filter((line) => line.startsWith('gf_session='))).toEqual(
    [],
  );
  expect(await preview.text()).toContain('<h1>Log in to the app</h1>');
}

/** The page says so, and the session cookie signs the signed-in calls in. */
async function expectLoggedIn(page: Page): Promise<void> {
  // The POST's answer: the same path, the token no longer in the address.
  await page.waitForURL((url) => url.pathname === '/app/login' && url.search === '');
  expect(await page.locator('h1').textContent()).toBe('You are logged in');
  const cookies = await page.context().cookies(new URL('/api/', session.worker.url).href);
  expect(cookies.map((cookie) => cookie.name)).toContain('gf_session');
  // The browser's own cookie jar, as the page's next /api call would send it.
  const settings = await page
    .context()
    .request.get(new URL('/api/users/me/payments-settings', session.worker.url).href);
  expect(settings.status()).toBe(200);
}

describe('the login link survives a link previewer', () => {
  it('previewed twice, then opened in Chromium: the person is logged in without a press', async () => {
    const link = await freshLoginLink();
    await previewLink(link);
    await previewLink(link);

    const { context, page, problems } = await session.newVisitor();
    await page.goto(link.href);
    // The page's script posts the token: nobody pressed anything.
    await expectLoggedIn(page);
    expect(problems).toEqual([]);
    await context.close();
  });
});
