import { EEA_EFTA_STATES, EU_MEMBER_STATES } from '../eu-countries';

/**
 * What the law of the visitor's country asks of the request to pay for a subscription that renews
 * by itself, beyond the terms every checkout states beside its button (price, period, first
 * renewal date, how to cancel: screens/plans/pay-terms-props.ts). docs/payments.md explains the
 * table to a reader; its sources:
 *
 * - `checkbox`: an unticked box the visitor ticks ("I agree that my subscription renews
 *   automatically at … until I cancel") before Pay does anything, and the worker refuses a charge
 *   without it. The US: California's Automatic Renewal Law (Bus. & Prof. Code §17602(a)(2), as
 *   amended by AB 2863, for contracts entered into from 1 July 2025) wants the consumer's express
 *   affirmative consent to the automatic renewal terms; New York (GBL §527-a), Colorado (C.R.S.
 *   §6-1-732), Virginia (§59.1-207.46) and others ask for affirmative consent too. A visitor's
 *   state cannot be told from the country, so every US visitor ticks the box. Visa's rules for
 *   trials (Visa Core Rules, "Merchants offering trial periods", 2020) ask for the visitor's
 *   express agreement at checkout as well.
 * - `payableButton`: the button itself must say that pressing it commits to pay (the EU's
 *   Consumer Rights Directive 2011/83/EU Art. 8(2), in Germany §312j(3) BGB: "zahlungspflichtig
 *   bestellen" or an equally unambiguous wording; the UK's Consumer Contracts Regulations 2013
 *   reg. 14(3)). There "Start trial for €6.99" is not enough: the button reads "Pay €6.99 now"
 *   ("Jetzt 6,99 € zahlen"), which names the obligation and the amount.
 *
 * A country not listed needs neither (the terms beside the button still show). Tor (Cloudflare's
 * T1) needs the box: it may be the US. No country at all (Cloudflare's XX, which the worker reads
 * as none; local runs and the tests' workerd) needs neither: such a visitor pays as before.
 */
export interface RenewalConsentRule {
  checkbox: boolean;
  payableButton: boolean;
}

/** The countries whose visitors tick the box before paying (ISO 3166-1 alpha-2). */
const CHECKBOX_COUNTRIES: ReadonlySet<string> = new Set(['US']);

/** The EU and EEA (the Consumer Rights Directive) and the UK: the button says it is payable. */
const PAYABLE_BUTTON_COUNTRIES: ReadonlySet<string> = new Set([
  ...EU_MEMBER_STATES,
  ...EEA_EFTA_STATES,
  'GB',
]);

/** Cloudflare's code for Tor, whose visitors may be anywhere, the US included. */
const UNKNOWN_COUNTRIES: ReadonlySet<string> = new Set(['T1']);

/** The rule for a visitor's country, as the worker resolved it (null: none known). */
export function renewalConsentRule(country: string | null | undefined): RenewalConsentRule {
  if (country === null || country === undefined) return { checkbox: false, payableButton: false };
  const code = country.toUpperCase();
  return {
    checkbox: CHECKBOX_COUNTRIES.has(code) || UNKNOWN_COUNTRIES.has(code),
    payableButton: PAYABLE_BUTTON_COUNTRIES.has(code),
  };
}

/**
 * The version of the consent wording (the `plans.checkout_terms.consent` text in every language).
 * A purchase records which wording the visitor agreed to; change this id whenever that text
 * changes, so a record always names the words shown.
 */
export const RENEWAL_CONSENT_VERSION = 'renewal-consent-2026-11';
