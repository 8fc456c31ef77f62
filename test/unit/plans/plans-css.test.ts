import { describe, expect, it } from 'vitest';
import { AFTER_CSS } from '../../../screens/after/styles';
import { PLANS_CSS } from '../../../screens/plans/styles';
import { FEATURES_WIDE_CSS } from '../../../screens/plans/styles/features';
import { CARD_FRAME_HEIGHT } from '../../../shared/test-gateway-protocol';

/**
 * The CSS as the page inlines it (screens/styles.ts joins lines the same way), with the features
 * screen's own.
 */
const css = (PLANS_CSS + AFTER_CSS + FEATURES_WIDE_CSS).replace(/\s*\n\s*/g, '');

/** The declarations of the rule whose selector is exactly `selector`. */
function rule(selector: string): Record<string, string> {
  const escaped = selector.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = css.match(new RegExp(`(?:^|})${escaped}\\{([^}]*)\\}`));
  if (!match) throw new Error(`no rule for ${selector}`);
  return Object.fromEntries(
    match[1]!
      .split(';')
      .filter(Boolean)
      .map((declaration) => {
        const at = declaration.indexOf(':');
        return [declaration.slice(0, at), declaration.slice(at + 1)];
      }),
  );
}

/** Each class belongs to one component of these areas, so it cannot collide with another's. */
const BLOCKS = [
  'plan-picker',
  'plan-choice',
  'order-summary',
  'checkout-callout',
  'payment-methods',
  'card-form',
  // The card provider's own elements: the test gateway's frame and sheet, Stripe's and
  // Braintree's field slots (islands/payments/providers/).
  'card-frame',
  'card-field',
  'tgw-challenge',
  'plan-guarantee',
  'payment-trust',
  'plan-benefits',
  'plan-features',
  'features',
  'upsell',
  'guide-offer',
  'skip-form',
  // The payment receipt (checkout dialog, success summary) and the upsell's 'charged now'.
  'receipt',
  'upsell-charge',
  'success',
  'declined',
  'test-notice',
  'test-screen',
  // The way out of an ad app's browser (screens/kit/styles/open-in-browser.ts).
  'in-app-way-out',
  'open-in-browser',
  // The screens' own sections and the kit's page, which the desktop layout widens around them
  // (screens/plans/styles/desktop.ts).
  'checkout',
  'paywall',
  'page',
  // The pay card: the amount, the renewal consent and the terms beside Pay (islands/kit/PayTerms.tsx).
  'pay-card',
  // The kit's own pieces, placed in a screen's layout: the pinned Continue (on features), the lead paragraph,
  // the primary button and a form of one button (screens/kit/).
  'bottom-button',
  'lead',
  'button',
  // The paywall's call to action in place of the payment form (islands/CheckoutPayment.tsx).
  'continue-form',
];

describe('plans and after CSS', () => {
  it('takes every colour from the theme tokens, so the four themes need no markup change', () => {
    // But the kit's error red (the email input's), which reads as an error in every theme.
    const literals = css.match(/#[0-9a-f]{3,8}\b|rgba?\([^)]*\)|hsla?\([^)]*\)/gi) ?? [];
    expect(literals.filter((colour) => colour !== '#b42318')).toEqual([]);
    const tokens = new Set(css.match(/var\(--[a-z-]+\)/g));
    for (const token of tokens) {
      expect([
        '--brand',
        '--brand-ink',
        '--ink',
        '--muted',
        '--surface',
        '--canvas',
        '--font',
      ]).toContain(token.slice(4, -1));
    }
  });

  it('uses logical properties for sides, so right-to-left pages mirror', () => {
    expect(css).not.toMatch(/(margin|padding|border)-(left|right)\b|[{;](left|right):/);
    expect(css).not.toMatch(/text-align:(left|right)/);
  });

  it('prefixes every class with its component', () => {
    const classes = new Set([...css.matchAll(/\.([a-z][\w-]*)/g)].map((m) => m[1]!));
    const stray = [...classes].filter(
      (name) =>
        !BLOCKS.some(
          (block) =>
            name === block || name.startsWith(`${block}__`) || name.startsWith(`${block}--`),
        ),
    );
    expect(stray).toEqual([]);
  });

  it('draws a plan item 82px high (2px border included) with an 18px label bar (SPEC.md §9)', () => {
    expect(rule('.plan-picker__label').height).toBe('18px');
    const body = Number.parseInt(rule('.plan-picker__body').height!, 10);
    const border = Number.parseInt(rule('.plan-picker__item').border!, 10);
    expect(body + 2 * border).toBe(82);
  });

  it('keeps the split price left to right in right-to-left pages', () => {
    expect(rule('.plan-picker__amount').direction).toBe('ltr');
  });

  it('sets the h3 method tabs 5px apart, as the segmented gap of SPEC.md §9', () => {
    expect(rule('.payment-methods--horizontal .payment-methods__options').gap).toBe('5px');
  });

  it("keeps PayPal's 45px button room, so nothing moves when its iframe arrives", () => {
    expect(rule('.payment-methods__paypal')['min-height']).toBe('45px');
  });

  it("reserves the card fields' height and draws the test gateway's frame without a border", () => {
    // The frame reaches 3px past the column on every side: room for its fields' focus ring.
    expect(rule('.card-form__body--reserved')['min-height']).toBe(`${CARD_FRAME_HEIGHT - 6}px`);
    expect(rule('.card-frame')).toMatchObject({
      width: 'calc(100% + 6px)',
      height: `${CARD_FRAME_HEIGHT}px`,
      margin: '-3px',
      border: '0',
    });
  });

  it('spans the wallet button across the form like Pay, leaving [hidden] to hide both slots', () => {
    expect(rule('.payment-methods__wallet').width).toBe('100%');
    expect(css).not.toMatch(/\.payment-methods__(paypal|wallet)\{[^}]*display:/);
  });

  it('makes card fields as high as the phone input (51px) and the radius 12px (SPEC.md §9)', () => {
    expect(rule('.card-form__input').height).toBe('51px');
    expect(rule('.card-form__input')['border-radius']).toBe('12px');
    expect(rule('.plan-picker__item')['border-radius']).toBe('12px');
  });
});
