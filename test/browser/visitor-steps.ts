import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { ISLAND_ATTR } from '../../islands/protocol';
import { PATIENCE_MS } from './patience';

/**
 * What a visitor does and sees on the sign-up and searching screens, shared by the browser tests
 * of the product API (sign-up, faults, rate limits). Each helper waits like a person would.
 */

let counter = 0;
/** An address no other visitor of this worker has used (the portal refuses a taken one). */
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${counter}@example.com`;
}

/** The page script has run and every island has hydrated. */
export async function interactive(page: Page): Promise<void> {
  await page.waitForSelector('html[data-booted="yes"]', {
    state: 'attached',
    timeout: PATIENCE_MS,
  });
}

/**
 * The page's analytics start is done (`data-analytics="started"`, islands/analytics/start.ts):
 * the tracker, and the ad pixels and heatmap where the page has them, have started or failed to
 * load, so what they would do without the visitor has been done, and the tracker has taken what
 * earlier pages handed on. Per document, and so true under Playwright's clock too: a wait on the
 * session's latest event (islands/analytics/session.ts) was not: the clock fakes
 * `performance.timeOrigin` with its own origin, so an earlier page's events could pass for this
 * one's.
 */
export async function analyticsStarted(page: Page): Promise<void> {
  await page.waitForSelector('html[data-analytics="started"]', {
    state: 'attached',
    timeout: PATIENCE_MS,
  });
}

/**
 * The islands on the page that React has not hydrated, by name: none once the page is
 * interactive. `data-booted` alone would also be set if the page script skipped a marker (a
 * missing loader), so each marker is asked whether React made it a root (React marks each root
 * it hydrates with a __reactContainer$… property).
 */
export function unhydratedIslands(page: Page): Promise<string[]> {
  return page.evaluate(
    (attribute) =>
      [...document.querySelectorAll(`[${attribute}]`)]
        .filter((island) => !Object.keys(island).some((key) => key.startsWith('__reactContainer')))
        .map((island) => island.getAttribute(attribute) ?? ''),
    ISLAND_ATTR,
  );
}

/** The page is interactive and every island marker on it has hydrated. */
export async function islandsHydrated(page: Page): Promise<void> {
  await interactive(page);
  expect(await unhydratedIslands(page)).toEqual([]);
}

/**
 * The screens of the default flow (worker/config/defaults.ts) that sign-up.test.ts's journey
 * walks in order from the landing, each checked with `backStaysPut` as flows.test.ts checks the
 * screens of its walks, which go on from there.
 */
export const JOURNEY_SCREENS = ['one_pager', 'searching', 'signup'] as const;

/**
 * Back is intercepted: the visitor stays on the current screen, its heading still there (SPEC.md
 * §2). Counted by a listener after the page's own, so the page has handled Back once it has
 * counted. `path` is the screen's path as the visitor opened it.
 */
export async function backStaysPut(page: Page, path: string): Promise<void> {
  const title = await page.locator('h1').textContent();
  expect(title, path).toBeTruthy();
  await page.evaluate(() => {
    const counted = window as unknown as { backs: number };
    counted.backs = 0;
    window.addEventListener('popstate', () => {
      counted.backs += 1;
    });
  });
  await page.goBack();
  await page.waitForFunction(() => (window as unknown as { backs: number }).backs > 0);
  expect(new URL(page.url()).pathname, `${path} after Back`).toBe(path);
  expect(await page.locator('h1').textContent()).toBe(title);
}

const horizontalOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * A searching screen done, in a 350 px phone's window: its map, no sideways scroll; then on a
 * 390 px phone Continue is on the first screen, not below the animation, the details and the
 * map, and nothing covers it (a press lands on it). The window is left as it was.
 */
export async function expectLaidOutLocated(page: Page): Promise<void> {
  const window = page.viewportSize();
  await page.setViewportSize({ width: 350, height: 740 });
  expect(
    await page.getByRole('img', { name: 'Map of the area around the located phone' }).count(),
  ).toBe(1);
  expect(await horizontalOverflow(page)).toBe(0);
  await page.setViewportSize({ width: 390, height: 844 });
  const continueButton = page.locator('#continue-button');
  const box = await continueButton.boundingBox();
  expect(box!.y + box!.height).toBeLessThanOrEqual(844);
  const pressed = await continueButton.evaluate((button) => {
    const { x, y, width, height } = button.getBoundingClientRect();
    return button.contains(document.elementFromPoint(x + width / 2, y + height / 2));
  });
  expect(pressed).toBe(true);
  if (window) await page.setViewportSize(window);
}

/**
 * Signs a visitor up as a browser without script does, for a test about what comes after the
 * sign-up: the sign-up screen's form at `path` posted from the visitor's own browser context (its
 * cookies go with it, and the session and carried account the answer sets land in them), no page
 * loaded. Resolves where the worker sends the visitor; the screen opened there takes the account
 * over (islands/signup/adopt-account.ts). The island's own sign-up is sign-up.test.ts's; the
 * form's, test/worker/signup-form.test.ts's.
 */
export async function postSignUp(
  context: BrowserContext,
  site: URL,
  path: string,
  email: string,
  headers: Record<string, string> = {},
): Promise<URL> {
  const posted = await context.request.post(path, {
    form: { email },
    headers: { ...headers, origin: site.origin },
    maxRedirects: 0,
  });
  expect(posted.status(), `${path} posted`).toBe(303);
  return new URL(posted.headers().location ?? '', site);
}

/** Types the address into the signup form and presses Continue. */
export async function submitEmail(page: Page, email: string): Promise<void> {
  await page.locator('input[type="email"]').fill(email);
  await page.locator('#continue-button').click();
}

/** The error toast's message once it shows (SPEC.md §4: it clears itself after 3 s). */
export async function toastMessage(page: Page): Promise<string> {
  const message = page.locator('.toast__message');
  await message.waitFor({ state: 'visible', timeout: PATIENCE_MS });
  return (await message.textContent()) ?? '';
}

/** What the email field's description says (its error beside it, as a screen reader reads it). */
export async function emailFieldMessage(page: Page): Promise<string> {
  return page.locator('input[type="email"]').evaluate((field) => {
    const ids = field.getAttribute('aria-describedby')?.split(' ') ?? [];
    return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
  });
}

/** A signup slice field as the page persisted it (`gf:signup:<field>`, JSON). */
export async function signupField(page: Page, field: string): Promise<unknown> {
  const raw = await page.evaluate((key) => localStorage.getItem(key), `gf:signup:${field}`);
  return raw === null ? null : JSON.parse(raw);
}

/** The Continue button works again: enabled and not busy. */
export async function expectFormUsable(page: Page): Promise<void> {
  const button = page.locator('#continue-button');
  await expect.poll(() => button.getAttribute('aria-busy')).toBeNull();
  expect(await button.isEnabled()).toBe(true);
}
