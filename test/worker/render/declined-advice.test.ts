import { reset } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { freshApp } from '../fetch-app';

/**
 * 'Payment declined' as the worker draws it (no script needed, a reload shows the same): the
 * advice of the class its address names, checked against the known classes; anything else gets
 * SPEC.md §8's advice for any decline. The class goes no further than that page.
 */

afterEach(() => reset());

/** The text of each element of `className`, its entities read. */
const texts = (html: string, className: string) =>
  [...html.matchAll(new RegExp(`class="${className}">([^<]*)<`, 'g'))].map((m) =>
    m[1]?.replaceAll('&#x27;', "'"),
  );

/** The hints and the labels of the page's actions (its islands' buttons). */
async function declinedPage(query: string, language = 'en') {
  const html = await (
    await freshApp()(`/payment_declined${query}`, { headers: { 'accept-language': language } })
  ).text();
  return {
    html,
    hints: texts(html, 'declined__hint'),
    actions: [...html.matchAll(/&quot;intent&quot;:&quot;(\w+)&quot;/g)].map((m) => m[1]),
    /** Where the page's forms post and lead: none carries the class on. */
    links: [...html.matchAll(/&quot;(?:action|next)&quot;:&quot;([^&]+)&quot;/g)].map((m) => m[1]),
  };
}

describe("'Payment declined' by the class its address names", () => {
  it('an expired or invalid card: check the card, and only another card is offered', async () => {
    const page = await declinedPage('?gclid=g-1&decline=card_invalid');
    expect(page.hints).toEqual([
      "Check the card's number, expiry date and CVC, or use another card.",
      'An expired card cannot be charged: use the new one your bank sent, or another card.',
    ]);
    expect(page.actions).toEqual(['another_card']);
    expect(page.html).toContain('Nothing was charged: the card&#x27;s details were not accepted.');
    expect(page.links).toEqual(['/payment_declined?gclid=g-1', '/checkout_v3_tr?gclid=g-1']);
  });

  it('insufficient funds: the balance advice, another card first, then Try again', async () => {
    const page = await declinedPage('?decline=insufficient_funds');
    expect(page.hints[0]).toBe('Top up the card or raise its limit, then try again.');
    expect(page.actions).toEqual(['another_card', 'try_again']);
  });

  it('a card blocked as fraud: another card, and no word inviting the same card again', async () => {
    const page = await declinedPage('?decline=fraud_suspected');
    expect(page.actions).toEqual(['another_card']);
    expect(page.hints.join(' ')).not.toMatch(/try again/i);
    expect(page.html).not.toContain('Please try again');
  });

  it('failed 3-D Secure: Complete the check', async () => {
    const page = await declinedPage('?decline=authentication_failed');
    expect(page.actions).toEqual(['complete_check']);
    expect(page.html).toContain('Complete the check');
  });

  it('in German, the same advice translated', async () => {
    const page = await declinedPage('?decline=card_invalid&lang=de', 'de');
    expect(page.hints[0]).toBe(
      'Prüfe Kartennummer, Ablaufdatum und CVC oder verwende eine andere Karte.',
    );
  });

  it.each(['', '?decline=', '?decline=UNKNOWN', '?decline=constructor', '?decline=%3Cb%3E'])(
    '%s, no class or a forged one: the three hints of SPEC.md §8 and Try again',
    async (query) => {
      const page = await declinedPage(query);
      expect(page.hints).toEqual([
        'Keep a sufficient balance on the card.',
        'Ensure there are no limits on online card transactions.',
        'Contact the card issuer.',
      ]);
      expect(page.actions).toEqual(['try_again']);
    },
  );

  it('an action posted without script leads back to the paywall, the class left behind', async () => {
    const res = await freshApp()('/payment_declined?gclid=g-1&decline=card_invalid', {
      method: 'POST',
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/checkout_v3_tr?gclid=g-1');
  });
});
