import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPRING_PAY_FLOWS, SPRING_PAYWALL } from '../fixtures/composed-paywall';
import { runAxe } from './a11y-checks';
import { arrangedLooks, openArranged, topOf } from './content-steps';
import { type BrowserSession, startBrowserSession } from './harness';
import { reviewShot } from './layout-checks';

/**
 * A checkout as a marketer's content arranges it, in Chromium: what other families say and the
 * guarantee above the plans, the countdown hidden. A visitor on a phone and on a desktop, in
 * English and in Arabic, sees them there, styled as on the signup screen, the plans and the
 * payment form still working, and axe finds nothing. So does a paywall a marketer composed from
 * checkout_v3_tr's sections, at its own path in a flow; where its payment and a declined card's
 * Try again lead is the worker's (test/worker/content/composed-paywall.test.ts), the card's
 * decline and 3-D Secure in the checkout's island the checkout files'.
 */

let session: BrowserSession;

const SECTIONS = [
  'heading',
  'testimonials',
  'guarantee',
  'callout',
  'plans',
  'payment',
  'trust',
  'providers',
  'support',
];

beforeAll(async () => {
  session = await startBrowserSession();
  await session.worker.putConfig('content', {
    screens: {
      checkout_v3_tr: {
        sections: [
          { id: 'countdown', visible: false },
          ...SECTIONS.map((id) => ({ id, visible: true })),
        ],
      },
    },
    composed: SPRING_PAYWALL.composed,
  });
  await session.worker.putConfig('flows', SPRING_PAY_FLOWS);
});
afterAll(async () => {
  await session?.worker.deleteConfig('content');
  await session?.worker.deleteConfig('flows');
  await session?.stop();
});

const openCheckout = (width: number, language: string) =>
  openArranged(session, 'checkout_v3_tr', width, language);

// One page per language, opened at a phone's width and then widened to a desktop's: the same
// checks at each width, the layout drawn again by the resize as by a load at that width; axe on
// the phone, the page's markup the same at both (the desktop checkout's full axe check, in English
// and Arabic, is the screen walk's: every-screen.test.ts at 1024 px).
describe('a checkout with its sections arranged', () => {
  it.each([
    ['en', [390, 1280]],
    ['ar', [320, 1280]],
  ])(
    'in %s at %j px shows the testimonials and guarantee above the plans',
    async (language, widths) => {
      const page = await openCheckout(widths[0]!, language);
      for (const [index, width] of widths.entries()) {
        await page.setViewportSize({ width, height: 900 });
        expect(await page.locator('.offer-banner').count()).toBe(0);
        const testimonials = await topOf(page, '.signup__testimonials');
        expect(testimonials).toBeLessThan(await topOf(page, '.plan-guarantee'));
        expect(await topOf(page, '.plan-guarantee')).toBeLessThan(
          await topOf(page, '[data-island="PlanChoice"]'),
        );
        // Each quote on a card of its own, as the signup screen draws them; nothing wider than
        // the window.
        expect(await arrangedLooks(page)).toEqual({ card: '12px', sideways: 0 });
        expect(await page.locator('.signup__testimonial').count()).toBe(3);
        // The plans still choose: at each width a plan not chosen yet picked by a tap.
        const option = page
          .locator('[data-island="PlanChoice"] [role="radio"]')
          .nth(1 - (index % 2));
        expect(await option.getAttribute('aria-checked')).toBe('false');
        await option.click();
        expect(await option.getAttribute('aria-checked')).toBe('true');
        if (index === 0) expect((await runAxe(page)).violations.map((v) => v.id)).toEqual([]);
        await reviewShot(page, `checkout-sections-${width}-${language}`);
      }
      await page.context().close();
    },
  );

  it('composed as a paywall of its own, in a flow, reads as one page to axe', async () => {
    const page = await openArranged(session, 'spring_paywall', 390, 'en');
    // Its own arrangement: what people say above the plans, one heading.
    await page.getByRole('region', { name: 'What people say' }).waitFor();
    expect(await topOf(page, '.signup__testimonials')).toBeLessThan(
      await topOf(page, '[data-island="PlanChoice"]'),
    );
    expect(await page.locator('h1').count()).toBe(1);
    expect(await arrangedLooks(page)).toEqual({ card: '12px', sideways: 0 });
    expect((await runAxe(page)).violations.map((v) => v.id)).toEqual([]);
    await page.context().close();
  });
});
