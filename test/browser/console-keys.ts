import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Steps a marketer takes in the console by keyboard only, shared by its keyboard walks in
 * Chromium (console-experiments, console-traffic, console-decision, console-results): a control
 * reached by focus and pressed with a key, a select picked by typing its option's name, a page
 * opened by Enter on its link in the navigation. console-steps.ts holds the same by mouse.
 */

/** Focuses the control and presses `key` (Enter unless said), as a keyboard user presses it. */
export async function press(control: Locator, key = 'Enter'): Promise<void> {
  await control.focus();
  await control.page().keyboard.press(key);
}

/** Picks a closed select's option as a keyboard user does: focus it and type the option's name. */
export async function typeKeys(control: Locator, text: string): Promise<void> {
  await control.focus();
  await control.page().keyboard.type(text);
}

/**
 * Enters a field's text once focused, as one input, as a phone's keyboard or a paste enters it: a
 * key per letter would draw the console again for each, and the walk reads the text, not the keys.
 */
export async function enterText(control: Locator, text: string): Promise<void> {
  await control.focus();
  await control.page().keyboard.insertText(text);
}

/** Replaces what a field holds, as a keyboard user does: select all, type. */
export async function retype(control: Locator, text: string): Promise<void> {
  await control.focus();
  await control.page().keyboard.press('ControlOrMeta+A');
  await control.page().keyboard.type(text);
}

/** The id of the element with the focus ('' for none). */
export const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

/** Follows a link by Enter and waits for the page it opens, its h2 `title` with the focus. */
export async function follow(link: Locator, title: string): Promise<void> {
  await press(link);
  const heading = link.page().getByRole('heading', { level: 2, name: title, exact: true });
  await expect.poll(() => heading.evaluate((node) => node === document.activeElement)).toBe(true);
}

/** Opens an area's page by its link in the navigation (unless it is the page shown). */
export async function openByKeyboard(page: Page, title: string): Promise<void> {
  const heading = page.getByRole('heading', { level: 2, name: title, exact: true });
  if (await heading.isVisible()) return;
  const nav = page.getByRole('navigation', { name: 'Sections' });
  await follow(nav.getByRole('link', { name: title, exact: true }), title);
}

/** Focus lands in the publish note after a dialog's review: a note, Tab, Enter publishes. */
export async function publishFromNote(page: Page, note: string): Promise<void> {
  await expect.poll(() => focusedId(page)).toBe('publish-note');
  await page.keyboard.insertText(note);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.locator('#edit-status', { hasText: /^Published / }).waitFor();
}

/** Presses Tab until `control` has the focus, `most` times at most. */
export async function tabTo(page: Page, control: Locator, most = 12): Promise<void> {
  const focused = () => control.evaluate((node) => node === document.activeElement);
  for (let presses = 0; presses < most && !(await focused()); presses++) {
    await page.keyboard.press('Tab');
  }
  expect(await focused()).toBe(true);
}
