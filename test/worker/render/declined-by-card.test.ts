import { describe, expect, it } from 'vitest';
import { ISLAND_ATTR, ISLAND_PROPS_ATTR } from '../../../islands/protocol';
import { declineClassOf } from '../../../shared/decline-class';
import { freshApp } from '../fetch-app';
import { checkoutVisitor } from '../purchases/checkout-visitor';
import { CARDS } from '../test-gateway/gateway-client';

/**
 * 'Payment declined' as a visitor paying with the test gateway's declining cards reaches it: the
 * charge declined through the worker and the embedded portal, its decline read into a class as
 * the checkout reads it (shared/decline-class.ts; the payment store names that class in the
 * page's address, test/unit/payments/payment-store.test.ts), and the page the worker draws for it
 * with this visitor's cookies: its advice, why nothing was charged, and its actions in order.
 * Chromium walks do not honour on to the other provider's form (checkout.test.ts); what each
 * action does is test/unit/payments/declined-actions.test.tsx's.
 */

const fetchApp = freshApp({}, { PORTAL_POLLING_DELAY_MS: '0' });

/** The entities the page's text and island props are escaped with, read back. */
const unescaped = (text: string) =>
  text.replaceAll('&#x27;', "'").replaceAll('&quot;', '"').replaceAll('&amp;', '&');

/** The props of each of the page's actions (TryAgain islands), in the page's order. */
const TRY_AGAIN_PROPS = new RegExp(`${ISLAND_ATTR}="TryAgain" ${ISLAND_PROPS_ATTR}="([^"]*)"`, 'g');

/** `visitor` pays with `card` and opens the 'Payment declined' page its decline leads to. */
async function declinedPage(visitor: ReturnType<typeof checkoutVisitor>, card: string) {
  const { result } = await visitor.pay(card);
  expect(result?.status).toBe('failed');
  const decline = declineClassOf({
    declineCode: result?.decline_code ?? null,
    processorResponse: result?.processor_response ?? null,
  });
  const html = await (
    await visitor.call(`/payment_declined?skip_split=true&decline=${decline}`)
  ).text();
  return {
    decline,
    lead: unescaped(/<p class="lead">([^<]*)</.exec(html)?.[1] ?? ''),
    hints: [...html.matchAll(/class="declined__hint">([^<]*)</g)].map((m) => unescaped(m[1] ?? '')),
    /** The labels of the page's actions (its islands' buttons), in order. */
    actions: [...html.matchAll(TRY_AGAIN_PROPS)].map(
      (m) => (JSON.parse(unescaped(m[1] ?? '')) as { label: string }).label,
    ),
  };
}

/** A visitor signed up on the checkout who has fetched its payment settings, as its page does. */
async function signedUpVisitor() {
  const visitor = checkoutVisitor({ fetchApp });
  await visitor.signUp();
  await visitor.call('/api/users/me/payments-settings');
  return visitor;
}

describe("the test gateway's declining cards, each on its 'Payment declined'", () => {
  it("…0002 (do not honour): the bank's advice, and the other provider's form offered first", async () => {
    const page = await declinedPage(await signedUpVisitor(), CARDS.genericDecline);
    expect(page.decline).toBe('do_not_honour');
    expect(page.hints).toEqual(['Your bank gave no reason. Contact it, or use another card.']);
    expect(page.actions).toEqual([
      'Pay with another payment form',
      'Use another card',
      'Try again',
    ]);
  });

  it('…0069 (expired): check the card, and only another card; then …9995 (no funds): the balance advice', async () => {
    const visitor = await signedUpVisitor();
    const expired = await declinedPage(visitor, CARDS.expired);
    expect(expired.decline).toBe('card_invalid');
    expect(expired.hints[0]).toBe(
      "Check the card's number, expiry date and CVC, or use another card.",
    );
    // The same card will not pass: nothing offers it again.
    expect(expired.actions).toEqual(['Use another card']);

    const funds = await declinedPage(visitor, CARDS.insufficientFunds);
    expect(funds.decline).toBe('insufficient_funds');
    expect(funds.hints).toEqual([
      'Top up the card or raise its limit, then try again.',
      'Or pay with another card.',
    ]);
    expect(funds.actions).toEqual(['Use another card', 'Try again']);
    expect(funds.lead).toBe("Nothing was charged: the card's balance or limit was too low.");
  });
});
