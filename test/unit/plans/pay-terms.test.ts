import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { planPayWords } from '../../../screens/plans/pay-terms-props';
import { EEA_EFTA_STATES, EU_MEMBER_STATES } from '../../../shared/eu-countries';
import { planOf } from '../../../shared/plans/catalogue';
import { COUPONS } from '../../../shared/plans/coupons';
import { payTermsOf } from '../../../shared/plans/pay-terms';
import { firstRenewalAt } from '../../../shared/plans/renewal';
import { renewalConsentRule } from '../../../shared/plans/renewal-consent';
import { taxNoteFor } from '../../../shared/plans/tax-display';
import { chargeReceiptOf } from '../../../worker/purchases/receipt';
import { englishT } from './render-screen';

/**
 * What Pay says and the terms beside it (shared/plans/pay-terms.ts, screens/plans/pay-terms-props.ts),
 * and the table of what each country's law asks of the request to pay
 * (shared/plans/renewal-consent.ts).
 */

const NOW = Date.UTC(2026, 0, 31, 12, 0, 0);
const NONE = renewalConsentRule('CA');
const context = { t: englishT(), language: 'en' };

describe('the pay button and its terms', () => {
  it('a trial: "Start trial for $6.99", then the monthly price from a week later, and where to cancel', () => {
    const words = planPayWords(planOf('monthly_7d_intro', 'USD'), context, {
      coupon: null,
      rule: NONE,
      now: NOW,
      supportEmail: 'support@geozilla.com',
    });
    expect(words.pay).toBe('Start trial for $6.99');
    expect(words.total).toBe('$6.99');
    expect(words.terms).toBe(
      '$6.99 today for a 7-day trial, then $39.99 every month, renewing automatically from ' +
        "February 7, 2026 until you cancel. Cancel anytime in the app's settings or by writing to " +
        'support@geozilla.com.',
    );
    expect(words.consent).toBeNull();
  });

  it('says the subscription is cancelled online too when the receipt will carry the link', () => {
    const words = (cancelOnline: boolean) =>
      planPayWords(planOf('monthly_7d_intro', 'USD'), context, {
        coupon: null,
        rule: NONE,
        now: NOW,
        supportEmail: 'support@geozilla.com',
        cancelOnline,
      }).terms;
    expect(words(true)).toMatch(
      /until you cancel\. Cancel anytime online with the link in your receipt, in the app's settings or by writing to support@geozilla\.com\.$/,
    );
    expect(words(false)).toMatch(
      /until you cancel\. Cancel anytime in the app's settings or by writing to support@geozilla\.com\.$/,
    );
    // A one-time purchase renews nothing: there is nothing to cancel.
    const guide = planPayWords(planOf('guide_899', 'USD'), context, {
      coupon: null,
      rule: NONE,
      now: NOW,
      supportEmail: 'support@geozilla.com',
      cancelOnline: true,
    });
    expect(guide.terms).not.toMatch(/cancel/i);
  });

  it('a quarterly plan charged on 31 January renews on the last day of April, as the receipt says', () => {
    const plan = planOf('quarterly', 'USD');
    const words = planPayWords(plan, context, {
      coupon: null,
      rule: NONE,
      now: NOW,
      supportEmail: 'support@geozilla.com',
    });
    expect(words.pay).toBe('Pay $59.99');
    expect(words.terms).toContain(
      '$59.99 today, then $59.99 every 3 months, renewing automatically from April 30, 2026',
    );
    const receipt = chargeReceiptOf(
      { planId: plan.id, amount: 59.99, currency: 'USD' } as Parameters<typeof chargeReceiptOf>[0],
      null,
      NOW,
    );
    expect(Date.parse(receipt?.renews_at ?? '')).toBe(firstRenewalAt(plan, NOW));
    expect(receipt?.renewal_amount).toBe(payTermsOf(plan, null, NONE, NOW).renewal?.amount);
  });

  it('an upsell with its coupon names the amount after it, now and at each renewal', () => {
    const words = planPayWords(planOf('upsell_monthly_999', 'USD'), context, {
      coupon: COUPONS.upsell_30,
      rule: NONE,
      now: NOW,
      supportEmail: 'support@geozilla.com',
    });
    expect(words.pay).toBe('Pay $6.99');
    expect(words.terms).toContain('$6.99 today, then $6.99 every month');
  });

  it('a one-time guide renews nothing and asks for no consent', () => {
    const words = planPayWords(planOf('guide_899', 'USD'), context, {
      coupon: null,
      rule: renewalConsentRule('US'),
      now: NOW,
      supportEmail: 'support@geozilla.com',
    });
    expect(words.pay).toBe('Pay $8.99');
    expect(words.terms).toBe('$8.99 today, one payment: nothing renews.');
    expect(words.consent).toBeNull();
  });

  it('in the EU the button says it commits to pay, even for a trial; in German "zahlungspflichtig"', async () => {
    const plan = planOf('monthly_7d_intro', 'EUR');
    const english = planPayWords(plan, context, {
      coupon: null,
      rule: renewalConsentRule('FR'),
      now: NOW,
      supportEmail: 'support@geozilla.com',
    });
    expect(english.pay).toBe('Pay €6.99 now');
    const german = i18next.createInstance();
    await german.init({
      lng: 'de',
      resources: { de: { translation: (await import('../../../locales/de/plans.json')).default } },
      interpolation: { escapeValue: false },
    });
    const words = planPayWords(
      plan,
      { t: german.t, language: 'de' },
      {
        coupon: null,
        rule: renewalConsentRule('DE'),
        now: NOW,
        supportEmail: 'support@geozilla.com',
      },
    );
    expect(words.pay).toBe('Jetzt 6,99\u00a0€ zahlungspflichtig bestellen');
    expect(words.terms).toContain('7. Februar 2026');
  });

  it('a US visitor is asked to agree to the renewal price and period', () => {
    const words = planPayWords(planOf('monthly_7d_intro', 'USD'), context, {
      coupon: null,
      rule: renewalConsentRule('US'),
      now: NOW,
      supportEmail: 'support@geozilla.com',
    });
    expect(words.pay).toBe('Start trial for $6.99');
    expect(words.consent).toBe(
      'I agree that my subscription renews automatically at $39.99 every month until I cancel.',
    );
  });
});

describe('the consent table by country', () => {
  it.each([
    ['US', { checkbox: true, payableButton: false }],
    ['us', { checkbox: true, payableButton: false }],
    ['T1', { checkbox: true, payableButton: false }],
    ['DE', { checkbox: false, payableButton: true }],
    ['FR', { checkbox: false, payableButton: true }],
    ['PL', { checkbox: false, payableButton: true }],
    ['NO', { checkbox: false, payableButton: true }],
    ['GB', { checkbox: false, payableButton: true }],
    ['CA', { checkbox: false, payableButton: false }],
    ['BR', { checkbox: false, payableButton: false }],
  ])('%s', (country, rule) => {
    expect(renewalConsentRule(country)).toEqual(rule);
  });

  it('no country known: neither (local runs; production always names one)', () => {
    expect(renewalConsentRule(null)).toEqual({ checkbox: false, payableButton: false });
  });

  it('every EU and EEA state both says the button is payable and notes VAT: one list', () => {
    for (const country of [...EU_MEMBER_STATES, ...EEA_EFTA_STATES]) {
      expect([country, renewalConsentRule(country).payableButton]).toEqual([country, true]);
      expect([country, taxNoteFor(country)]).toEqual([country, 'vat']);
    }
    expect(EU_MEMBER_STATES).toHaveLength(27);
  });
});
