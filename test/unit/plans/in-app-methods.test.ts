import { describe, expect, it } from 'vitest';
import { CHECKOUT_VARIANTS } from '../../../screens/plans/checkout-variants';
import { checkoutPaymentProps, methodsFor } from '../../../screens/plans/payment-method-props';
import type { InAppBrowser } from '../../../shared/in-app-browser';
import { SCREEN_OFFERS } from '../../../shared/plans/screen-offers';
import { renderScreenProps } from './render-screen';

/**
 * A checkout inside an ad app's own browser: the card form, which always works there, is the
 * default; wallets stay on offer but are never preselected; PayPal goes where its window opens
 * blank (TikTok on iOS). Normal browsers keep the screen's own order.
 */

const TIKTOK_IOS: InAppBrowser = { app: 'tiktok', os: 'ios' };
const TIKTOK_ANDROID: InAppBrowser = { app: 'tiktok', os: 'android' };
const INSTAGRAM_IOS: InAppBrowser = { app: 'instagram', os: 'ios' };

describe('payment methods in an in-app browser', () => {
  it('keeps every checkout as it is in a normal browser', () => {
    for (const variant of Object.values(CHECKOUT_VARIANTS)) {
      expect(methodsFor(variant.methods, null)).toEqual(variant.methods);
    }
  });

  it('puts the card first and keeps the wallet on offer, behind it', () => {
    expect(methodsFor(['wallet', 'card'], INSTAGRAM_IOS)).toEqual(['card', 'wallet']);
    expect(methodsFor(['apple_pay', 'card'], INSTAGRAM_IOS)).toEqual(['card', 'apple_pay']);
    expect(methodsFor(['card', 'wallet'], INSTAGRAM_IOS)).toEqual(['card', 'wallet']);
  });

  it('leaves PayPal out only where its window opens blank', () => {
    expect(methodsFor(['paypal', 'card'], TIKTOK_IOS)).toEqual(['card']);
    expect(methodsFor(['paypal', 'card'], TIKTOK_ANDROID)).toEqual(['card', 'paypal']);
    expect(methodsFor(['paypal', 'card'], INSTAGRAM_IOS)).toEqual(['card', 'paypal']);
  });

  it('selects the card form on every checkout screen', () => {
    for (const [screen, variant] of Object.entries(CHECKOUT_VARIANTS)) {
      const props = checkoutPaymentProps(
        {
          ...renderScreenProps(undefined, screen as keyof typeof CHECKOUT_VARIANTS),
          inApp: TIKTOK_IOS,
        },
        { layout: variant.layout, methods: variant.methods, offer: SCREEN_OFFERS.checkout_v3_tr },
      );
      expect(props.methods[0]?.id, screen).toBe('card');
      expect(
        props.methods.map((method) => method.id),
        screen,
      ).not.toContain('paypal');
    }
  });
});
