// @vitest-environment happy-dom
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CheckoutPaymentProps } from '../../../islands/CheckoutPayment';
import { type PaymentReceiptProps, PRICE_SLOT } from '../../../islands/PaymentReceipt';
import type { PlanChoiceProps } from '../../../islands/PlanChoice';
import type { UpsellPurchaseProps } from '../../../islands/UpsellPurchase';
import { AFTER_SCREENS } from '../../../screens/after';
import { PLANS_SCREENS } from '../../../screens/plans';
import { SCREENS } from '../../../screens/registry';
import { DEFAULT_BRANDS } from '../../../shared/brand';
import { RENEWAL_CONSENT_VERSION } from '../../../shared/plans/renewal-consent';
import type { ScreenId } from '../../../shared/screens';
import { islandProps, renderScreen, textOf } from './render-screen';

const OWN_SCREENS = [...Object.keys(PLANS_SCREENS), ...Object.keys(AFTER_SCREENS)] as ScreenId[];
const CHECKOUTS = [
  'checkout_v3_tr',
  'checkout_h3_pp',
  'checkout_v3_pp',
  'checkout_h3_pp_braintree',
] as const;
const PRICED = [
  ...CHECKOUTS,
  'paycheck1_pr5_h_win',
  'paycheck1_pr5_h_ai',
  'paycheck_combo_3d',
  'upsell_an_private',
  'upsell_guide',
  'checkout-test',
] as const;

/** Every price a visitor reads on the page: text and island props alike. */
async function pricesOn(screen: ScreenId, country: string, language = 'en'): Promise<string[]> {
  const { document } = await renderScreen(screen, { country, language });
  // Text node by text node: the big price's sign, set after its amount, must not run into the
  // spoken price that follows it.
  const walker = document.createTreeWalker(document.body, 4 /* NodeFilter.SHOW_TEXT */);
  const pieces: string[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode())
    pieces.push(node.textContent ?? '');
  const text = pieces.join('|').replace(/[\u00a0\u202f]/g, ' ');
  return [...text.matchAll(/(?:[$€]\s?\d+[.,]\d\d)|(?:\d+[.,]\d\d\s?[$€])/g)].map((m) => m[0]);
}

describe('every plans and after screen', () => {
  it.each(OWN_SCREENS)('%s has one heading and one continue-button', async (screen) => {
    const { document } = await renderScreen(screen);
    expect(document.querySelectorAll('h1')).toHaveLength(1);
    expect(document.querySelector('h1')?.id).toBe('screen-title');
    expect(document.querySelectorAll('#continue-button')).toHaveLength(1);
  });

  it('only the features screen moves on by itself; no screen that takes money does', async () => {
    for (const screen of OWN_SCREENS) {
      const { document } = await renderScreen(screen);
      const button = document.getElementById('continue-button') as HTMLButtonElement;
      const movesOn = button.form?.dataset.next !== undefined;
      expect(movesOn, screen).toBe(screen === 'features');
    }
  });

  it('the checkout card form offers no card field of our own: the provider mounts them, Pay waits', async () => {
    for (const screen of [...CHECKOUTS, 'checkout-test'] as const) {
      const { document } = await renderScreen(screen);
      const pay = document.getElementById('continue-button') as HTMLButtonElement;
      // Pay names what a press takes now, for the plan preselected above (the 7-day intro).
      expect(pay.textContent, screen).toBe('Start trial for $6.99');
      expect(pay.disabled, screen).toBe(true);
      expect(document.querySelector('input[autocomplete="cc-number"]'), screen).toBeNull();
      expect(document.querySelector('.card-form__provider'), screen).not.toBeNull();
    }
  });

  it.each(OWN_SCREENS)('%s shows no untranslated key', async (screen) => {
    const { html } = await renderScreen(screen);
    expect(html).not.toMatch(/\b(plans|after|kit|i18n|screens)\.[a-z_]+[.a-z_]*/);
  });

  it('keeps the offFlowNext of every screen', () => {
    expect(Object.fromEntries(OWN_SCREENS.map((id) => [id, SCREENS[id].offFlowNext]))).toEqual({
      features: 'checkout_v3_tr',
      checkout_v3_tr: 'upsell_an_private',
      checkout_h3_pp: 'upsell_an_private',
      checkout_v3_pp: 'upsell_an_private',
      checkout_h3_pp_braintree: 'upsell_an_private',
      paycheck1_pr5_h_win: 'upsell_an_private',
      paycheck1_pr5_h_ai: 'upsell_an_private',
      paycheck_combo_3d: 'upsell_an_private',
      upsell_an_private: 'upsell_guide',
      upsell_guide: 'success',
      'checkout-test': 'success',
      success: null,
      payment_declined: 'checkout_v3_tr',
      'auto-signup': 'checkout-test',
    });
  });
});

describe('prices in the visitor currency (SPEC.md §3)', () => {
  it.each(PRICED)('%s shows dollars to a US visitor', async (screen) => {
    const prices = await pricesOn(screen, 'US');
    expect(prices.length).toBeGreaterThan(0);
    expect(prices.every((price) => price.startsWith('$'))).toBe(true);
  });

  it.each(PRICED)('%s shows euros, written the German way, to a German visitor', async (screen) => {
    const prices = await pricesOn(screen, 'DE', 'de');
    expect(prices.length).toBeGreaterThan(0);
    expect(prices.every((price) => /^\d+,\d\d €$/.test(price))).toBe(true);
  });

  it('shows dollars when the country is unknown', async () => {
    expect((await pricesOn('checkout_v3_tr', '')).every((price) => price.startsWith('$'))).toBe(
      true,
    );
  });
});

describe('paywalls and checkouts', () => {
  it.each([
    ...CHECKOUTS,
    'paycheck1_pr5_h_win',
    'paycheck1_pr5_h_ai',
    'paycheck_combo_3d',
  ] as const)("%s shows the 5-minute 'offer ends in' countdown", async (screen) => {
    const { document } = await renderScreen(screen);
    const banner = document.querySelector('.offer-banner');
    expect(textOf(banner?.querySelector('.offer-banner__label'))).toBe('Offer ends in');
    expect(textOf(banner?.querySelector('[role="timer"]'))).toBe('05:00');
  });

  it.each([...CHECKOUTS, 'paycheck_combo_3d', 'checkout-test'] as const)(
    '%s lists its card-brand and wallet images for the screen before to prefetch',
    async (screen) => {
      const images = SCREENS[screen].images ?? [];
      for (const name of ['visa', 'mastercard', 'apple-pay', 'google-pay', 'paypal']) {
        expect(images, name).toContain(`/img/plans/${name}.svg`);
      }
      expect(images.some((src) => src.startsWith('/img/kit/'))).toBe(true);
      const { document } = await renderScreen(screen);
      for (const img of document.querySelectorAll('img')) {
        expect(images).toContain(img.getAttribute('src'));
      }
      for (const src of images) expect(existsSync(`public${src}`), src).toBe(true);
    },
  );

  it.each(CHECKOUTS)('%s states the intro price, then the recurring one', async (screen) => {
    const { document } = await renderScreen(screen);
    expect(textOf(document.querySelector('.plan-choice__disclosure'))).toBe(
      '$6.99 for the first 7 days, then $39.99 every month. Cancel anytime.',
    );
    expect(textOf(document.querySelector('.order-summary__row--total'))).toBe('Total today$6.99');
    // A trial is struck from nothing: 7 days at the monthly rate is a price nobody pays.
    expect(document.querySelector('.order-summary__row--discount')).toBeNull();
  });

  it.each(CHECKOUTS)(
    '%s sells the regular prices once the offer ended, and says so',
    async (screen) => {
      const { document } = await renderScreen(screen, { offerClock: { state: 'ended' } });
      expect(textOf(document.querySelector('.offer-banner'))).toBe('This offer has ended');
      const choice = islandProps<PlanChoiceProps>(document, 'PlanChoice');
      expect(choice.options.map((option) => option.id)).toEqual(['monthly_usd', 'quarterly_usd']);
      expect(choice.afterOffer).toBeUndefined();
      expect(textOf(document.querySelector('.order-summary__row--total'))).toBe(
        'Total today$39.99',
      );
      expect(document.querySelector('.checkout-callout')).toBeNull();
    },
  );

  it.each(['paycheck1_pr5_h_win', 'paycheck1_pr5_h_ai', 'paycheck_combo_3d'] as const)(
    '%s words Pay for the regular plan the picker shows at zero',
    async (screen) => {
      // These sell trials only: at zero the open page switches to the monthly plan they renew
      // into, and Pay must name its $39.99, not the trial's amount it no longer charges.
      const { document } = await renderScreen(screen);
      const { terms } = islandProps<CheckoutPaymentProps>(document, 'CheckoutPayment');
      expect(islandProps<PlanChoiceProps>(document, 'PlanChoice').afterOffer?.defaultId).toBe(
        'monthly_usd',
      );
      expect(terms.plans.monthly_usd?.pay).toBe('Pay $39.99');
    },
  );

  it.each([
    ['GB', 'monthly_gbp', '£34.99'],
    ['JP', 'monthly_jpy', '¥5,800'],
    ['SE', 'monthly_sek', 'SEK 399'],
  ])(
    'ends the intro offer at zero in the currency of a visitor from %s',
    async (country, id, total) => {
      const { document } = await renderScreen('paycheck1_pr5_h_win', {
        country,
        offerClock: { state: 'ended' },
      });
      const choice = islandProps<PlanChoiceProps>(document, 'PlanChoice');
      expect(choice.options.map((option) => option.id)).toEqual([id]);
      expect(choice.options[0]?.summary.total.replace(/\s/g, ' ')).toBe(total);
      expect(choice.options[0]?.summary.discount).toBeNull();
    },
  );

  it('shows no countdown where the route or variant turned it off', async () => {
    const { document } = await renderScreen('checkout_v3_tr', { offerClock: { state: 'off' } });
    expect(document.querySelector('.offer-banner')).toBeNull();
    expect(islandProps<PlanChoiceProps>(document, 'PlanChoice').afterOffer).toBeUndefined();
  });

  it('tells the checkout variants apart as their names say, PayPal on', async () => {
    const look = async (screen: (typeof CHECKOUTS)[number]) => {
      const { document } = await renderScreen(screen, { paypal: true });
      const methods = islandProps<CheckoutPaymentProps>(document, 'CheckoutPayment');
      return {
        layout: methods.layout,
        methods: methods.methods.map((method) => method.id),
        headline: textOf(document.querySelector('.checkout-callout__title')),
      };
    };
    expect(await look('checkout_v3_tr')).toEqual({
      layout: 'vertical',
      methods: ['card', 'wallet'],
      headline: 'A trial of 7 days',
    });
    expect(await look('checkout_h3_pp')).toEqual({
      layout: 'horizontal',
      methods: ['wallet', 'card'],
      // Its trial: no headline promises a wallet the browser may not have.
      headline: 'A trial of 7 days',
    });
    expect(await look('checkout_v3_pp')).toEqual({
      layout: 'vertical',
      methods: ['wallet', 'card'],
      // Its trial: no headline promises a wallet the browser may not have.
      headline: 'A trial of 7 days',
    });
    expect(await look('checkout_h3_pp_braintree')).toEqual({
      layout: 'horizontal',
      methods: ['paypal', 'card'],
      headline: 'Pay with PayPal or by card',
    });
  });

  it('opens checkout_h3_pp_braintree on the card where PayPal is off (SPEC.md §9)', async () => {
    const { document } = await renderScreen('checkout_h3_pp_braintree');
    const payment = islandProps<CheckoutPaymentProps>(document, 'CheckoutPayment');
    expect(payment.methods.map((method) => method.id)).toEqual(['card']);
    expect(payment.forceDirect).toBe(true);
    expect(textOf(document.querySelector('.checkout-callout__title'))).toBe('A trial of 7 days');
    expect(textOf(document.querySelector('.lead'))).toBe('Pay securely by card.');
    expect(document.querySelector('img[src="/img/kit/paypal.svg"]')).toBeNull();
    // The other checkouts never offered PayPal: the same with it on or off.
    for (const screen of ['checkout_v3_tr', 'checkout_h3_pp', 'checkout_v3_pp'] as const) {
      expect((await renderScreen(screen)).html, screen).toBe(
        (await renderScreen(screen, { paypal: true })).html,
      );
    }
  });

  it.each([
    ...CHECKOUTS,
    'paycheck1_pr5_h_win',
    'paycheck1_pr5_h_ai',
    'paycheck_combo_3d',
  ] as const)(
    '%s draws the guarantee seal in the page, hidden from screen readers, with nothing to fetch',
    async (screen) => {
      const { document } = await renderScreen(screen);
      const guarantee = document.querySelector('.plan-guarantee');
      expect(textOf(guarantee)).toContain('100% money-back guarantee');
      const seal = guarantee?.querySelector('svg.plan-guarantee__badge');
      expect(seal?.getAttribute('aria-hidden')).toBe('true');
      expect(seal?.getAttribute('width')).toBe('56');
      expect(guarantee?.querySelectorAll('img, image, use')).toHaveLength(0);
      expect(existsSync('public/img/plans/guarantee.svg')).toBe(false);
    },
  );

  it.each(['paycheck1_pr5_h_win', 'paycheck1_pr5_h_ai'] as const)(
    '%s offers the intro plans',
    async (screen) => {
      const { document } = await renderScreen(screen);
      const choice = islandProps<PlanChoiceProps>(document, 'PlanChoice');
      expect(choice.options.map((option) => option.id)).toEqual([
        'monthly_7d_intro_usd',
        'monthly_5d_intro_usd',
        'monthly_3d_intro_usd',
      ]);
      expect(choice.options.map((option) => option.fullPrice)).toEqual(['$6.99', '$4.99', '$2.99']);
    },
  );

  it('words the AI paywall around AI-powered location', async () => {
    const ai = textOf(
      (await renderScreen('paycheck1_pr5_h_ai')).document.querySelector('.plan-benefits'),
    );
    const win = textOf(
      (await renderScreen('paycheck1_pr5_h_win')).document.querySelector('.plan-benefits'),
    );
    expect(ai).toMatch(/\bAI\b/);
    expect(win).not.toMatch(/\bAI\b/);
  });

  it('the 3-day combo paywall sells the 3-day intro plan, Apple Pay first, then the card', async () => {
    const { document } = await renderScreen('paycheck_combo_3d');
    const choice = islandProps<PlanChoiceProps>(document, 'PlanChoice');
    expect(choice.options.map((option) => option.id)).toEqual(['monthly_3d_intro_usd']);
    expect(textOf(document.querySelector('.plan-choice__disclosure'))).toBe(
      '$2.99 for the first 3 days, then $39.99 every month. Cancel anytime.',
    );
    const methods = islandProps<CheckoutPaymentProps>(document, 'CheckoutPayment');
    expect(methods.methods.map((method) => method.id)).toEqual(['apple_pay', 'card']);
  });
});

describe('upsells', () => {
  it('anonymous mode and private chat: 30% off, monthly or quarterly, kept as the upsell plan', async () => {
    const { document } = await renderScreen('upsell_an_private');
    const choice = islandProps<PlanChoiceProps>(document, 'PlanChoice');
    expect(choice.slot).toBe('upsellPlan');
    expect(choice.options.map((o) => [o.duration, o.oldFullPrice, o.fullPrice, o.label])).toEqual([
      // The two cost the same per period: each total names its period.
      ['1-month plan', '$9.99', '$6.99 every month', '30% off'],
      ['3-month plan', '$9.99', '$6.99 every 3 months', '30% off'],
    ]);
    // What a press charges now, per offer; the browser names the card in the slot.
    const purchase = islandProps<UpsellPurchaseProps>(document, 'UpsellPurchase');
    expect(purchase.copy.chargeNow).toEqual({
      upsell_monthly_999_usd:
        '$6.99 is charged now to {{method}}, then $6.99 every month until you cancel.',
      upsell_quarterly_999_usd:
        '$6.99 is charged now to {{method}}, then $6.99 every 3 months until you cancel.',
    });
    // Its button names the same amount, the default offer's in the server's HTML.
    expect(purchase.copy.buyFor).toEqual({
      upsell_monthly_999_usd: 'Add to my plan for $6.99',
      upsell_quarterly_999_usd: 'Add to my plan for $6.99',
    });
    expect(textOf(document.querySelector('[data-island=UpsellPurchase] button'))).toBe(
      'Add to my plan for $6.99',
    );
    expect(choice.options.map((o) => o.details.coupon)).toEqual(['upsell_30', 'upsell_30']);
    expect(textOf(document.querySelector('.upsell__badge'))).toBe('30% off');
    // The 30% ends with the countdown, shown beside it; then 9.99 is what is charged.
    expect(textOf(document.querySelector('.offer-banner [role="timer"]'))).toBe('05:00');
    expect(choice.afterOffer?.options.map((o) => [o.fullPrice, o.oldFullPrice, o.label])).toEqual([
      ['$9.99 every month', undefined, 'Most popular'],
      ['$9.99 every 3 months', '$29.97', 'Save 66%'],
    ]);
    expect(purchase.afterOffer?.offers.upsell_monthly_999_usd?.coupon).toBeNull();
    // At zero the button names the regular amount it then takes.
    expect(purchase.afterOffer?.buyFor).toEqual({
      upsell_monthly_999_usd: 'Add to my plan for $9.99',
      upsell_quarterly_999_usd: 'Add to my plan for $9.99',
    });
    // Each tier renews: a US visitor ticks the box for it, as at the checkout.
    expect(purchase.terms?.consent).toMatchObject({ version: RENEWAL_CONSENT_VERSION });
    expect(purchase.terms?.plans.upsell_quarterly_999_usd?.consent).toBe(
      'I agree that my subscription renews automatically at $6.99 every 3 months until I cancel.',
    );
    const elsewhere = (await renderScreen('upsell_an_private', { country: 'SG' })).document;
    expect(islandProps<UpsellPurchaseProps>(elsewhere, 'UpsellPurchase').terms?.consent).toBeNull();
    expect(purchase.afterOffer?.terms?.plans.upsell_quarterly_999_usd?.consent).toBe(
      'I agree that my subscription renews automatically at $9.99 every 3 months until I cancel.',
    );
  });

  it('anonymous mode and private chat: no "30% off" where the 30% never ends', async () => {
    for (const offerClock of [{ state: 'off' }, { state: 'ended' }] as const) {
      const { document } = await renderScreen('upsell_an_private', { offerClock });
      const choice = islandProps<PlanChoiceProps>(document, 'PlanChoice');
      expect(document.querySelector('.upsell__badge'), offerClock.state).toBeNull();
      expect(choice.options[0]?.oldFullPrice, offerClock.state).toBeUndefined();
      expect(choice.options[0]?.summary.discount, offerClock.state).toBeNull();
    }
  });

  it('the safety toolkit: one payment, struck from nothing, and a Skip that moves on', async () => {
    const { document } = await renderScreen('upsell_guide');
    // 28.99 is a price no one is charged, so it is not shown as a saving.
    expect(document.querySelector('.guide-offer__regular, .guide-offer__save, s')).toBeNull();
    expect(textOf(document.querySelector('.guide-offer__total'))).toBe('$8.99');
    expect(textOf(document.querySelector('.guide-offer__disclaimer'))).toBe(
      'One payment of $8.99. No subscription.',
    );
    const skip = document.querySelector('.skip-form') as HTMLFormElement;
    expect(textOf(skip)).toBe('Skip');
    expect(skip.dataset.next).toBe('/next?q=1');
    expect(skip.getAttribute('method')).toBe('post');
    expect(skip.querySelector('#continue-button')).toBeNull();
    const purchase = islandProps<UpsellPurchaseProps>(document, 'UpsellPurchase');
    expect(Object.values(purchase.copy.buyFor)).toEqual(['Add the guide for $8.99']);
  });
});

describe('the receipt of the main purchase', () => {
  it('a checkout names each main plan and how it renews; the worker’s receipt gives the price and day', async () => {
    const { document } = await renderScreen('checkout_v3_tr');
    const receipt = islandProps<PaymentReceiptProps>(document, 'PaymentReceipt');
    expect(receipt.mode).toBe('dialog');
    expect(receipt.next).toBe('/next?q=1');
    expect(receipt.copy.title).toBe('Payment confirmed');
    expect(receipt.plans.monthly_7d_intro_usd).toEqual({
      name: 'Premium, 7-day trial',
      renewal: `${PRICE_SLOT} every month`,
    });
    expect(receipt.plans.quarterly_usd).toEqual({
      name: 'Premium, 3 months',
      renewal: `${PRICE_SLOT} every 3 months`,
    });
    // The dialog confirms a main purchase only.
    expect(Object.keys(receipt.plans).every((id) => !/^(upsell|guide)_/.test(id))).toBe(true);
  });

  it('success repeats it as the order summary, the upsells and the guide in the visitor’s currency', async () => {
    const { document } = await renderScreen('success', {
      next: null,
      country: 'DE',
      language: 'de',
    });
    const receipt = islandProps<PaymentReceiptProps>(document, 'PaymentReceipt');
    expect(receipt.mode).toBe('summary');
    expect(receipt.copy.title).toBe('Your order');
    expect(receipt.plans.monthly_eur?.renewal).toBe(`${PRICE_SLOT} every month`);
    expect(receipt.plans.upsell_quarterly_799_eur?.renewal).toBe(`${PRICE_SLOT} every 3 months`);
    expect(receipt.plans.guide_899_eur).toMatchObject({ renewal: null });
    expect(receipt.plans.monthly_usd).toBeUndefined();
  });
});

describe('after the payment', () => {
  it("success: 'Your plan awaits', the download button, a named QR slot and numbered login steps", async () => {
    const { document } = await renderScreen('success', { next: null });
    expect(textOf(document.querySelector('h1'))).toBe('Your plan awaits');
    expect(textOf(document.getElementById('continue-button'))).toBe('Download the app');
    const stores = [...document.querySelectorAll('.store-badges a')].map((a) =>
      a.getAttribute('href'),
    );
    expect(stores).toEqual([
      DEFAULT_BRANDS.geozilla.stores.appStore,
      DEFAULT_BRANDS.geozilla.stores.googlePlay,
    ]);
    // The server knows no deeplink: the code is filled in from $signup in the browser.
    const qr = document.querySelector('.success__qr-slot');
    expect(qr?.getAttribute('role')).toBe('img');
    expect(qr?.getAttribute('aria-label')).toBe(
      'QR code that opens the app, logged in: The code appears once your account is ready.',
    );
    expect(qr?.children).toHaveLength(0);
    expect([...document.querySelectorAll('ol.step-list > li')].map(textOf)).toEqual([
      'Install the app from the App Store or Google Play.',
      'Open the app and choose Log in.',
      'Enter the email you used here and follow the link we send you.',
    ]);
  });

  it("payment declined: its title, the three hints of SPEC.md §8 and 'Try again'", async () => {
    const { document } = await renderScreen('payment_declined');
    expect(textOf(document.querySelector('h1'))).toBe('Payment declined');
    expect([...document.querySelectorAll('.declined__hint')].map(textOf)).toEqual([
      'Keep a sufficient balance on the card.',
      'Ensure there are no limits on online card transactions.',
      'Contact the card issuer.',
    ]);
    expect(textOf(document.getElementById('continue-button'))).toBe('Try again');
  });

  it.each(['auto-signup', 'checkout-test'] as const)(
    '%s says it is a QA test screen',
    async (screen) => {
      const { document } = await renderScreen(screen);
      expect(textOf(document.querySelector('[role="note"].test-notice'))).toMatch(
        /^Test screen for QA/,
      );
    },
  );
});

describe('features', () => {
  it('lists the claims of SPEC.md §1', async () => {
    const { document } = await renderScreen('features');
    const titles = [...document.querySelectorAll('.plan-features__title')].map(textOf);
    expect(titles).toEqual([
      'Real-time tracking',
      'Location history',
      'Place alerts',
      'Check-in',
      'Panic button',
      'Multiple groups',
      'Private chat',
      'Anonymous mode',
      'Accurate to 5 meters',
      'AI-powered location',
      'iOS and Android',
    ]);
    expect(textOf(document.body)).toContain('10 million users');
    expect(textOf(document.body)).toContain('100% money-back guarantee');
  });
});
