import jsQR from 'jsqr';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_FIELDS_DEADLINE_MS } from '../../islands/payments/card-fields-deadline';
import { switchFaultOn } from '../../portal/faults';
import { type BrowserSession, startBrowserSession } from './harness';
import {
  checkoutVisitor,
  continueAfterReceipt,
  payButton,
  payOnTheOtherProvidersForm,
  payThroughChallenge,
  portalSubscriptions,
  THREE_D_SECURE_CARD,
  typeTestCard,
} from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive, signupField, submitEmail, uniqueEmail } from './visitor-steps';

/**
 * The money path as a visitor walks it in Chromium: the built worker, the embedded
 * portal on D1 and its test gateway (payment settings 'test'), cards typed into the gateway's
 * iframe. What the portal stored is read from its database.
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

const active = async (userId: string) =>
  (await portalSubscriptions(session, userId)).filter((row) => row.status === 'active');

/** The labels of the actions 'Payment declined' offers, in order. */
const declinedActions = (page: Page) =>
  page.locator('.screen.declined button[type="submit"]').allTextContents();

/**
 * The success screen's QR image. Exactly its name: the empty slot shown while a code is drawn
 * is an image too, named 'QR code that opens the app, logged in: …'.
 */
const qrImage = (page: Page) =>
  page.getByRole('img', { name: 'QR code that opens the app, logged in', exact: true });

/**
 * The success screen's QR image, decoded from its pixels in the page, once its source is
 * `source` (by default any).
 */
async function decodedQr(page: Page, source = /./): Promise<string | null> {
  const image = qrImage(page);
  await expect
    .poll(() => image.getAttribute('src', { timeout: PATIENCE_MS }), { timeout: PATIENCE_MS })
    .toMatch(source);
  const pixels = await image.evaluate(async (element) => {
    const img = element as HTMLImageElement;
    await img.decode();
    const size = 400;
    const canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#fff';
    context.fillRect(0, 0, size, size);
    context.drawImage(img, 20, 20, size - 40, size - 40);
    // The RGBA bytes as base64: the same 640,000 numbers as an array took Playwright 12 s to
    // carry out of the page, as one string they take milliseconds.
    const bytes = context.getImageData(0, 0, size, size).data;
    let binary = '';
    for (let at = 0; at < bytes.length; at += 0x8000) {
      binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
    }
    return { base64: btoa(binary), size };
  });
  const rgba = new Uint8ClampedArray(Buffer.from(pixels.base64, 'base64'));
  return jsQR(rgba, pixels.size, pixels.size)?.data ?? null;
}

/**
 * A visitor signed up with the product API's deeplink answer changed on its way to the page as
 * `change` says (the worker's reading of real answers is tested in workerd), on the success
 * screen: the QR code there must still open the deeplink.
 */
async function successWithDeeplinkAnswer(change: (data: Record<string, unknown>) => void) {
  const visitor = await session.newVisitor();
  const { page } = visitor;
  await page.route('**/api/users/me/deeplink-qr-code', async (route) => {
    // A kept-alive socket the worker closed in the meantime resets; the GET is safe to repeat.
    const response = await route.fetch({ maxRetries: 2 });
    const body = (await response.json()) as { data: Record<string, unknown> };
    change(body.data);
    await route.fulfill({ response, json: body });
  });
  await page.goto('/signup?skip_split=true');
  await interactive(page);
  await submitEmail(page, uniqueEmail('qr'));
  await page.waitForURL((url) => url.pathname === '/checkout_v3_tr', { timeout: PATIENCE_MS });
  await page.goto('/success?skip_split=true');
  await interactive(page);
  return visitor;
}

describe("the success screen's QR code when the product API's will not do (SPEC.md §9)", () => {
  it('no image in the answer: the page draws one, 256 px, that opens the deeplink', async () => {
    const { context, page, problems } = await successWithDeeplinkAnswer((data) => {
      data.qr_code = null;
    });
    const deeplink = (await signupField(page, 'deeplinkUrl')) as string;
    expect(deeplink).toMatch(/^https?:\/\//);
    expect(await decodedQr(page)).toBe(deeplink);
    expect(await qrImage(page).boundingBox()).toMatchObject({ width: 256, height: 256 });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("an image on another host, which the page's policy refuses: drawn here instead", async () => {
    const { context, page } = await successWithDeeplinkAnswer((data) => {
      data.qr_code = 'https://qr.product-api.example/codes/abc.png';
    });
    const deeplink = (await signupField(page, 'deeplinkUrl')) as string;
    // The refused image shows first, then its error swaps in the code drawn here.
    expect(await decodedQr(page, /^data:image\/svg\+xml;base64,/)).toBe(deeplink);
    await context.close();
  });
});

describe('paying at the checkout through the test gateway (SPEC.md §4 Payment)', () => {
  // slow: a whole purchase in Chromium: sign-up, the checkout, the upsell and success
  it('4242 pays, the upsell is skipped, and success shows a QR code that opens the deeplink', async () => {
    const { context, page, problems, userId } = await checkoutVisitor(session);
    await typeTestCard(page, '4242 4242 4242 4242');
    await page.getByLabel('Name on card (optional)').fill('Ada Lovelace');
    await payButton(page).click();
    await continueAfterReceipt(page);
    await page.waitForURL((url) => url.pathname === '/upsell_an_private', { timeout: PATIENCE_MS });
    expect(await active(userId)).toEqual([{ plan_id: 'monthly_7d_intro_usd', status: 'active' }]);
    const checkoutId = await page.evaluate(() => localStorage.getItem('gf:checkout:id'));
    expect(JSON.parse(checkoutId!)).toMatch(/^sub_/);

    await interactive(page);
    await page.getByRole('button', { name: 'No, thanks' }).click();
    await page.waitForURL((url) => url.pathname === '/success');
    await interactive(page);
    expect(await page.locator('h1').textContent()).toBe('Your plan awaits');
    const deeplink = (await signupField(page, 'deeplinkUrl')) as string;
    expect(deeplink).toMatch(/^https?:\/\//);
    expect(await decodedQr(page)).toBe(deeplink);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the upsell charges the card on file in one click, once however many presses', async () => {
    const { context, page, userId } = await checkoutVisitor(session);
    await typeTestCard(page, '4242424242424242');
    await payButton(page).click();
    await continueAfterReceipt(page);
    await page.waitForURL((url) => url.pathname === '/upsell_an_private', { timeout: PATIENCE_MS });
    await interactive(page);
    const buy = page.getByRole('button', { name: 'Add to my plan' });
    // Three presses within one task, before the page could even re-render the busy button. The
    // busy state may last less than a poll takes (the portal answers at once), so the page
    // itself notes the button's state the moment it turns busy, where the next page can read it.
    await buy.evaluate((button: HTMLButtonElement) => {
      new MutationObserver(() => {
        if (button.getAttribute('aria-busy') !== 'true' || sessionStorage.getItem('busy-seen'))
          return;
        const state = [
          button.getAttribute('aria-busy'),
          button.getAttribute('aria-disabled'),
          button.disabled,
        ];
        sessionStorage.setItem('busy-seen', JSON.stringify(state));
      }).observe(button, { attributes: true });
      button.click();
      button.click();
      button.click();
    });
    await page.waitForURL((url) => url.pathname === '/success', { timeout: PATIENCE_MS });
    // Busy: announced, and held without leaving the tab order (aria-disabled, not disabled).
    const seen = await page.evaluate(() => sessionStorage.getItem('busy-seen'));
    expect(JSON.parse(seen ?? 'null')).toEqual(['true', 'true', false]);
    expect((await active(userId)).map((row) => row.plan_id)).toEqual([
      'monthly_7d_intro_usd',
      'upsell_monthly_999_usd',
    ]);
    await context.close();
  });

  // slow: two charges in Chromium after sign-up: the declined card, then 4242
  it('…0002 is declined: "Payment declined", Try again, then 4242 pays once', async () => {
    const { context, page, userId } = await checkoutVisitor(session);
    await typeTestCard(page, '4000 0000 0000 0002');
    await payButton(page).click();
    await page.waitForURL((url) => url.pathname === '/payment_declined', { timeout: PATIENCE_MS });
    await interactive(page);
    expect(await page.locator('h1').textContent()).toBe('Payment declined');
    // generic_decline: Stripe's advice is the bank's to give (do not honour).
    expect(await page.locator('.declined__hint').allTextContents()).toEqual([
      'Your bank gave no reason. Contact it, or use another card.',
    ]);
    // Do not honour may pass on the other provider: the worker offers its form first, once.
    expect(await declinedActions(page)).toEqual([
      'Pay with another payment form',
      'Use another card',
      'Try again',
    ]);
    expect(await active(userId)).toEqual([]);

    await page.getByRole('button', { name: 'Try again' }).click();
    await page.waitForURL((url) => url.pathname === '/checkout_v3_tr');
    expect(new URL(page.url()).search).toBe('?skip_split=true');
    await interactive(page);
    await typeTestCard(page, '4242 4242 4242 4242');
    await payButton(page).click();
    await continueAfterReceipt(page);
    await page.waitForURL((url) => url.pathname === '/upsell_an_private', { timeout: PATIENCE_MS });
    expect(await active(userId)).toHaveLength(1);
    await context.close();
  });

  // slow: sign-up and a checkout in Chromium, a declined charge, the declined page, then the
  // other provider's form loaded and typed into for the second charge
  it("…0002 is declined (do not honour), then paid with the other provider's form from the declined page", async () => {
    const { context, page, userId } = await checkoutVisitor(session);
    const charges: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (request.method() === 'POST' && pathname.startsWith('/api/users/me/subscriptions/')) {
        charges.push(pathname.includes('/polling/') ? 'card provider' : 'alternate provider');
      }
    });
    await typeTestCard(page, '4000 0000 0000 0002');
    await payButton(page).click();
    await page.waitForURL((url) => url.pathname === '/payment_declined', { timeout: PATIENCE_MS });
    await interactive(page);
    await page.getByRole('button', { name: 'Pay with another payment form' }).click();
    await payOnTheOtherProvidersForm(page);
    expect(charges).toEqual(['card provider', 'alternate provider']);
    expect(await active(userId)).toHaveLength(1);
    await context.close();
  });

  // slow: three declined charges in Chromium after sign-up, each with its advice
  it('…0069 (expired) and …9995 (insufficient funds) get their own advice; Use another card comes back to the card form, focused', async () => {
    const { context, page, userId } = await checkoutVisitor(session);
    await typeTestCard(page, '4000 0000 0000 0069');
    await payButton(page).click();
    await page.waitForURL((url) => url.pathname === '/payment_declined', { timeout: PATIENCE_MS });
    await interactive(page);
    const expired = await page.locator('.declined__hint').allTextContents();
    expect(expired[0]).toBe("Check the card's number, expiry date and CVC, or use another card.");
    // The same card will not pass: nothing offers it again.
    expect(await declinedActions(page)).toEqual(['Use another card']);
    await page.reload();
    await interactive(page);
    expect(await page.locator('.declined__hint').allTextContents()).toEqual(expired);

    await page.getByRole('button', { name: 'Use another card' }).click();
    await page.waitForURL((url) => url.pathname === '/checkout_v3_tr');
    expect(new URL(page.url()).search).toBe('?skip_split=true');
    const frame = page.frameLocator('iframe.card-frame');
    await expect
      .poll(() => frame.getByLabel('Card number').evaluate((el) => el === document.activeElement))
      .toBe(true);
    expect(await page.evaluate(() => document.activeElement?.className)).toContain('card-frame');

    await typeTestCard(page, '4000 0000 0000 9995');
    await payButton(page).click();
    await page.waitForURL((url) => url.pathname === '/payment_declined', { timeout: PATIENCE_MS });
    await interactive(page);
    const funds = await page.locator('.declined__hint').allTextContents();
    expect(funds).toEqual([
      'Top up the card or raise its limit, then try again.',
      'Or pay with another card.',
    ]);
    expect(await declinedActions(page)).toEqual(['Use another card', 'Try again']);
    expect(await page.locator('.lead').textContent()).toBe(
      "Nothing was charged: the card's balance or limit was too low.",
    );
    expect(await active(userId)).toEqual([]);
    await context.close();
  });

  it('…3184 asks for 3-D Secure; completing the challenge pays', async () => {
    const { context, page, userId } = await checkoutVisitor(session);
    await payThroughChallenge(page);
    await continueAfterReceipt(page);
    await page.waitForURL((url) => url.pathname === '/upsell_an_private', { timeout: PATIENCE_MS });
    expect(await active(userId)).toHaveLength(1);
    await context.close();
  });

  it("…3184's challenge answers only once its script listens: a press while it loads is not lost", async () => {
    const { context, page, userId } = await checkoutVisitor(session);
    // The bank page's script held back, as on a slow network or a busy phone.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/test-gateway-challenge-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await typeTestCard(page, THREE_D_SECURE_CARD);
    await payButton(page).click();
    const complete = page
      .frameLocator('iframe.tgw-challenge__frame')
      .getByRole('button', { name: 'Complete authentication' });
    await complete.waitFor({ timeout: PATIENCE_MS });
    expect(await complete.isDisabled()).toBe(true);
    release();
    // The click waits until the button can answer, and the answer pays.
    await complete.click({ timeout: PATIENCE_MS });
    await continueAfterReceipt(page);
    await page.waitForURL((url) => url.pathname === '/upsell_an_private', { timeout: PATIENCE_MS });
    expect(await active(userId)).toHaveLength(1);
    await context.close();
  });

  it('…3184 with a failed challenge shows the error, charges nothing, and the form works again', async () => {
    const { context, page, userId } = await checkoutVisitor(session);
    await typeTestCard(page, '4000 0027 6000 3184');
    await payButton(page).click();
    const challenge = page.frameLocator('iframe.tgw-challenge__frame');
    // The page's clock from here, running as the real one until the test moves it on.
    await page.clock.install();
    await challenge
      .getByRole('button', { name: 'Fail authentication' })
      .click({ timeout: PATIENCE_MS });
    // Said once, beside Pay: no toast repeats it.
    const beside = page.locator('.payment-methods__error');
    await expect.poll(() => beside.textContent(), { timeout: PATIENCE_MS }).toMatch(/authenticat/i);
    const message = (await beside.textContent()) ?? '';
    expect(await page.locator('.toast__message').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/checkout_v3_tr');
    await expect.poll(() => payButton(page).isEnabled(), { timeout: PATIENCE_MS }).toBe(true);
    expect(await active(userId)).toEqual([]);

    // It stands beside Pay, announced and describing it (SPEC.md §3 paymentError)...
    expect(await beside.getAttribute('role')).toBe('alert');
    expect((await payButton(page).getAttribute('aria-describedby'))?.split(' ')).toContain(
      await beside.getAttribute('id'),
    );
    // ...and stays past a toast's 3 s (SPEC.md §8)...
    await page.clock.fastForward(3500);
    expect(await beside.textContent()).toBe(message);
    expect(await beside.isVisible()).toBe(true);
    // ...until the visitor changes the card.
    await page.frameLocator('iframe.card-frame').getByLabel('CVV').fill('456');
    await expect.poll(() => beside.textContent()).toBe('');
    expect(await payButton(page).getAttribute('aria-describedby')).not.toContain('payment-error');
    await context.close();
  });

  it('five fast clicks on Pay make one subscription', async () => {
    const { context, page, userId } = await checkoutVisitor(session);
    await typeTestCard(page, '4242 4242 4242 4242');
    const button = payButton(page);
    await button.evaluate((element) => {
      for (let i = 0; i < 5; i += 1) (element as HTMLButtonElement).click();
    });
    expect(await button.isDisabled()).toBe(true);
    expect(await button.getAttribute('aria-busy')).toBe('true');
    await continueAfterReceipt(page);
    await page.waitForURL((url) => url.pathname === '/upsell_an_private', { timeout: PATIENCE_MS });
    expect(await portalSubscriptions(session, userId)).toHaveLength(1);
    await context.close();
  });
});

describe("a card provider's script that never comes (docs/payments.md, A failing provider routed around)", () => {
  it('the card form says it could not load, and the worker counts it against that provider', async () => {
    // The test gateway plays Stripe for this visitor (the worker pins the test gateway's
    // checkouts to Stripe's polling route); its next card frame comes without its script.
    await switchFaultOn(session.worker.portalDb, 'script-stripe', 1);
    const { context, page } = await checkoutVisitor({
      ...session,
      async newVisitor(options) {
        const visitor = await session.newVisitor(options);
        await visitor.context.clock.install();
        return visitor;
      },
    });
    // The frame is in the page, so its deadline runs: the page's clock jumps past it.
    await page.locator('iframe.card-frame').waitFor({ state: 'attached' });
    const report = page.waitForResponse((response) =>
      response.url().endsWith('/api/payment-provider/unavailable'),
    );
    await page.clock.fastForward(CARD_FIELDS_DEADLINE_MS + 1_000);
    expect((await report).status()).toBe(202);
    const notice = page.locator('.card-form__notice');
    await expect
      .poll(() => notice.textContent())
      .toBe('The card form could not load. Check your connection and reload the page.');
    expect(await page.locator('iframe.card-frame').count()).toBe(0);
    // Counted toward Stripe's health: the line the worker writes once its object took it.
    await expect
      .poll(() => session.worker.logs.filter((line) => line.event === 'provider_script_failed'))
      .toEqual([expect.objectContaining({ provider: 'stripe' })]);
    await context.close();
  });
});

/** Pixels between Pay and the renewal terms (the nearer edges), and the terms' size and colour. */
async function termsBesidePay(page: Page) {
  return page.evaluate(() => {
    const pay = document.querySelector('#continue-button')!.getBoundingClientRect();
    const element = document.querySelector('.pay-card__terms')!;
    const terms = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    const gap = terms.top >= pay.bottom ? terms.top - pay.bottom : pay.top - terms.bottom;
    return {
      gap,
      fontSize: Number.parseFloat(style.fontSize),
      colour: style.color,
      bodyColour: getComputedStyle(document.body).color,
      inView: pay.bottom <= innerHeight && terms.bottom <= innerHeight,
    };
  });
}

describe('Pay names the amount, and the renewal terms stand beside it', () => {
  it('follows the plan picked, with the terms within 48 px at 390 and 1280 px', async () => {
    const { context, page } = await checkoutVisitor(session, 'terms');
    await expect.poll(() => payButton(page).textContent()).toBe('Start trial for $6.99');
    const terms = page.locator('.pay-card__terms');
    expect(await terms.textContent()).toMatch(
      /^\$6\.99 today for a 7-day trial, then \$39\.99 every month, renewing automatically from \w+ \d+, \d{4} until you cancel\. Cancel anytime online with the link in your receipt, in the app's settings or by writing to /,
    );
    await page.getByRole('radio', { name: '3-month plan' }).click();
    await expect.poll(() => payButton(page).textContent()).toBe('Pay $59.99');
    expect(await terms.textContent()).toMatch(/^\$59\.99 today, then \$59\.99 every 3 months/);
    expect(await page.locator('.pay-card__total').textContent()).toBe('Total today$59.99');

    for (const [width, height] of [
      [390, 844],
      [1280, 800],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.evaluate(() => scrollTo(0, 0));
      const measured = await termsBesidePay(page);
      expect(measured.gap, `${width}px`).toBeGreaterThanOrEqual(0);
      expect(measured.gap, `${width}px`).toBeLessThanOrEqual(48);
      expect(measured.fontSize, `${width}px`).toBeGreaterThanOrEqual(14);
      expect(measured.colour, `${width}px`).toBe(measured.bodyColour);
      // At 1280×800 the sticky pay card shows its total, Pay and the terms without scrolling.
      if (width === 1280) expect(measured.inView).toBe(true);
    }
    await context.close();
  });

  it('a US visitor ticks the renewal box: Pay without it says so and focuses it, then pays', async () => {
    const { context, page } = await session.newVisitor();
    // A visitor from the US (the development worker takes the country from this header).
    await page.setExtraHTTPHeaders({ 'CF-IPCountry': 'US' });
    await page.goto('/signup?skip_split=true');
    await interactive(page);
    await submitEmail(page, uniqueEmail('consent'));
    await page.waitForURL((url) => url.pathname === '/checkout_v3_tr', { timeout: PATIENCE_MS });
    await interactive(page);
    const userId = (await signupField(page, 'userId')) as string;
    await typeTestCard(page, '4242 4242 4242 4242');
    const box = page.getByRole('checkbox', {
      name: 'I agree that my subscription renews automatically at $39.99 every month until I cancel.',
    });
    expect(await box.isChecked()).toBe(false);
    await payButton(page).click();
    await expect
      .poll(() => box.evaluate((element) => element === document.activeElement))
      .toBe(true);
    expect(await page.getByRole('alert').filter({ hasText: 'Tick the box' }).textContent()).toBe(
      'Tick the box to agree to the automatic renewal, then pay.',
    );
    expect(await portalSubscriptions(session, userId)).toEqual([]);

    await box.check();
    await payButton(page).click();
    await continueAfterReceipt(page);
    expect(await active(userId)).toHaveLength(1);
    await context.close();
  });
});
