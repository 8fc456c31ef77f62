// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import PaymentReceipt, { type PaymentReceiptProps } from '../../../islands/PaymentReceipt';
import { $receipts, type Receipt } from '../../../islands/stores/receipt';
import { islandProps, renderScreen } from './render-screen';

/**
 * Success's order summary as a visitor reads it: a purchase whose renewal the visitor ticked the
 * box for says on which day they agreed, in the page's language; one that asked no consent (a
 * visitor outside the US, a receipt kept before the row existed) says nothing of it.
 */

const props = islandProps<PaymentReceiptProps>(
  (await renderScreen('success', { next: null, country: 'US' })).document,
  'PaymentReceipt',
);

const trial: Receipt = {
  planId: 'monthly_7d_intro_usd',
  subscriptionId: 'sub_main',
  amount: 699,
  currency: 'USD',
  renewsAt: '2026-12-04T10:00:00.000Z',
  renewalAmount: 3999,
  email: 'anna@example.com',
  paidWith: { kind: 'card', brand: 'visa', last4: '4242' },
  renewalAgreedAt: '2026-11-27T10:00:00.000Z',
};
const upsell: Receipt = {
  ...trial,
  planId: 'upsell_quarterly_599_usd',
  subscriptionId: 'sub_up',
  amount: 599,
  renewsAt: '2027-02-27T10:05:00.000Z',
  renewalAmount: 599,
  renewalAgreedAt: null,
};

/** Each purchase's list as label → value. */
function purchaseLists(): Record<string, string>[] {
  return [...document.querySelectorAll('.receipt__rows')].map((list) =>
    Object.fromEntries(
      [...list.querySelectorAll('.receipt__row')].map((row) => [
        row.querySelector('dt')?.textContent ?? '',
        row.querySelector('dd bdi')?.textContent ?? '',
      ]),
    ),
  );
}

afterEach(() => {
  cleanup();
  $receipts.set({ main: null, added: [] });
});

describe('the receipt repeats the renewal consent', () => {
  it('names the day for the purchase agreed to, and nothing for one that asked none', async () => {
    $receipts.set({ main: trial, added: [upsell] });
    render(<PaymentReceipt {...props} />);
    await screen.findByRole('region', { name: 'Your order' });
    const [main, added] = purchaseLists();
    expect(main).toMatchObject({ 'Renews on': 'December 4, 2026' });
    expect(main?.['Renewal agreed on']).toBe('November 27, 2026');
    expect(added).toMatchObject({ 'Renews on': 'February 27, 2027' });
    expect(added).not.toHaveProperty('Renewal agreed on');
  });

  it('a receipt kept before the consent was recorded shows no such row', async () => {
    const { renewalAgreedAt: _, ...older } = trial;
    $receipts.set({ main: older, added: [] });
    render(<PaymentReceipt {...props} />);
    await screen.findByRole('region', { name: 'Your order' });
    expect(purchaseLists()[0]).not.toHaveProperty('Renewal agreed on');
  });

  it('writes the day in the page’s language, as the renewal day', async () => {
    $receipts.set({ main: trial, added: [] });
    render(
      <PaymentReceipt {...props} language="de" copy={{ ...props.copy, renewalAgreed: 'X' }} />,
    );
    await screen.findByRole('region');
    expect(purchaseLists()[0]?.X).toBe('27. November 2026');
  });
});

describe('the receipt’s way to the subscriber’s page', () => {
  it('links "Manage or cancel your subscription" to the worker’s manage link', async () => {
    const manageUrl = `${location.origin}/subscription/manage.c3ViX21haW4.1800000000.${'a'.repeat(32)}.sig`;
    $receipts.set({ main: { ...trial, manageUrl }, added: [] });
    render(<PaymentReceipt {...props} />);
    const link = await screen.findByRole('link', { name: 'Manage or cancel your subscription' });
    expect(link.getAttribute('href')).toBe(manageUrl);
    // The words above it name the web first, where the link is.
    expect(document.querySelector('.receipt__cancel')?.textContent).toMatch(
      /^Cancel anytime online with the link below, in the app's account settings/,
    );
  });

  it('shows no link for a receipt without one, or one that leads elsewhere', async () => {
    for (const manageUrl of [
      null,
      'https://evil.example/subscription/x',
      `${location.origin}/signup`,
    ]) {
      $receipts.set({ main: { ...trial, manageUrl }, added: [] });
      render(<PaymentReceipt {...props} />);
      await screen.findByRole('region', { name: 'Your order' });
      expect(screen.queryByRole('link', { name: /Manage or cancel/ })).toBeNull();
      expect(document.querySelector('.receipt__cancel')?.textContent).toMatch(
        /^Cancel anytime in the app's account settings/,
      );
      cleanup();
    }
  });
});
