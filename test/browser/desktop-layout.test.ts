import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPaywallScreen } from '../../shared/screens';
import { runAxe } from './a11y-checks';
import { type BrowserSession, startBrowserSession } from './harness';
import { openSettledScreen } from './layout-checks';

/**
 * The wide layout (SPEC.md §9, desktop from 992; the screens of screens/plans/styles/wide.ts,
 * sign-up and the landings from a tablet's 768): on a wide window the key screens put one piece
 * beside the rest, mirrored in Arabic, while a phone keeps the one column of SPEC.md §2. That
 * no screen leaves a column bare is the walk's (every-screen.test.ts, wide-checks.ts).
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

/** A screen, a piece of its main column and the piece that takes the other column. */
const SPLITS = [
  ['one_pager', '.landing__pitch', '.landing__aside'],
  ['one_pager_l2', '.landing__pitch', '.landing__aside'],
  ['signup', '[data-island=SignupForm]', '.trust-labels'],
  ['signup_testim', '[data-island=SignupForm]', '.signup__testimonials'],
  ['checkout_v3_tr', '[data-island=PlanChoice]', '[data-island=CheckoutPayment]'],
  ['checkout_h3_pp_braintree', '[data-island=PlanChoice]', '[data-island=CheckoutPayment]'],
  ['upsell_an_private', '[data-island=PlanChoice]', '[data-island=UpsellPurchase]'],
  ['upsell_guide', 'h1', '.guide-offer'],
  ['success', '[data-island=DownloadApp]', '.success__aside'],
] as const;

/**
 * The checkouts' columns start at the desktop's 992; the other screens' at a tablet's 768,
 * where a landing stands only its picture beside the pitch (the rest of its aside under both,
 * the walk's empty-column check sees to the balance), so its whole aside is beside it from 992.
 */
const splitFrom = (screen: string) =>
  isPaywallScreen(screen) || screen.startsWith('one_pager') ? 992 : 768;

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
}

interface Seen {
  main: Box;
  side: Box;
  viewport: number;
  /** The document's width: more than the window is a sideways scroll. */
  scrollWidth: number;
}

function measure(page: Page, main: string, side: string): Promise<Seen> {
  return page.evaluate(
    ([mainSelector, sideSelector]) => {
      const box = (selector: string) => {
        const element = document.querySelector(`main.page > .screen > ${selector}`);
        if (!element) throw new Error(`no ${selector}`);
        const { left, right, top, bottom, width } = element.getBoundingClientRect();
        return { left, right, top, bottom, width };
      };
      return {
        main: box(mainSelector),
        side: box(sideSelector),
        viewport: document.documentElement.clientWidth,
        scrollWidth: document.documentElement.scrollWidth,
      };
    },
    [main, side] as const,
  );
}

async function openAt(width: number, path: string): Promise<Page> {
  const { page } = await session.newVisitor({ viewport: { width, height: 800 } });
  await openSettledScreen(page, path);
  return page;
}

/** Side by side: the side in the end column, beginning beside the main piece, not below it. */
function expectSideBySide(seen: Seen, label: string) {
  expect(seen.side.left, label).toBeGreaterThanOrEqual(seen.main.right);
  expect(seen.side.top, label).toBeLessThan(seen.main.bottom);
  // Each a column of the page, not a phone column: over a third of the window each (and of
  // the page's 960 on the widest window).
  const page = Math.min(seen.viewport, 992);
  expect(seen.main.width / page, label).toBeGreaterThan(0.33);
  expect(seen.side.width / page, label).toBeGreaterThan(0.33);
  expect(seen.scrollWidth, label).toBe(seen.viewport);
}

describe('from 768 or 992px the key screens use two columns', () => {
  it.each(SPLITS)('%s: %s beside %s at 1280, 1024, 1440 and 768px', async (screen, main, side) => {
    const page = await openAt(1280, `/${screen}`);
    expectSideBySide(await measure(page, main, side), '1280px');
    // Every violation axe knows, not only the serious ones.
    const { violations } = await runAxe(page);
    expect(violations.map((violation) => violation.id)).toEqual([]);
    // The same page resized, as a window is.
    for (const width of [1024, 1440, 768]) {
      if (width < splitFrom(screen)) continue;
      await page.setViewportSize({ width, height: 800 });
      expectSideBySide(await measure(page, main, side), `${width}px`);
    }
    await page.context().close();
  });

  it('the combo paywall is one centred column until its call to action opens the form beside the plans', async () => {
    const page = await openAt(1280, '/paycheck_combo_3d');
    const gated = await measure(page, '[data-island=PlanChoice]', '[data-island=CheckoutPayment]');
    // The button's card under the plans, in their column: no end column holding a button alone.
    expect(gated.side.top).toBeGreaterThanOrEqual(gated.main.bottom);
    expect(Math.abs(gated.side.left - gated.main.left)).toBeLessThan(1);
    expect(Math.abs(gated.main.left + gated.main.right - gated.viewport)).toBeLessThan(2);
    await page.getByRole('button', { name: 'Start my 3-day trial' }).click();
    await page.getByRole('group', { name: 'Card details' }).waitFor();
    for (const width of [1280, 1024, 1440]) {
      await page.setViewportSize({ width, height: 800 });
      expectSideBySide(
        await measure(page, '[data-island=PlanChoice]', '[data-island=CheckoutPayment]'),
        `${width}px`,
      );
    }
    await page.context().close();
  });

  it('a landing keeps its phone form in sight beside the aside as the visitor reads on', async () => {
    const page = await openAt(1280, '/one_pager');
    const locate = () =>
      page.evaluate(() =>
        document.querySelector('.phone-form button')!.getBoundingClientRect().toJSON(),
      );
    const before = await locate();
    // Scrolled past where the button stood, to how it works beside it.
    await page.evaluate((by) => window.scrollBy(0, by), before.bottom + 8);
    const after = await locate();
    expect(after.top).toBeGreaterThanOrEqual(0);
    expect(after.bottom).toBeLessThanOrEqual(800);
    await page.context().close();
  });

  it.each(['checkout_v3_tr', 'one_pager', 'signup_testim'] as const)(
    '%s in Arabic: the columns mirror',
    async (screen) => {
      const [, main, side] = SPLITS.find(([id]) => id === screen)!;
      const page = await openAt(1280, `/${screen}?custom_lng=ar`);
      const seen = await measure(page, main, side);
      expect(seen.side.right).toBeLessThanOrEqual(seen.main.left);
      expect(seen.side.top).toBeLessThan(seen.main.bottom);
      expect(seen.side.width / seen.viewport).toBeGreaterThan(0.33);
      expect(seen.scrollWidth).toBe(seen.viewport);
      expect((await runAxe(page)).violations.map((violation) => violation.id)).toEqual([]);
      await page.context().close();
    },
  );

  it('the result paywall shows its plans as cards in a row', async () => {
    const page = await openAt(1280, '/paycheck1_pr5_h_win');
    const cards = await page
      .locator('.plan-picker__item')
      .evaluateAll((items) => items.map((item) => item.getBoundingClientRect().toJSON()));
    expect(cards.length).toBeGreaterThanOrEqual(3);
    // One row: every card ends on the same line, each to the right of the one before.
    for (const [index, card] of cards.entries()) {
      expect(card.bottom).toBe(cards[0].bottom);
      if (index > 0) expect(card.left).toBeGreaterThan(cards[index - 1].right);
    }
    expect((await runAxe(page)).violations.map((violation) => violation.id)).toEqual([]);
    await page.context().close();
  });

  it('/features: Continue stands in the page under the heading, not pinned to the window', async () => {
    const page = await openAt(1280, '/features');
    const seen = await page.evaluate(() => {
      const button = document.getElementById('continue-button')!.getBoundingClientRect();
      const heading = document.querySelector('h1')!.getBoundingClientRect();
      const main = document.querySelector('main.page')!;
      return {
        position: getComputedStyle(document.querySelector('.bottom-button')!).position,
        padding: getComputedStyle(main).paddingBottom,
        underHeading: button.left === heading.left && button.top > heading.bottom,
        height: button.height,
      };
    });
    expect(seen).toEqual({ position: 'static', padding: '16px', underHeading: true, height: 56 });
    await page.context().close();
  });
});

describe('on a phone the screens keep their one column', () => {
  it.each(SPLITS)('%s at 390px: %s and %s one above the other', async (screen, main, side) => {
    const page = await openAt(390, `/${screen}`);
    const seen = await measure(page, main, side);
    const [first, second] =
      seen.main.top < seen.side.top ? [seen.main, seen.side] : [seen.side, seen.main];
    expect(second.top).toBeGreaterThanOrEqual(first.bottom);
    // SPEC.md §9: the content at most 343 wide, whichever piece.
    expect(seen.main.width).toBeLessThanOrEqual(343);
    expect(seen.side.width).toBeLessThanOrEqual(343);
    expect(seen.scrollWidth).toBe(seen.viewport);
    await page.context().close();
  });
});

describe('no sideways scrolling from 320px up', () => {
  it.each([320, 991, 992, 1280])('at %ipx, in English and Arabic', async (width) => {
    const { context, page } = await session.newVisitor({ viewport: { width, height: 800 } });
    const wider: string[] = [];
    for (const [screen] of SPLITS) {
      for (const language of ['en', 'ar']) {
        await openSettledScreen(page, `/${screen}?custom_lng=${language}`);
        const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
        if (scroll !== width) wider.push(`/${screen} (${language}) is ${scroll}px wide`);
      }
    }
    expect(wider).toEqual([]);
    await context.close();
  });
});
