import { describe, expect, it } from 'vitest';
import {
  cataloguePriceOf,
  gclidOf,
  purchasePixelEvent,
  purchaseTrackingPayload,
} from '../../../islands/payments/purchase-tracking';

describe('purchase tracking (SPEC.md §3, §9)', () => {
  it('the pixel event name gets _test outside production only', () => {
    expect(purchasePixelEvent('Purchase', true)).toBe('Purchase');
    expect(purchasePixelEvent('Purchase', false)).toBe('Purchase_test');
    expect(purchasePixelEvent('CompletePayment', false)).toBe('CompletePayment_test');
  });

  const outcome = {
    kind: 'succeeded' as const,
    subscriptionId: 'sub_1',
    eventId: 'evt_1',
    priceWithDiscount: 4.99,
  };
  const input = {
    outcome,
    planId: 'monthly_7d_usd',
    cataloguePrice: 6.99,
    currency: 'USD',
    gclid: 'gclid-1',
    pixelEvent: 'Purchase',
    production: false,
  };

  it('carries price, currency, plan, sub_id, event_id, gclid and pixelName', () => {
    expect(purchaseTrackingPayload(input)).toEqual({
      price: 4.99,
      currency: 'USD',
      plan: 'monthly_7d_usd',
      sub_id: 'sub_1',
      event_id: 'evt_1',
      gclid: 'gclid-1',
      pixelName: 'Purchase_test',
    });
  });

  it('prices at the catalogue when the portal reported no discounted price', () => {
    const payload = purchaseTrackingPayload({
      ...input,
      outcome: { ...outcome, priceWithDiscount: null },
      production: true,
    });
    expect(payload).toMatchObject({ price: 6.99, pixelName: 'Purchase' });
  });

  it('reads gclid from the page query only, null when absent or empty', () => {
    expect(gclidOf('/checkout?flow=a&gclid=Cj0KC%2Bx')).toBe('Cj0KC+x');
    expect(gclidOf('/checkout?flow=a')).toBeNull();
    expect(gclidOf('/checkout?gclid=')).toBeNull();
    expect(gclidOf('/checkout')).toBeNull();
  });

  it("prices a plan at its first charge (periodPrice), in the plan's currency", () => {
    expect(cataloguePriceOf({ price: '39.99', periodPrice: '6.99', currency: 'EUR' })).toEqual({
      price: 6.99,
      currency: 'EUR',
    });
    expect(cataloguePriceOf({ price: '39.99', currency: 'USD' })).toEqual({
      price: 39.99,
      currency: 'USD',
    });
    expect(cataloguePriceOf({})).toEqual({ price: 0, currency: '' });
  });
});
