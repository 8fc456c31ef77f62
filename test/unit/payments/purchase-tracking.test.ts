import { describe, expect, it } from 'vitest';
import {
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
});
