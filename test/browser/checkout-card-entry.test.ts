import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems } from './a11y-checks';
import { type BrowserSession, startBrowserSession } from './harness';
import { payButton, portalSubscriptions, receiptDialog } from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive, postSignUp, signupField, uniqueEmail } from './visitor-steps';

/**
 * Card entry through the development gateway's frame as a visitor meets it in Chromium, one
 * visitor from the checkout to the charge: the frame's script held until a number is typed (a
 * slow phone), then the number formatted and checked; the frame fits the column without a
 * border and moves nothing as it loads; each field is checked as typed, with one message beside
 * it; a card with a wrong field is refused before anything is sent, then paid once put right.
 * The rules themselves (Luhn, lengths, expiry, when a message shows) are
 * test/unit/payments/card-check.test.ts's; the island's refusal before Pay sends anything is
 * test/unit/plans/checkout-payment.test.tsx's.
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

async function expectNoMessages(frame: FrameLocator): Promise<void> {
  expect(await fieldMessages(frame)).toEqual({
    'card-number': null,
    'card-expiry': null,
    'card-cvc': null,
  });
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

interface Recorded {
  __shifts: number;
  /** Pay's top when the document was parsed, before the card frame was in. */
  __payTop: number | null;
  __shiftObserver: PerformanceObserver;
  /** Adds the shifts the observer holds but has not handed over yet. */
  __takeShifts: () => void;
}

/** From the first byte of each page on: every layout shift, and where Pay stood when parsed. */
function recordShifts(): void {
  const record = window as unknown as Recorded;
  record.__shifts = 0;
  record.__payTop = null;
  const add = (entries: PerformanceEntryList) => {
    for (const entry of entries as (PerformanceEntry & { value: number })[]) {
      record.__shifts += entry.value;
    }
  };
  record.__shiftObserver = new PerformanceObserver((list) => add(list.getEntries()));
  record.__shiftObserver.observe({ type: 'layout-shift', buffered: true });
  record.__takeShifts = () => add(record.__shiftObserver.takeRecords());
  document.addEventListener('DOMContentLoaded', () => {
    const pay = document.getElementById('continue-button');
    record.__payTop = pay ? pay.getBoundingClientRect().top + window.scrollY : null;
  });
}

/** The frame's fields and the page's Pay, two frames after Pay was enabled. */
async function settledFrame(page: Page) {
  await expect.poll(() => payButton(page).isEnabled(), { timeout: PATIENCE_MS }).toBe(true);
  const layout = await page.evaluate(async () => {
    // Two frames painted since Pay was enabled, and every shift in them counted.
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    const record = window as unknown as Recorded;
    record.__takeShifts();
    // Where the page was parsed, at the top: on a phone Pay's bar sticks to the window's
    // bottom once the visitor scrolls (typing in the frame scrolled it to the field).
    scrollTo(0, 0);
    const pay = document.getElementById('continue-button') as HTMLElement;
    return {
      shifts: record.__shifts,
      payTopBefore: record.__payTop,
      payTopAfter: pay.getBoundingClientRect().top + window.scrollY,
    };
  });
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
  return { ...layout, frame };
}

describe("the development gateway's card fields (like Stripe's Elements, SPEC.md §2 card form)", () => {
  // slow: a sign-up to the checkout with the frame's script held back, then the card typed, refused, corrected and paid
  it('format a number typed before their script ran, fit the column, move nothing, check each field as typed, and refuse a wrong card before Pay sends it', async () => {
    // The frame's script held until the number is in its field, as a slow phone can have it.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { context, page, problems } = await session.newVisitor({
      viewport: { width: 390, height: 844 },
    });
    await page.addInitScript(recordShifts);
    // Routing turns Chromium's cache off, so the script is asked for, however often it was before.
    await page.route(/\/assets\/test-gateway-card-frame-[\w-]+\.js/, async (route) => {
      await held;
      await route.continue();
    });
    const checkout = await postSignUp(
      context,
      session.worker.url,
      '/signup?skip_split=true',
      uniqueEmail('card-entry'),
    );
    await page.goto(checkout.href);
    await interactive(page);
    const userId = (await signupField(page, 'userId')) as string;
    const frame = cardFrame(page);
    const number = frame.getByLabel('Card number');

    // An American Express number typed before the script ran: formatted once it does.
    await number.fill('378282246310005');
    // Held indeed: nothing has formatted it yet.
    expect(await number.inputValue()).toBe('378282246310005');
    release();
    await expect
      .poll(() => number.inputValue(), { timeout: PATIENCE_MS })
      .toBe('3782 822463 10005');
    // Checked as typed: the CVV takes Amex's four digits.
    expect(await frame.getByLabel('CVV').getAttribute('maxlength')).toBe('4');

    // The frame loading moved nothing: Pay stands where the server's HTML put it.
    const { shifts, payTopBefore, payTopAfter, frame: fields } = await settledFrame(page);
    expect(payTopBefore).not.toBeNull();
    expect(payTopAfter).toBe(payTopBefore);
    expect(shifts).toBeLessThan(0.01);
    expect(fields.border).toBe('0px');
    // The card number spans the column exactly as the name on card under it does.
    expect(fields.number).toEqual(fields.name);
    expect(fields.name!.width).toBeGreaterThan(300);

    // A past expiry and a short CVV: refused before Pay sends anything.
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') requests.push(new URL(request.url()).pathname);
    });
    await number.fill('4242424242424242');
    expect(await number.inputValue()).toBe('4242 4242 4242 4242');
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

    // Put right, the messages go.
    await expiry.fill('12/34');
    await frame.getByLabel('CVV').fill('123');
    await expectNoMessages(frame);
    // Checked as typed: an American Express number takes 4 CVV digits.
    await number.fill('378282246310005');
    expect(await number.inputValue()).toBe('3782 822463 10005');
    await frame.getByLabel('CVV').fill('1234');
    expect(await frame.getByLabel('CVV').inputValue()).toBe('1234');
    await expectNoMessages(frame);
    // One digit changed: Luhn fails on a whole number, said at once, once.
    await number.fill('4242424242424241');
    expect((await fieldMessages(frame))['card-number']).toBe('Your card number is not valid.');
    // A Visa's CVV is 3 digits: the Amex one's fourth is too many.
    expect((await fieldMessages(frame))['card-cvc']).toBe('The security code is not valid.');
    expect(await timesShown(page, 'Your card number is not valid.')).toBe(1);

    // Put right again for the payment.
    await number.fill('4242424242424242');
    await frame.getByLabel('CVV').fill('123');
    await expectNoMessages(frame);
    // And Pay pays.
    await payButton(page).click();
    await receiptDialog(page).waitFor({ timeout: PATIENCE_MS });
    expect(await portalSubscriptions(session, userId)).toHaveLength(1);
    expect(problems).toEqual([]);
    await context.close();
  });
});
