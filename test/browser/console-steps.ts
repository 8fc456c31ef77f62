import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { CONSOLE_API, type ConsoleState } from '../../shared/console-api/config';
import { CONSOLE_AREAS, type ConsoleArea, consolePath } from '../../shared/console-api/pages';
import type { BrowserSession } from './harness';
import { PATIENCE_MS } from './patience';

/**
 * Steps a marketer takes in the console by mouse only, shared by its Chromium walks
 * (console-by-mouse, console-one-truth): every control reached by a pointer click, which Chromium
 * refuses (and the walk times out on) when another element covers the control's centre; text
 * typed into the field clicked.
 */

/** A click that Chromium must deliver to `control` itself: no forcing past an overlay. */
export async function click(control: Locator): Promise<void> {
  await control.click({ timeout: 5_000 });
}

/** Clicks a field and types into it, replacing what it held. */
export async function typeInto(control: Locator, text: string): Promise<void> {
  await click(control);
  await control.fill(text);
}

/** The live config and its head, asked from the page (same origin, the marketer's session). */
export function liveState(page: Page): Promise<ConsoleState> {
  return page.evaluate(async (url) => (await fetch(url)).json(), CONSOLE_API.state);
}

/** An area of the console, by the title its page and its link in the navigation carry. */
export type ConsoleAreaTitle = (typeof CONSOLE_AREAS)[keyof typeof CONSOLE_AREAS]['title'];

/**
 * Opens an area's page as a marketer does, by its link in the navigation (unless it is the page
 * shown: not a thing's page in it, such as an experiment's), and gives its region once drawn. The
 * console is a page per area (shared/console-api/pages.ts): what another page shows is not on
 * this one.
 */
export async function openArea(page: Page, title: ConsoleAreaTitle): Promise<Locator> {
  const heading = page.getByRole('heading', { level: 2, name: title, exact: true });
  const [area] = Object.entries(CONSOLE_AREAS).find(([, each]) => each.title === title) ?? [];
  const shown =
    new URL(page.url()).pathname.replace(/\/$/, '') === consolePath(area as ConsoleArea);
  if (!shown || !(await heading.isVisible())) {
    const nav = page.getByRole('navigation', { name: 'Sections' });
    // "Alerts" carries its count of new alerts after its name.
    await click(nav.getByRole('link', { name: new RegExp(`^${title}\\b`) }));
    await pageTookFocus(page);
  }
  await heading.waitFor();
  return page.getByRole('region', { name: title, exact: true });
}

/**
 * Waits until a page just opened has the focus (its heading, or the field the console chose):
 * ready, as a screen reader says it, and nothing will scroll under the next press.
 */
export async function pageTookFocus(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.closest('.console-main') != null), {
      timeout: PATIENCE_MS,
    })
    .toBe(true);
}

/** Review changes, a note, Publish: every publish of the console ends so. */
export async function reviewAndPublish(page: Page, note: string): Promise<void> {
  // A dialog that put its change in the draft closes once the draft is saved, then checks it
  // and opens the publish page (console/kit/review-next.ts): on a busy machine both take a
  // while, and a marketer waits for them before reaching for the review.
  await page.locator('dialog[open]').waitFor({ state: 'detached' });
  await page.getByText('Checking the draft…').waitFor({ state: 'detached' });
  await openArea(page, 'Edit and publish');
  const publish = page.getByRole('button', { name: 'Publish', exact: true });
  if ((await publish.count()) === 0)
    await click(page.getByRole('button', { name: 'Review changes' }));
  await typeInto(page.getByLabel('Note (optional)').first(), note);
  await click(publish);
  await page.locator('#edit-status', { hasText: /^Published / }).waitFor();
}

/** Refusals a walk provokes on purpose (a form's check of what it refuses) are no problem. */
export const expectedRefusal = (problem: string) => /^(400|409) .*\/console\/api\//.test(problem);

/**
 * A new visitor's page `path` as the worker serves it, asked without a browser: no cookie, so
 * the worker draws the visitor afresh each time. For what a journey's published config makes
 * the server draw (which landing, which headline); what the page does once its script runs is
 * a Chromium visitor's.
 */
export async function newVisitorHtml(
  session: BrowserSession,
  path: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const response = await fetch(new URL(path, session.worker.url), { headers });
  expect(response.status, path).toBe(200);
  return response.text();
}

/** A console call from the test's process, as the console's page sends it (same origin, JSON). */
export async function consoleFetch<T>(
  session: BrowserSession,
  path: string,
  body?: unknown,
): Promise<T> {
  const origin = session.worker.url.origin;
  const response = await fetch(new URL(path, origin), {
    method: body === undefined ? 'GET' : 'POST',
    headers: { origin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}
