import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FLOWS } from '../../worker/config/defaults';
import { pinnedToVariant } from '../fixtures/signed-cookies';
import { type BrowserSession, startBrowserSession } from './harness';
import { continueAfterReceipt } from './money-path';
import { PATIENCE_MS } from './patience';
import {
  backStaysPut,
  expectLaidOutLocated,
  interactive,
  JOURNEY_SCREENS,
  postSignUp,
} from './visitor-steps';

let session: BrowserSession;

/** One variant per flow of SPEC.md §2, so a visitor's cookie can pick the flow to walk. */
const SPLIT_WITH_EVERY_FLOW = {
  version: 'walk',
  defaultVariant: 'default',
  variants: Object.fromEntries(
    Object.keys(DEFAULT_FLOWS.flows).map((flow) => [flow.replace(/_/g, '-'), { weight: 1, flow }]),
  ),
};

/**
 * What a visitor does on each kind of screen before Continue moves them on. The signup screens
 * create an account in the embedded portal, so each walk signs up with an address of its own.
 */
async function completeScreen(page: Page, screen: string, flow: string): Promise<void> {
  if (screen.startsWith('one_pager')) {
    // The visitor's country is unknown here, so the field defaults to the United States.
    await page.locator('input[type="tel"]').fill('415 555 2671');
  }
  if (screen.startsWith('signup')) {
    await page.locator('input[type="email"]').fill(`walker-${flow}@example.com`);
  }
  if (screen.startsWith('checkout') || screen.startsWith('paycheck')) {
    // A paywall opens its payment form first; every checkout takes the test gateway's 4242 card.
    if (screen.startsWith('paycheck')) await page.locator('#continue-button').click();
    const frame = page.frameLocator('iframe.card-frame');
    await frame.getByLabel('Card number').fill('4242 4242 4242 4242');
    await frame.getByLabel('Expiry date').fill('12/34');
    await frame.getByLabel('CVV').fill('123');
  }
  // The searching screens enable Continue once the search animation has finished.
  await page.locator('#continue-button:not([disabled])').click({ timeout: PATIENCE_MS });
  // A paid checkout confirms the payment before the flow goes on.
  if (screen.startsWith('checkout') || screen.startsWith('paycheck'))
    await continueAfterReceipt(page);
}

/**
 * The walks: every distinct screen of SPEC.md §2's flows checked once, each screen after the first
 * reached by the one before it. Which screen follows which in every flow is the worker's
 * (test/worker/render/every-flow.test.ts). Default's landing, searching and sign-up are walked,
 * with the same checks, by sign-up.test.ts's journey (JOURNEY_SCREENS), which signs up through
 * the island and ends on default's checkout; default's walk goes on from that checkout. It and
 * the lp11ch8 flows' walks (which differ from default only in their checkouts) each start on
 * their checkout, signed up by the sign-up screen's form posted as a browser without script posts
 * it. lp1ch2 has default's screens. A screen an earlier walk checked is only reached, at a walk's
 * end: the move onto it is the screen before's.
 */
type FlowScreen = (typeof DEFAULT_FLOWS.flows)[string][number];
const WALKS: { flow: string; from: FlowScreen; to: FlowScreen }[] = [
  { flow: 'default', from: 'checkout_v3_tr', to: 'success' },
  { flow: 'lp17ch17pr5', from: 'one_pager_all', to: 'upsell_an_private' },
  { flow: 'stripe_test', from: 'auto-signup', to: 'success' },
  { flow: 'lp11ch8', from: 'checkout_h3_pp', to: 'upsell_an_private' },
  { flow: 'lp11ch8_vc', from: 'checkout_v3_pp', to: 'upsell_an_private' },
  { flow: 'lp11ch8b', from: 'checkout_h3_pp_braintree', to: 'upsell_an_private' },
];

/** What a screen shows that takes a browser to see, checked on the walk's one load of it. */
const SCREEN_CHECKS: Partial<Record<FlowScreen, (page: Page) => Promise<void>>> = {
  // Located: its title, map and phone layout (no request to another site: the walk's problems
  // hold any, the closed network refusing it).
  searching_2: async (page) => {
    await expect
      .poll(() => page.locator('#continue-button').isEnabled(), { timeout: PATIENCE_MS })
      .toBe(true);
    expect(await page.locator('h1').innerText()).toBe('Number located');
    await expectLaidOutLocated(page);
  },
  // What other families say: each quote beside a drawn portrait, decorative (the name beside it
  // says who), that loads once scrolled to.
  signup_testim: async (page) => {
    expect(await page.locator('.signup__testimonial').count()).toBe(3);
    expect(await page.locator('h1').textContent()).toBe('Almost there: create your account');
    const portraits = await page.locator('.signup__testimonial img').all();
    expect(portraits).toHaveLength(3);
    for (const portrait of portraits) {
      expect(await portrait.getAttribute('alt')).toBe('');
      await portrait.scrollIntoViewIfNeeded();
      await expect
        .poll(() => portrait.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
    }
  },
};

/** The screens of `flow` a walk goes through, first to last. */
function walked({ flow, from, to }: (typeof WALKS)[number]): FlowScreen[] {
  const screens = DEFAULT_FLOWS.flows[flow] ?? [];
  return screens.slice(screens.indexOf(from), screens.indexOf(to) + 1);
}

/** The screens the walks before `walk` checked. */
function checkedBefore(walk: (typeof WALKS)[number]): Set<FlowScreen> {
  return new Set(WALKS.slice(0, WALKS.indexOf(walk)).flatMap(walked));
}

/** The screen before a walk's first, in its flow: a sign-up posted without script, or none. */
function postedBefore({ flow, from }: (typeof WALKS)[number]): FlowScreen | undefined {
  const screens = DEFAULT_FLOWS.flows[flow] ?? [];
  return screens[screens.indexOf(from) - 1];
}

/**
 * Opens a walk's first screen with `query`: the landing at `/`, or the screen after a sign-up
 * once the sign-up's form is posted as a browser without script posts it, from the visitor's own
 * browser context (its cookies, and the session the answer sets), following the worker's redirect.
 */
async function openFirstScreen(
  { context, page }: { context: BrowserContext; page: Page },
  walk: (typeof WALKS)[number],
  query: string,
): Promise<void> {
  const signup = postedBefore(walk);
  if (signup === undefined) {
    await page.goto(`/${query}`);
    return;
  }
  const next = await postSignUp(
    context,
    session.worker.url,
    `/${signup}${query}`,
    `walker-${walk.flow}@example.com`,
  );
  expect(next.pathname + next.search).toBe(`/${walk.from}${query}`);
  await page.goto(next.href);
}

beforeAll(async () => {
  session = await startBrowserSession();
  await session.worker.putConfig('split', SPLIT_WITH_EVERY_FLOW);
});
afterAll(() => session?.stop());

describe('walking every flow of SPEC.md §2 in Chromium', () => {
  it('the walks go through every screen of every flow, checking each once', () => {
    const every = new Set(Object.values(DEFAULT_FLOWS.flows).flat());
    const covered = new Set([...WALKS.flatMap(walked), ...JOURNEY_SCREENS]);
    // The journey walks default's first screens; default's walk goes on from the next.
    const defaultFlow = DEFAULT_FLOWS.flows.default ?? [];
    expect(defaultFlow.slice(0, JOURNEY_SCREENS.length)).toEqual(JOURNEY_SCREENS);
    expect(WALKS.find((walk) => walk.flow === 'default')?.from).toBe(
      defaultFlow[JOURNEY_SCREENS.length],
    );
    expect([...every].filter((screen) => !covered.has(screen))).toEqual([]);
    for (const walk of WALKS) {
      expect(walked(walk).at(-1), walk.flow).toBe(walk.to);
      // Only a walk's last screen may be one an earlier walk checked.
      const seen = checkedBefore(walk);
      expect(
        walked(walk)
          .slice(0, -1)
          .filter((screen) => seen.has(screen)),
        walk.flow,
      ).toEqual([]);
      // A walk starts on its flow's landing, or after a sign-up it posts.
      const before = postedBefore(walk);
      if (before !== undefined) expect(before, walk.flow).toMatch(/^signup/);
    }
  });

  // slow: one visitor walks a flow's screens in Chromium, paying on its checkout
  it.each(WALKS)('flow $flow from $from to $to', async (walk) => {
    const { flow } = walk;
    const screens = walked(walk);
    const landing = screens[0] === DEFAULT_FLOWS.flows[flow]?.[0];
    // The walk is about the order of screens, not the search animation (its few seconds with
    // motion are test/unit/searching/SearchProgress.test.tsx's): reduced, it takes a moment.
    const { context, page, problems } = await session.newVisitor({ reducedMotion: 'reduce' });
    await context.addCookies(
      await pinnedToVariant(session.worker.url.href, flow.replace(/_/g, '-')),
    );
    const query = '?utm_source=walk&gclid=g-1';
    await openFirstScreen({ context, page }, walk, query);
    await interactive(page);
    const historyLength = await page.evaluate(() => history.length);
    const checked = checkedBefore(walk);

    for (const [step, screen] of screens.entries()) {
      // Reached at the walk's end, a screen an earlier walk checked is not checked again.
      if (checked.has(screen)) break;
      const path = step === 0 && landing ? '/' : `/${screen}`;
      await page.waitForURL((url) => url.pathname === path && url.search === query);
      await interactive(page);
      await SCREEN_CHECKS[screen]?.(page);
      await backStaysPut(page, path);

      if (step < screens.length - 1) {
        await completeScreen(page, screen, flow);
        const next = screens[step + 1];
        await page.waitForURL((url) => url.pathname === `/${next}`, {
          waitUntil: next !== undefined && checked.has(next) ? 'commit' : 'load',
        });
        // Moving on replaces the history entry instead of adding one.
        expect(await page.evaluate(() => history.length), `${screen} moved on`).toBe(historyLength);
        expect(await page.evaluate(() => window.scrollY)).toBe(0);
      }
    }
    expect(new URL(page.url()).pathname).toBe(`/${walk.to}`);
    expect(problems).toEqual([]);
    await context.close();
  });
});
