import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAxe } from './a11y-checks';
import { openContent } from './content-steps';
import { type BrowserSession, startBrowserSession } from './harness';

/**
 * The content editor on a screen past the landing, in Chromium against the built worker: a
 * marketer picks the checkout by a name that says what it is, reads its sections by what they
 * show and why the required ones stay, and composes a paywall of their own from it, which the
 * review draws as new.
 */

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

const CHECKOUT = 'Checkout: card first, trial note (checkout_v3_tr)';

describe('the content editor on a checkout', () => {
  it('names the screen and its sections in plain words, and composes a paywall from it', async () => {
    const { page, problems, content, phone } = await openContent(session);
    await content.getByText(/^What each screen shows, from the landing to success/).waitFor();
    const picker = content.getByLabel('Screen', { exact: true });
    await picker.selectOption({ label: CHECKOUT });
    await phone.locator('.plan-picker').first().waitFor();

    const names = await content.locator('.content-section__name').allTextContents();
    expect(names).toEqual([
      'Offer countdown',
      'Title and intro',
      'Trial or PayPal note',
      'Plan picker',
      'Payment form',
      'Guarantee',
      'Trust labels',
      'Payment provider logos',
      'Support links',
    ]);
    const hidePlans = content.getByRole('button', { name: 'Show: Plan picker' });
    expect(await hidePlans.getAttribute('aria-disabled')).toBe('true');
    const reason = await hidePlans.getAttribute('aria-describedby');
    expect(await page.locator(`#${reason}`).textContent()).toBe(
      'Required. Visitors must see the plans and prices they pay for.',
    );
    expect((await runAxe(page)).violations.map((v) => v.id)).toEqual([]);

    // New screen: a paywall from the checkout.
    const newScreen = content.getByRole('group', { name: 'New screen' });
    await newScreen.getByLabel('Slot').selectOption({ label: 'Paywall or checkout' });
    await newScreen.getByLabel('Start from').selectOption({ label: CHECKOUT });
    await newScreen.getByLabel('Name (its address)').fill('spring_paywall');
    await newScreen.getByText('Visitors will open /spring_paywall.').waitFor();
    await page.keyboard.press('Enter');
    expect(await picker.inputValue()).toBe('spring_paywall');
    await content.getByRole('button', { name: 'Move down: Offer countdown' }).click();
    await phone.locator('.plan-picker').first().waitFor();

    await page.getByRole('button', { name: 'Review changes' }).click();
    const drawn = `spring_paywall (new, from ${CHECKOUT}) in English`;
    await page.getByRole('heading', { name: drawn }).waitFor();
    await page
      .frameLocator(`iframe[title="Draft: ${drawn}"]`)
      .locator('.plan-picker')
      .first()
      .waitFor();
    expect(problems).toEqual([]);
  });
});
