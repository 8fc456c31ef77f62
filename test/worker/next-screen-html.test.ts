import { reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freshApp, ORIGIN } from './fetch-app';
import { afterPaintCode, islandProps, tagWith } from './page-html';

/**
 * Where a screen's ways on lead, as its HTML names them for the page script (which moves there
 * keeping the query, walked in Chromium by test/browser/sign-up.test.ts), and what it fetches
 * ahead for the next screen.
 */

let app = freshApp();
beforeEach(() => {
  app = freshApp();
});
afterEach(() => reset());
const QUERY = '?gclid=money';

const html = async (path: string) => (await app(path)).text();

/** The screen a Skip's form moves to with the page script. */
const skipTarget = (page: string) =>
  /data-next="([^"]+)"/.exec(tagWith(page, 'class="skip-form"'))?.[1]?.replaceAll('&amp;', '&');

describe('the money path’s ways on', () => {
  it('No, thanks on the flow’s upsell leads to the flow’s next screen', async () => {
    // The default flow: checkout_v3_tr, upsell_an_private, success.
    expect(skipTarget(await html(`/upsell_an_private${QUERY}`))).toBe(`/success${QUERY}`);
  });

  it('Skip on a screen outside the visitor’s flow leads to its registry default', async () => {
    expect(skipTarget(await html(`/upsell_guide${QUERY}`))).toBe(`/success${QUERY}`);
  });

  it('Try again, with no checkout paid on in this browser, opens the default checkout', async () => {
    const declined = await html(`/payment_declined${QUERY}`);
    expect(islandProps(declined, 'TryAgain')).toMatchObject({
      label: 'Try again',
      next: `/checkout_v3_tr${QUERY}`,
    });
  });
});

describe('the next screen’s images, fetched ahead', () => {
  it('the signup screen has the checkout’s card-brand and wallet images fetched once painted', async () => {
    const code = afterPaintCode(await html('/signup'));
    for (const name of ['visa', 'mastercard', 'apple-pay', 'google-pay', 'paypal']) {
      const href = `/img/plans/${name}.svg`;
      expect(code, name).toContain(`["link",{"rel":"prefetch","as":"image","href":"${href}"}]`);
      const image = await env.ASSETS!.fetch(`${ORIGIN}${href}`);
      expect(image.status, href).toBe(200);
      expect(image.headers.get('content-type'), href).toContain('image/svg+xml');
    }
  });
});
