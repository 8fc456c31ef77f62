import { describe, expect, it } from 'vitest';
import type { ClickProperties } from '../../../islands/analytics/clicks';
import {
  clickEvents,
  isPaywall,
  loadEvents,
  purchaseEvent,
} from '../../../islands/analytics/page-events';
import type { PurchaseTrackingPayload } from '../../../islands/payments/purchase-tracking';
import { FUNNEL_EVENTS, GENERIC_EVENTS } from '../../../shared/analytics/catalogue';
import { SCREEN_IDS } from '../../../shared/screens';

/** SPEC.md §4 Analytics events: what a page load, a click and a purchase emit. */

const click = (overrides: Partial<ClickProperties> = {}): ClickProperties => ({
  element_id: '',
  element_tag: 'button',
  element_role: 'button',
  element_text: 'Show plans',
  ...overrides,
});

describe('a page load', () => {
  it('emits load, screen__load and the screen’s own load event', () => {
    expect(loadEvents('one_pager')).toEqual(['load', 'screen__load', 'one_pager__load']);
    expect(loadEvents('auto-signup')).toEqual(['load', 'screen__load', 'auto-signup__load']);
  });

  it('on a checkout or paywall also emits checkout_screen_load and subs_purchase_show', () => {
    expect(loadEvents('paycheck1_pr5_h_win')).toEqual([
      'load',
      'screen__load',
      'paycheck1_pr5_h_win__load',
      'checkout_screen_load',
      'subs_purchase_show',
    ]);
    expect(loadEvents('upsell_an_private')).not.toContain('subs_purchase_show');
  });

  it('no load emits payment_successful_popup: the checkout’s receipt dialog does', () => {
    expect(loadEvents('success')).toEqual(['load', 'screen__load', 'success__load']);
    for (const screen of SCREEN_IDS)
      expect(loadEvents(screen)).not.toContain('payment_successful_popup');
  });

  it.each(['checkout_v3_tr', 'checkout_h3_pp_braintree', 'paycheck_combo_3d', 'checkout-test'])(
    '%s is a paywall',
    (screen) => expect(isPaywall(screen)).toBe(true),
  );

  it.each(['one_pager', 'searching', 'signup', 'upsell_guide', 'success', 'payment_declined'])(
    '%s is not a paywall',
    (screen) => expect(isPaywall(screen)).toBe(false),
  );

  it('names only catalogue events', () => {
    const catalogue = new Set<string>([...FUNNEL_EVENTS, ...GENERIC_EVENTS]);
    for (const screen of SCREEN_IDS) {
      for (const name of loadEvents(screen)) {
        expect(catalogue.has(name) || name === `${screen}__load`, name).toBe(true);
      }
    }
  });
});

describe('a click on a control', () => {
  it('emits click and the screen’s own click event', () => {
    expect(clickEvents('signup', click())).toEqual(['click', 'signup__click']);
  });

  it('on the Continue button also emits button__continue', () => {
    expect(clickEvents('searching', click({ element_id: 'continue-button' }))).toEqual([
      'click',
      'searching__click',
      'button__continue',
    ]);
  });

  it('on a link also emits link__redirect', () => {
    expect(
      clickEvents('success', click({ element_tag: 'a', element_role: 'link', link_path: '/app' })),
    ).toEqual(['click', 'success__click', 'link__redirect']);
  });

  it('on a control marked button__scroll or option__redirect also emits that event', () => {
    expect(clickEvents('paycheck1_pr5_h_win', click({ element_event: 'button__scroll' }))).toEqual([
      'click',
      'paycheck1_pr5_h_win__click',
      'button__scroll',
    ]);
    expect(
      clickEvents('features', click({ element_role: 'radio', element_event: 'option__redirect' })),
    ).toEqual(['click', 'features__click', 'option__redirect']);
  });

  it('ignores any other name a data-event attribute carries', () => {
    expect(clickEvents('signup', click({ element_event: 'subs_purchase_completed' }))).toEqual([
      'click',
      'signup__click',
    ]);
  });
});

describe('a purchase handed over by the payment', () => {
  const payload = (plan: string): PurchaseTrackingPayload => ({
    price: 6.99,
    currency: 'USD',
    plan,
    sub_id: 'sub_1',
    event_id: 'evt_1',
    gclid: 'g-1',
    pixelName: 'Purchase_test',
  });

  it('is subs_purchase_completed for a main plan, with the SPEC.md §3 payload as properties', () => {
    expect(purchaseEvent(payload('monthly_7d_intro_usd'))).toEqual({
      name: 'subs_purchase_completed',
      properties: payload('monthly_7d_intro_usd'),
    });
  });

  it('is upsell_purchase_completed for the upsells and the guide', () => {
    expect(purchaseEvent(payload('upsell_monthly_999_eur')).name).toBe('upsell_purchase_completed');
    expect(purchaseEvent(payload('guide_1799_usd')).name).toBe('upsell_purchase_completed');
  });

  it('counts a plan the catalogue does not know as the subscription', () => {
    expect(purchaseEvent(payload('legacy_plan')).name).toBe('subs_purchase_completed');
  });
});
