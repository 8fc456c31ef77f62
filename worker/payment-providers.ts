import { logLine } from '../shared/log';
import { DEFAULT_STRIPE_ACCOUNT_COUNTRY } from '../shared/stripe-account';
import { parsedBinding } from './kept';

/**
 * The card and wallet providers a deployment may use, and the origins each needs in the pages'
 * Content-Security-Policy (frame-src, form-action and connect-src list exact hosts for
 * the configured providers only; docs/payments.md, "Scripts and frames of the card page", PCI DSS 6.4.3).
 *
 * Which provider a visitor pays with is decided late: the portal's payment settings
 * (`payment_gateway`, SPEC.md §7) reach the browser after sign-up, per account, and a checkout id
 * can force one (`checkout_h3_pp_braintree`, SPEC.md §2). The worker that writes the page does
 * not know them, so the policy cannot follow the visitor's provider. It follows what the
 * deployment says it may use instead: `PAYMENT_PROVIDERS`, a comma list of `stripe`,
 * `braintree` and `paypal`. Unset, it is the card providers the product uses (SPEC.md §4: Stripe
 * cards and wallets, Braintree with 3-D Secure as the alternate provider), so no deployment loses
 * a card checkout by leaving it out. PayPal is not among them: SPEC.md §9 says "The pay-pal flag
 * is false", so it is off until a deployment lists `paypal`, and only then do checkouts offer it
 * and the pages admit its hosts. A deployment that uses fewer says so and its pages admit no host
 * of the others. A list naming none of these (blank, or only typos) is taken as unset: a funnel
 * cannot take payments with no provider at all. The test gateway needs no entry: its frames are
 * our own origin.
 *
 * Scripts need no entry anywhere: every provider's script is added by our nonce'd module, which
 * 'strict-dynamic' admits, and so are the scripts those add in turn (Cardinal's songbird, PayPal's
 * SDK). What is listed here is what those scripts frame, post to and fetch.
 */

export const PAYMENT_PROVIDERS = ['stripe', 'braintree', 'paypal'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

/** Unset `PAYMENT_PROVIDERS`: the card providers, PayPal off (SPEC.md §9). */
const DEFAULT_PAYMENT_PROVIDERS: readonly PaymentProvider[] = ['stripe', 'braintree'];

/** The deployment's variable (wrangler.toml `[vars]`), read by this module only. */
export interface PaymentProviderBindings {
  PAYMENT_PROVIDERS?: string;
}

function isPaymentProvider(name: string): name is PaymentProvider {
  return (PAYMENT_PROVIDERS as readonly string[]).includes(name);
}

const listedProviders = parsedBinding(function providers(text: string | undefined) {
  const listed = (text ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(isPaymentProvider);
  return listed.length > 0 ? [...new Set(listed)] : [...DEFAULT_PAYMENT_PROVIDERS];
});

/**
 * The providers this deployment may use, from `PAYMENT_PROVIDERS` (see above); parsed once per
 * isolate, as the page's CSP reads it on every request.
 */
export function configuredPaymentProviders(
  env: PaymentProviderBindings,
): readonly PaymentProvider[] {
  return listedProviders(env.PAYMENT_PROVIDERS);
}

/** Whether checkouts offer PayPal: only where the deployment lists it (SPEC.md §9 pay-pal flag). */
export function offersPayPal(env: PaymentProviderBindings): boolean {
  return configuredPaymentProviders(env).includes('paypal');
}

export interface ProviderSources {
  frame: string[];
  formAction: string[];
  connect: string[];
  img: string[];
}

/**
 * 3-D Secure 2's challenge and its "3DS Method" step load and post to the card issuer's own
 * access control server, whose origin no list can hold (thousands of issuers, changing). Where
 * the provider's code runs in our page and frames it directly, our policy decides:
 * braintree-web's CSP page ("3D Secure Specific Directives") asks for `frame-src *` and
 * `form-action *` and warns that blocking the method step fails authentications. `https:` is
 * that minus plain http. Stripe needs no such entry: its 3-D Secure modal is a frame of
 * hooks.stripe.com / js.stripe.com, which frames the issuer under Stripe's own policy. So a
 * deployment without Braintree has no bare `https:` anywhere; docs/payments.md's inventory lists the
 * issuers as a class, not by host.
 */
const THREE_D_SECURE_ISSUERS = 'https:';

/**
 * Each provider's origins, from its own CSP documentation:
 * - Stripe: docs.stripe.com/security/guide, "Content Security Policy" (Stripe.js: frames of
 *   js.stripe.com and its subdomains, hooks.stripe.com for 3-D Secure and redirects; the API at
 *   api.stripe.com). maps.googleapis.com is for the Address Element, which we do not use.
 * - Braintree: braintree-web's "Using braintree-web with a Content Security Policy", basic
 *   directives (hosted fields' frames on assets.braintreegateway.com, the client API and its
 *   analytics, production and sandbox alike since a staging portal hands out sandbox tokens)
 *   and the 3-D Secure ones (Cardinal's frames and APIs, and the issuers above).
 * - PayPal (through Braintree's PayPal Checkout, so listed with `braintree`): braintree-web's
 *   "PayPal Specific Directives" and PayPal's JS SDK CSP guide: its buttons' and checkout's
 *   frames, the SDK's calls home and its images, all on paypal.com subdomains; the checkout
 *   window itself is a window, not a frame. No Venmo host: the button is
 *   `fundingSource: 'paypal'` only.
 */
const PROVIDER_SOURCES: Record<PaymentProvider, ProviderSources> = {
  stripe: {
    frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
    formAction: [],
    connect: ['https://api.stripe.com'],
    img: [],
  },
  braintree: {
    frame: [
      'https://assets.braintreegateway.com',
      'https://*.cardinalcommerce.com',
      THREE_D_SECURE_ISSUERS,
    ],
    formAction: [THREE_D_SECURE_ISSUERS],
    connect: [
      'https://api.braintreegateway.com',
      'https://client-analytics.braintreegateway.com',
      'https://api.sandbox.braintreegateway.com',
      'https://client-analytics.sandbox.braintreegateway.com',
      'https://*.braintree-api.com',
      'https://*.cardinalcommerce.com',
      'https://*.cardinaltrusted.com',
    ],
    img: ['https://assets.braintreegateway.com'],
  },
  paypal: {
    frame: ['https://*.paypal.com'],
    formAction: [],
    connect: ['https://*.paypal.com'],
    img: ['https://*.paypal.com', 'https://*.paypalobjects.com'],
  },
};

/** The sources of `providers`, by directive, each once. */
export function paymentProviderSources(providers: readonly PaymentProvider[]): ProviderSources {
  const union = (pick: (sources: ProviderSources) => string[]) => [
    ...new Set(providers.flatMap((provider) => pick(PROVIDER_SOURCES[provider]))),
  ];
  return {
    frame: union((sources) => sources.frame),
    formAction: union((sources) => sources.formAction),
    connect: union((sources) => sources.connect),
    img: union((sources) => sources.img),
  };
}

/**
 * The country of the Stripe account, which Stripe's payment request (Apple Pay, Google Pay)
 * must be created with: the account's, not the visitor's. The portal's payment settings
 * (SPEC.md §7) name the publishable key and the account name only, so the worker variable
 * STRIPE_ACCOUNT_COUNTRY (wrangler.toml [vars]) carries it.
 */

/** Stripe takes an ISO 3166-1 alpha-2 code in capitals, e.g. 'US', 'GB'. */
const COUNTRY_CODE = /^[A-Z]{2}$/;

/** Malformed values already reported by this isolate: one warning each, not one per page. */
const reported = new Set<string>();

/**
 * The configured account country; unset, the default. A malformed value would make Stripe.js
 * throw when the wallet button is built, so it falls back to the default with a warning line
 * (`wrangler tail`) for the operator.
 */
export function stripeAccountCountry(configured: string | undefined): string {
  if (configured === undefined) return DEFAULT_STRIPE_ACCOUNT_COUNTRY;
  if (COUNTRY_CODE.test(configured)) return configured;
  if (!reported.has(configured)) {
    reported.add(configured);
    logLine({
      level: 'warn',
      warning: 'stripe_account_country_invalid',
      configured,
      used: DEFAULT_STRIPE_ACCOUNT_COUNTRY,
    });
  }
  return DEFAULT_STRIPE_ACCOUNT_COUNTRY;
}
