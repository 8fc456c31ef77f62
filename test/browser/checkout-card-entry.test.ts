import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems } from './a11y-checks';
import { type BrowserSession, startBrowserSession } from './harness';
import {
  checkoutVisitor,
  continueAfterReceipt,
  payButton,
  portalSubscriptions,
} from './money-path';
import { PATIENCE_MS } from './patience';

/**
 * Card entry through the development gateway's frame as a visitor meets it in Chromium: the
 * frame fits the column without a border and moves nothing when it loads; each field is
 * checked as typed, with one message beside it; a card with a wrong field is refused before
 * anything is sent.
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

const cardFrame = (page: Page) => page.frameLocator('iframe.card-frame');

/** The message under each field of the frame, null where none shows. */
async function fieldMessages(frame: FrameLocator) {
  const messages: Record<string, string | null> = {};
  for (const id of ['card-number', 'card-expiry', 'card-cvc']) {
    const note = frame.locator(`#${id}-error`);
    messages[id] = (await note.isVisible()) ? await note.textContent() : null;
  }
  return messages;
}

/** How many times `text` shows where a sighted visitor sees it: the page and the frame. */
async function timesShown(page: Page, text: string): Promise<number> {
  let count = 0;
  for (const frame of page.frames()) {
    count += await frame
      .getByText(text, { exact: true })
      .filter({ visible: true })
      .count()
      .catch(() => 0);
  }
  return count;
}

describe("the development gateway's card fields (like Stripe's Elements)", () => {
  it('fill the column without a border, and nothing moves when they load', async () => {
    const visitor = await session.newVisitor({ viewport: { width: 390, height: 844 } });
    const { page, context } = visitor;
    await page.goto('/signup?skip_split=true');
    const { submitEmail, uniqueEmail, interactive } = await import('./visitor-steps');
    await interactive(page);
    await submitEmail(page, uniqueEmail('frame'));
    await page.waitForURL((url) => url.pathname === '/checkout_v3_tr', { timeout: PATIENCE_MS });
    // From here on, the checkout as a reload paints it: where Pay stands before the frame is in,
    // and every layout shift.
    await page.addInitScript(() => {
      const record = window as unknown as {
        __shifts: number;
        __payTop: number | null;
        __shiftObserver: PerformanceObserver;
      };
      record.__shifts = 0;
      record.__payTop = null;
      const add = (entries: PerformanceEntryList) => {
        for (const entry of entries as (PerformanceEntry & { value: number })[]) {
          record.__shifts += entry.value;
        }
      };
      record.__shiftObserver = new PerformanceObserver((list) => add(list.getEntries()));
      record.__shiftObserver.observe({ type: 'layout-shift', buffered: true });
      // Shifts the observer holds but has not handed over yet.
      (record as unknown as { __takeShifts: () => void }).__takeShifts = () =>
        add(record.__shiftObserver.takeRecords());
      document.addEventListener('DOMContentLoaded', () => {
        const pay = document.getElementById('continue-button');
        record.__payTop = pay ? pay.getBoundingClientRect().top + window.scrollY : null;
      });
    });
    await page.reload();
    await interactive(page);
    await expect.poll(() => payButton(page).isEnabled(), { timeout: PATIENCE_MS }).toBe(true);
    const { shifts, payTopBefore, payTopAfter } = await page.evaluate(async () => {
      // Two frames painted since Pay was enabled, and every shift in them counted.
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      const record = window as unknown as {
        __shifts: number;
        __payTop: number | null;
        __takeShifts: () => void;
      };
      record.__takeShifts();
      const pay = document.getElementById('continue-button') as HTMLElement;
      return {
        shifts: record.__shifts,
        payTopBefore: record.__payTop,
        payTopAfter: pay.getBoundingClientRect().top + window.scrollY,
      };
    });
    expect(payTopBefore).not.toBeNull();
    expect(payTopAfter).toBe(payTopBefore);
    expect(shifts).toBeLessThan(0.01);

    const frame = await page.locator('iframe.card-frame').evaluate((element) => {
      const frameElement = element as HTMLIFrameElement;
      const number = frameElement.contentDocument?.getElementById('card-number');
      const name = document.querySelector('.card-form__input') as HTMLElement;
      const box = (input: Element | null | undefined, offset = 0) => {
        const r = input?.getBoundingClientRect();
        return r ? { left: Math.round(r.left + offset), width: Math.round(r.width) } : null;
      };
      const left = frameElement.getBoundingClientRect().left;
      return {
        border: getComputedStyle(element).borderTopWidth,
        number: box(number, left),
        name: box(name),
      };
    });
    expect(frame.border).toBe('0px');
    // The card number spans the column exactly as the name on card under it does.
    expect(frame.number).toEqual(frame.name);
    expect(frame.name!.width).toBeGreaterThan(300);
    await context.close();
  });
});

describe('card entry checked as typed (SPEC.md §2 card form)', () => {
  // slow: a sign-up to the checkout, then the card's fields typed, refused and corrected one by one
  it('refuses a past expiry and a short CVV before Pay, with one message each', async () => {
    const { context, page, userId, problems } = await checkoutVisitor(session, 'card-check');
    const frame = cardFrame(page);
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') requests.push(new URL(request.url()).pathname);
    });
    // Spaced as printed on the card, once the frame's script runs (on a loaded machine its
    // fields can take typing a moment before it does: typed again until then).
    await expect
      .poll(async () => {
        await frame.getByLabel('Card number').fill('4242424242424242');
        return frame.getByLabel('Card number').inputValue();
      })
      .toBe('4242 4242 4242 4242');
    await frame.getByLabel('Expiry date').fill('0120');
    expect(await frame.getByLabel('Expiry date').inputValue()).toBe('01/20');
    await frame.getByLabel('CVV').fill('12');
    // A past expiry is wrong as soon as it is whole; the CVV is still being typed.
    expect(await fieldMessages(frame)).toEqual({
      'card-number': null,
      'card-expiry': 'The expiry date is in the past.',
      'card-cvc': null,
    });
    await payButton(page).click();
    expect(await fieldMessages(frame)).toEqual({
      'card-number': null,
      'card-expiry': 'The expiry date is in the past.',
      'card-cvc': 'The security code is incomplete.',
    });
    // The field is marked and described by its message; the first wrong field has focus.
    const expiry = frame.getByLabel('Expiry date');
    expect(await expiry.getAttribute('aria-invalid')).toBe('true');
    expect(await expiry.getAttribute('aria-describedby')).toBe('card-expiry-error');
    expect(await expiry.evaluate((input) => input === document.activeElement)).toBe(true);
    // Shown once each; screen readers hear one summary.
    expect(await timesShown(page, 'The expiry date is in the past.')).toBe(1);
    expect(await timesShown(page, 'The security code is incomplete.')).toBe(1);
    expect(await page.locator('.toast__message').count()).toBe(0);
    expect(await page.locator('.payment-methods__error').textContent()).toBe('');
    expect(
      await page.locator('form.payment-form p[role=status].visually-hidden').textContent(),
    ).toBe(
      'Check your card details: The expiry date is in the past. The security code is incomplete.',
    );
    // Nothing was sent: no card to the gateway, no purchase.
    expect(requests).toEqual([]);
    expect(await portalSubscriptions(session, userId)).toEqual([]);
    expect(await accessibilityProblems(page)).toEqual([]);

    // Put right, the messages go and Pay pays.
    await expiry.fill('12/34');
    await frame.getByLabel('CVV').fill('123');
    expect(await fieldMessages(frame)).toEqual({
      'card-number': null,
      'card-expiry': null,
      'card-cvc': null,
    });
    await payButton(page).click();
    await continueAfterReceipt(page);
    await page.waitForURL((url) => url.pathname === '/upsell_an_private', { timeout: PATIENCE_MS });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("formats and checks a number typed before the card frame's script ran", async () => {
    // The frame's script held until the number is in its field, as a slow phone can have it.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slowFrame: BrowserSession = {
      ...session,
      async newVisitor(options) {
        const visitor = await session.newVisitor({ ...options, emptyCache: true });
        await visitor.page.route(/\/assets\/test-gateway-card-frame-[\w-]+\.js/, async (route) => {
          await held;
          await route.continue();
        });
        return visitor;
      },
    };
    const { context, page, problems } = await checkoutVisitor(slowFrame, 'early-typist');
    const number = cardFrame(page).getByLabel('Card number');
    await number.fill('378282246310005');
    release();
    await expect
      .poll(() => number.inputValue(), { timeout: PATIENCE_MS })
      .toBe('3782 822463 10005');
    // Checked as typed: the CVV takes Amex's four digits.
    expect(await cardFrame(page).getByLabel('CVV').getAttribute('maxlength')).toBe('4');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('asks American Express for 4 CVV digits and says a number failing Luhn once', async () => {
    const { context, page } = await checkoutVisitor(session, 'amex');
    const frame = cardFrame(page);
    await frame.getByLabel('Card number').fill('378282246310005');
    expect(await frame.getByLabel('Card number').inputValue()).toBe('3782 822463 10005');
    await frame.getByLabel('Expiry date').fill('12/34');
    await frame.getByLabel('CVV').fill('1234');
    expect(await frame.getByLabel('CVV').inputValue()).toBe('1234');
    expect(await fieldMessages(frame)).toEqual({
      'card-number': null,
      'card-expiry': null,
      'card-cvc': null,
    });
    // One digit changed: Luhn fails on a whole number, said at once, once.
    await frame.getByLabel('Card number').fill('4242424242424241');
    expect((await fieldMessages(frame))['card-number']).toBe('Your card number is not valid.');
    // A Visa's CVV is 3 digits: the Amex one's fourth is too many.
    expect((await fieldMessages(frame))['card-cvc']).toBe('The security code is not valid.');
    expect(await timesShown(page, 'Your card number is not valid.')).toBe(1);
    await context.close();
  });
});
