import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_API, type ConsoleState } from '../../shared/console-api/config';
import { type BrowserSession, startBrowserSession } from './harness';

/**
 * Two marketers in two browsers on one shared draft, with PUBLISH_APPROVAL required (the built
 * worker under development, each browser named with `/console?as=`): the first edits a weight,
 * the second sees it after a reload and approves it, the first publishes, by mouse
 * (docs/marketers.md, "Working as a team").
 */

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession({ bindings: { PUBLISH_APPROVAL: 'required' } });
});
afterAll(() => session?.stop());

/** A browser of its own, signed in as `email`, on the console. */
async function marketer(email: string) {
  const visitor = await session.newVisitor();
  await visitor.page.goto(`/console?as=${encodeURIComponent(email)}`);
  await visitor.page.getByRole('heading', { level: 2, name: 'Edit and publish' }).waitFor();
  await visitor.page.getByText(`Signed in as ${email}`).waitFor();
  return visitor;
}

function liveState(page: Page): Promise<ConsoleState> {
  return page.evaluate(async (url) => (await fetch(url)).json(), CONSOLE_API.state);
}

describe('a team on one draft', () => {
  it('shares the draft between two browsers; the second approves, the first publishes', async () => {
    const ada = await marketer('ada@example.com');
    const bob = await marketer('bob@example.com');
    const before = await liveState(ada.page);

    await ada.page.getByLabel('Weight of default').fill('60');
    const adaDraft = ada.page.getByRole('region', { name: 'Shared draft' });
    await adaDraft.getByText('Last saved by ada@example.com').waitFor();

    // The second browser reloads and edits on the same draft.
    await bob.page.reload();
    await bob.page.getByRole('heading', { level: 2, name: 'Edit and publish' }).waitFor();
    expect(await bob.page.getByLabel('Weight of default').inputValue()).toBe('60');

    // No publish without a second person: ada sends the draft for review.
    await ada.page.getByRole('button', { name: 'Review changes' }).click();
    await ada.page.getByRole('list', { name: 'Changes that need approval' }).waitFor();
    expect(await ada.page.getByRole('button', { name: 'Publish', exact: true }).count()).toBe(0);
    await ada.page.getByLabel('Note for the reviewer (optional)').fill('default to 60');
    await ada.page.getByRole('button', { name: 'Send for review' }).click();
    await ada.page.getByText(/Waiting for someone who did not edit it to approve/).waitFor();

    await bob.page.getByRole('button', { name: 'Review changes' }).click();
    await bob.page.getByText(/asks you to approve this draft: “default to 60”/).waitFor();
    await bob.page.getByRole('button', { name: 'Approve this draft' }).click();
    await bob.page.getByText(/Approved by bob@example\.com/).waitFor();

    await ada.page.getByRole('button', { name: 'Check for an approval' }).click();
    await ada.page.getByText(/Approved by bob@example\.com/).waitFor();
    await ada.page.getByLabel('Note (optional)').fill('weight 60');
    await ada.page.getByRole('button', { name: 'Publish', exact: true }).click();
    await ada.page.locator('#edit-status', { hasText: /^Published / }).waitFor();

    const after = await liveState(ada.page);
    expect(after.head).toMatchObject({
      seq: (before.head?.seq ?? 0) + 1,
      author: 'ada@example.com',
      approver: 'bob@example.com',
      note: 'weight 60',
    });
    expect(after.live.split.variants.default?.weight).toBe(60);
    const entry = ada.page.getByRole('article', { name: new RegExp(`^${after.head?.id}`) });
    expect(await entry.getByText('bob@example.com').count()).toBe(1);
    expect([...ada.problems, ...bob.problems]).toEqual([]);
  });
});
