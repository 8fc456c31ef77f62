import { brotliCompressSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANDING_SCREENS } from '../../screens/landing';
import { type BrowserSession, startBrowserSession } from './harness';
import { PATIENCE_MS } from './patience';
import { islandsHydrated } from './visitor-steps';

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

const LANDINGS = Object.keys(LANDING_SCREENS);
/** The page-weight budget of the benchmark (docs/performance.md): HTML at most 12 KB brotli. */
const HTML_BUDGET_BYTES = 12 * 1024;

/** A visitor on a 350px phone (SPEC.md §9 mobile width), recording console problems. */
const phoneVisitor = (options: { reducedMotion?: 'reduce' | 'no-preference' } = {}) =>
  session.newVisitor({ viewport: { width: 350, height: 740 }, ...options });

const horizontalOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('landing in Chromium (SPEC.md §1, §2)', () => {
  it('refuses an invalid number with the message beside the field, and stays', async () => {
    const { context, page, problems } = await phoneVisitor();
    await page.goto('/one_pager?skip_split=true');
    await islandsHydrated(page);
    const field = page.getByLabel('Phone number to locate');
    // Every move the page starts: the Navigation API fires `navigate` as a navigation begins.
    await page.evaluate(() => {
      const counted = window as unknown as { moves: number; navigation: EventTarget };
      counted.moves = 0;
      counted.navigation.addEventListener('navigate', () => {
        counted.moves += 1;
      });
    });
    await field.fill('12345');
    await page.locator('#continue-button').click();
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    const message = page.locator(`[id="${await field.getAttribute('aria-describedby')}"]`);
    expect(await message.textContent()).toBe(
      'This is not a valid phone number for the selected country. Please check it and try again.',
    );
    expect(await message.isVisible()).toBe(true);
    expect(await message.getAttribute('role')).toBe('alert');
    // Focusing the field is the refusal's last step, after any move on it would have begun.
    await expect.poll(() => field.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await page.evaluate(() => (window as { moves?: number }).moves)).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/one_pager');
    expect(await page.evaluate(() => localStorage.getItem('gf:map:phone'))).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });

  // slow: the landing, then the searching screen's located steps played in full, then sign-up
  it('locates a valid US number: searching shows it and its steps, Continue leads to signup', async () => {
    const { context, page, problems } = await phoneVisitor();
    await page.goto('/one_pager?skip_split=true&gclid=g-1');
    await islandsHydrated(page);
    // The worker sees the visitor in the US (Miniflare's request.cf): the field starts there.
    expect(await page.locator('.phone-input__summary').textContent()).toBe('US +1');
    const field = page.getByLabel('Phone number to locate');
    await field.pressSequentially('2015550123');
    // Formatted once the rules and the US zone have come (fetched as the field was touched).
    await expect.poll(() => field.inputValue()).toBe('(201) 555-0123');
    const historyLength = await page.evaluate(() => history.length);
    await page.locator('#continue-button').click();

    await page.waitForURL((url) => url.pathname === '/searching');
    expect(new URL(page.url()).search).toBe('?skip_split=true&gclid=g-1');
    expect(await page.evaluate(() => localStorage.getItem('gf:map:phone'))).toBe('"+12015550123"');
    await islandsHydrated(page);
    expect(await page.locator('.search__number-value').textContent()).toBe('+1 201 555 0123');
    for (const step of [
      'Connecting to the cellular base station',
      'Identifying the network operator',
      'Connecting to the phone',
      'Number located',
    ])
      expect(await page.locator('.search__step', { hasText: step }).count(), step).toBe(1);
    const continueButton = page.locator('#continue-button');
    expect(await continueButton.isDisabled()).toBe(true);

    await expect.poll(() => continueButton.isEnabled(), { timeout: PATIENCE_MS }).toBe(true);
    expect(
      await page
        .getByRole('progressbar', { name: 'Search progress' })
        .getAttribute('aria-valuenow'),
    ).toBe('100');
    expect(await page.locator('.search__row', { hasText: 'Country' }).textContent()).toContain(
      'United States',
    );
    expect(await page.evaluate(() => localStorage.getItem('gf:map:initCoords'))).toBe(
      '{"lat":38.9072,"lng":-77.0369}',
    );
    await continueButton.click();
    await page.waitForURL((url) => url.pathname === '/signup');
    expect(new URL(page.url()).search).toBe('?skip_split=true&gclid=g-1');
    expect(await page.evaluate(() => history.length)).toBe(historyLength);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('takes a number of another country chosen in the list', async () => {
    const { context, page } = await phoneVisitor({ reducedMotion: 'reduce' });
    await page.goto('/one_pager?skip_split=true');
    await islandsHydrated(page);
    await page.getByLabel('Country of the phone number').selectOption('GB');
    expect(await page.locator('.phone-input__summary').textContent()).toBe('GB +44');
    await page.getByLabel('Phone number to locate').pressSequentially('07400123456');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/searching');
    expect(await page.evaluate(() => localStorage.getItem('gf:map:phone'))).toBe('"+447400123456"');
    await context.close();
  });

  it('fetches the phone rules once the field is touched, and another country’s plans for its number', async () => {
    const { context, page, problems } = await phoneVisitor();
    const fetched: string[] = [];
    page.on('request', (request) => {
      const name = /\/assets\/(phone-checks|zone-\d+)-/.exec(request.url())?.[1];
      if (name) fetched.push(name);
    });
    await page.goto('/one_pager?skip_split=true');
    await islandsHydrated(page);
    expect(fetched).toEqual([]);
    // A US visitor (the worker's request.cf) typing a UK number with its prefix.
    const field = page.getByLabel('Phone number to locate');
    await field.pressSequentially('+447400123456');
    await expect.poll(() => field.inputValue()).toBe('+44 7400 123456');
    expect(await page.locator('.phone-input__summary').textContent()).toBe('GB +44');
    await page.locator('#continue-button').click();
    await page.waitForURL((url) => url.pathname === '/searching');
    expect(await page.evaluate(() => localStorage.getItem('gf:map:phone'))).toBe('"+447400123456"');
    expect(fetched).toEqual(['phone-checks', 'zone-1', 'zone-34']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('without JavaScript the worker refuses a bad number, keeps it, and carries a good one', async () => {
    const { context, page } = await session.newVisitor({ javaScriptEnabled: false });
    await page.goto('/one_pager?skip_split=true&gclid=nojs');
    const field = page.getByLabel('Phone number to locate');
    const country = page.locator('select[name="country"]');
    // Away from the visitor's default, so the answer must keep the choice.
    await country.selectOption('GB');
    await field.fill('07400 12345x');
    await page.locator('#continue-button').click();
    const error = page.getByRole('alert').filter({ hasText: 'not a valid phone number' });
    await error.waitFor();
    expect(new URL(page.url()).pathname).toBe('/one_pager');
    expect(await field.inputValue()).toBe('07400 12345x');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await field.getAttribute('aria-describedby')).toBe(await error.getAttribute('id'));
    expect(await country.inputValue()).toBe('GB');
    expect(await page.locator('.phone-input__summary').textContent()).toBe('GB +44');

    await field.fill('07400 123456');
    await page.locator('#continue-button').click();
    await page.waitForURL((url) => url.pathname === '/searching');
    // The number travels in a cookie, not the address the tracker and the pixels read.
    expect(new URL(page.url()).search).toBe('?skip_split=true&gclid=nojs');
    expect(await page.locator('.search__number-value').textContent()).toBe('+44 7400 123456');
    await context.close();
  });

  it.each(LANDINGS)(
    '%s renders at 350px with no console problem and no sideways scroll',
    async (screen) => {
      const { context, page, problems } = await phoneVisitor();
      // The page's timers run on Playwright's clock, which otherwise flows with real time.
      await context.clock.install();
      await page.goto(`/${screen}?skip_split=true`);
      await islandsHydrated(page);
      // Long enough for the reviews carousel to slide at least once, without waiting for it.
      await page.clock.runFor(2500);
      expect(await horizontalOverflow(page)).toBe(0);
      expect(await page.locator('h1').count()).toBe(1);
      expect(await page.locator('#continue-button').isVisible()).toBe(true);
      const box = await page.locator('.phone-input__number').boundingBox();
      expect(box?.height).toBe(51);
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  it('reviews stand still while paused, by mouse or by keyboard, until Play (WCAG 2.2.2)', async () => {
    const { context, page, problems } = await session.newVisitor({
      viewport: { width: 390, height: 844 },
    });
    await context.clock.install();
    await page.goto('/one_pager?skip_split=true');
    await islandsHydrated(page);
    const shown = () => page.locator('.reviews__track').getAttribute('data-index');
    const away = () => page.mouse.move(5, 5);
    await page.clock.runFor(2100);
    expect(await shown()).toBe('1');

    // By mouse: paused, it stays put once the pointer leaves, however long.
    await page.getByRole('button', { name: 'Pause reviews' }).click();
    await away();
    await page.clock.runFor(10_000);
    expect(await shown()).toBe('1');
    await page.getByRole('button', { name: 'Play reviews' }).click();
    await away();
    await page.clock.runFor(2100);
    expect(await shown()).toBe('2');

    // By keyboard: to the button, Enter, and away; still until Space on Play.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Pause reviews');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.clock.runFor(10_000);
    expect(await shown()).toBe('2');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.clock.runFor(2100);
    expect(await shown()).toBe('3');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows several reviews side by side at 1280 px, still, with no control needed', async () => {
    const { context, page, problems } = await session.newVisitor({
      viewport: { width: 1280, height: 800 },
    });
    await context.clock.install();
    await page.goto('/one_pager?skip_split=true');
    await islandsHydrated(page);
    const boxes = () =>
      page
        .locator('.reviews__item')
        .evaluateAll((items) => items.map((item) => item.getBoundingClientRect().toJSON()));
    const before: DOMRect[] = await boxes();
    expect(before).toHaveLength(4);
    // Two or more share a row, each in the window.
    expect(before.filter((box) => box.top === before[0]!.top).length).toBeGreaterThanOrEqual(2);
    for (const box of before) expect(box.right).toBeLessThanOrEqual(1280);
    await page.clock.runFor(10_000);
    expect(await boxes()).toEqual(before);
    expect(await page.getByRole('button', { name: 'Pause reviews' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it.each(['en', 'fr', 'ru'])(
    'the phone field’s placeholder fits at 320 px in %s',
    async (language) => {
      const { context, page } = await session.newVisitor({ viewport: { width: 320, height: 640 } });
      await page.goto(`/one_pager?skip_split=true&custom_lng=${language}`);
      const { needed, room } = await page.locator('.phone-input__number').evaluate((input) => {
        const field = input as HTMLInputElement;
        const own = getComputedStyle(field);
        const placeholder = getComputedStyle(field, '::placeholder');
        const pen = document.createElement('canvas').getContext('2d')!;
        pen.font = `${placeholder.fontWeight} ${placeholder.fontSize} ${placeholder.fontFamily}`;
        return {
          needed: pen.measureText(field.placeholder).width,
          room:
            field.clientWidth -
            Number.parseFloat(own.paddingLeft) -
            Number.parseFloat(own.paddingRight),
        };
      });
      expect(needed).toBeLessThanOrEqual(room);
      await context.close();
    },
  );

  it.each(LANDINGS)('%s HTML stays under 12 KB brotli', async (screen) => {
    const response = await fetch(new URL(`/${screen}?skip_split=true`, session.worker.url));
    const html = Buffer.from(await response.arrayBuffer());
    const size = brotliCompressSync(html).length;
    expect(size).toBeLessThan(HTML_BUDGET_BYTES);
  });
});
