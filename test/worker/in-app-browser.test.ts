import { describe, expect, it } from 'vitest';
import { IN_APP_USER_AGENTS, NORMAL_USER_AGENTS } from '../fixtures/in-app-user-agents';
import { captureLogsPerTest } from './api/log-capture';
import { freshApp } from './fetch-app';
import { islandProps, pageStateOf } from './page-html';

/**
 * A page opened inside an ad app's own browser: the worker tells which app and OS, the page
 * state and the request's log line carry it, the sign-up screen offers the email form without a
 * Google button that Google would refuse there, and a checkout whose wallets or PayPal may fail
 * there offers the way out.
 */

const logs = captureLogsPerTest();

const INSTAGRAM_IOS = IN_APP_USER_AGENTS.instagram.ios[0] ?? '';
const TIKTOK_ANDROID = IN_APP_USER_AGENTS.tiktok.android[0] ?? '';
const SAFARI = NORMAL_USER_AGENTS['iOS Safari'] ?? '';

async function signup(userAgent: string, headers: Record<string, string> = {}) {
  const response = await freshApp({}, { GOOGLE_CLIENT_ID: 'client.apps.googleusercontent.com' })(
    '/signup',
    { headers: { 'user-agent': userAgent, 'cf-ipcountry': 'US', ...headers } },
  );
  expect(response.status).toBe(200);
  const body = await response.text();
  const state = pageStateOf(body);
  return { body, state };
}

describe('a page in an in-app browser', () => {
  it('tells the page which app and OS, and names them on the log line', async () => {
    const { state } = await signup(INSTAGRAM_IOS);
    expect(state.inApp).toEqual({ app: 'instagram', os: 'ios' });
    expect(logs.requests().find((line) => line.screen === 'signup')?.in_app).toBe('instagram_ios');
  });

  it('takes the OS from the platform hint where the browser sends one', async () => {
    const { state } = await signup(TIKTOK_ANDROID, { 'sec-ch-ua-platform': '"Android"' });
    expect(state.inApp).toEqual({ app: 'tiktok', os: 'android' });
  });

  it('offers no Google button on the sign-up screen, and says why in the page language', async () => {
    const { body } = await signup(INSTAGRAM_IOS, { 'accept-language': 'de' });
    expect(body).not.toContain('data-island="GoogleSignIn"');
    expect(body).toContain(
      'Die Anmeldung mit Google funktioniert in Instagram nicht: Registriere dich mit deiner E-Mail-Adresse oder öffne diese Seite in deinem Browser.',
    );
    expect(body).toContain('data-island="SignupForm"');
    // The way out to the real browser, in the visitor's language.
    expect(body).toContain('data-island="OpenInBrowser"');
    expect(body).toContain('Im Browser öffnen');
    // Nor is Google's module fetched for a button that is not there.
    expect(body).not.toMatch(/GoogleSignIn-[\w-]+\.js/);
  });

  it('selects the card on a checkout and offers no PayPal where its window opens blank', async () => {
    const checkout = async (userAgent: string) => {
      // A deployment that turned PayPal on (SPEC.md §9: off unless listed).
      const payPalOn = { PAYMENT_PROVIDERS: 'stripe,braintree,paypal' };
      const response = await freshApp({}, payPalOn)('/checkout_h3_pp_braintree', {
        headers: { 'user-agent': userAgent, 'cf-ipcountry': 'US' },
      });
      const body = await response.text();
      const marker = /data-island="CheckoutPayment" data-props="([^"]*)"/.exec(body)?.[1] ?? '';
      const props = JSON.parse(marker.replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
      return {
        body,
        methods: props.methods.map((m: { id: string }) => m.id),
      };
    };
    const inTikTok = await checkout(IN_APP_USER_AGENTS.tiktok.ios[0] ?? '');
    expect(inTikTok).toMatchObject({ methods: ['card'] });
    // Nor PayPal's logo beside the guarantee.
    expect(inTikTok.body).not.toContain('/img/kit/paypal.svg');
    // PayPal is one way out away: the real browser, signed in by the link, offers it.
    expect(inTikTok.body).toContain('data-island="OpenInBrowser"');
    expect(inTikTok.body).toContain(
      'Apple Pay, Google Pay and PayPal may not work inside TikTok: pay by card here, or open this page in your browser.',
    );
    const inSafari = await checkout(SAFARI);
    expect(inSafari).toMatchObject({ methods: ['paypal', 'card'] });
    expect(inSafari.body).toContain('/img/kit/paypal.svg');
    expect(inSafari.body).not.toContain('data-island="OpenInBrowser"');
  });

  it('offers the card alone on a checkout whose first method is a wallet elsewhere', async () => {
    const methods = async (userAgent: string) => {
      const response = await freshApp()('/checkout_h3_pp', {
        headers: { 'user-agent': userAgent, 'cf-ipcountry': 'US' },
      });
      const props = islandProps(await response.text(), 'CheckoutPayment') as {
        methods: { id: string }[];
      };
      return props.methods.map((method) => method.id);
    };
    // The card first: its form shows from the first paint, and no one-click group before a
    // provider says the browser has a wallet (test/unit/plans/checkout-payment.test.tsx).
    expect(await methods(INSTAGRAM_IOS)).toEqual(['card', 'wallet']);
    expect(await methods(SAFARI)).toEqual(['wallet', 'card']);
  });

  it('names only the wallets where the deployment offers no PayPal (SPEC.md §9: off by default)', async () => {
    const response = await freshApp()('/checkout_v3_tr', {
      headers: { 'user-agent': TIKTOK_ANDROID, 'cf-ipcountry': 'US' },
    });
    const body = await response.text();
    expect(body).toContain(
      'Apple Pay and Google Pay may not work inside TikTok: pay by card here, or open this page in your browser.',
    );
    expect(body).not.toContain('PayPal may not work');
  });

  it('offers no way out on a checkout that takes the card alone, which works in the app', async () => {
    const response = await freshApp()('/paycheck1_pr5_h_win', {
      headers: { 'user-agent': INSTAGRAM_IOS, 'cf-ipcountry': 'US' },
    });
    const body = await response.text();
    expect(body).toContain('data-island="CheckoutPayment"');
    expect(body).not.toContain('data-island="OpenInBrowser"');
  });

  it('leaves a normal browser as it was: Google offered, no note, no in-app fact', async () => {
    const { body, state } = await signup(SAFARI);
    expect(state.inApp).toBeNull();
    expect(body).toContain('data-island="GoogleSignIn"');
    expect(body).not.toContain('data-island="OpenInBrowser"');
    expect(logs.requests().find((line) => line.screen === 'signup')).not.toHaveProperty('in_app');
  });
});
