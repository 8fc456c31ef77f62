import type { TFunction } from 'i18next';
import type { CheckoutPaymentProps } from '../../islands/CheckoutPayment';
import type {
  PaymentImage,
  PaymentMethodId,
  PaymentMethodOption,
} from '../../islands/kit/payment-methods';
import type { CardFieldLabels } from '../../islands/payments/provider';
import type { TestGatewayCopy } from '../../islands/payments/providers/test-gateway';
import { PAYMENT_ERROR_KEYS } from '../../shared/api/error-text';
import { type InAppBrowser, opensPaymentWindows } from '../../shared/in-app-browser';
import type { ScreenOffer } from '../../shared/plans/screen-offers';
import type { ScreenId } from '../../shared/screens';
import { DEFAULT_STRIPE_ACCOUNT_COUNTRY } from '../../shared/stripe-account';
import { translatedErrorTexts } from '../error-texts';
import type { ScreenProps } from '../types';
import { payTermsCopy } from './pay-terms-props';
import {
  APPLE_PAY_IMAGE,
  CARD_BRAND_IMAGES,
  GOOGLE_PAY_IMAGE,
  PAYPAL_IMAGE,
} from './payment-images';

const METHOD_IMAGES: Record<PaymentMethodId, readonly PaymentImage[]> = {
  card: CARD_BRAND_IMAGES,
  wallet: [APPLE_PAY_IMAGE, GOOGLE_PAY_IMAGE],
  apple_pay: [APPLE_PAY_IMAGE],
  paypal: [PAYPAL_IMAGE],
};

function methodOption(t: TFunction, id: PaymentMethodId): PaymentMethodOption {
  return {
    id,
    label: t(`plans.methods.${id}`),
    images: [...METHOD_IMAGES[id]],
  };
}

/** The accessible names of the test gateway's frames (islands/payments/providers/test-gateway.ts). */
export function gatewayCopy(t: TFunction): TestGatewayCopy {
  return {
    cardFrameTitle: t('plans.card.frame_title'),
    challengeTitle: t('plans.card.challenge_title'),
  };
}

/** The card fields' labels (SPEC.md §2 card form). */
export function cardFieldLabels(t: TFunction): CardFieldLabels {
  return {
    number: t('plans.card.number'),
    expiry: t('plans.card.expiry'),
    cvv: t('plans.card.cvv'),
    name: t('plans.card.name'),
  };
}

/** What each card field problem says under its field (shared/card-check.ts). */
const CARD_FIELD_MESSAGE_KEYS = [
  'number_empty',
  'number_incomplete',
  'number_invalid',
  'expiry_empty',
  'expiry_incomplete',
  'expiry_invalid',
  'expiry_past',
  'cvv_empty',
  'cvv_incomplete',
  'cvv_invalid',
] as const;

export function cardFieldMessages(t: TFunction): Record<string, string> {
  return Object.fromEntries(
    CARD_FIELD_MESSAGE_KEYS.map((key) => [key, t(`plans.card.errors.${key}`)]),
  );
}

/** The URL of a screen with the visitor's query, as every move keeps it (SPEC.md §2). */
function screenUrl(screen: ScreenId, continueAction: string): string {
  const query = continueAction.indexOf('?');
  return `/${screen}${query === -1 ? '' : continueAction.slice(query)}`;
}

/** Where a payment's outcomes lead from this screen, and the §8 texts a failure may show. */
export function paymentPage(
  props: Pick<ScreenProps, 't' | 'next' | 'continueAction' | 'production'>,
) {
  return {
    page: {
      next: props.next ?? screenUrl('success', props.continueAction),
      declined: screenUrl('payment_declined', props.continueAction),
      // Outside production the purchase pixel event gets `_test` (SPEC.md §9).
      production: props.production ?? true,
    },
    errorTexts: translatedErrorTexts(props.t, PAYMENT_ERROR_KEYS),
  };
}

type Methods = readonly [PaymentMethodId, ...PaymentMethodId[]];

/**
 * The methods a checkout names for this browser, in its order. Inside an ad app's own
 * browser the card form, which always works there, comes first: wallets are still offered where
 * the payment request says they are available, never as the default; PayPal is left out where its
 * window cannot open (shared/in-app-browser.ts). Elsewhere, the screen's own order.
 */
export function methodsFor(methods: Methods, inApp: InAppBrowser | null | undefined): Methods {
  if (!inApp) return methods;
  const offered = methods.filter((id) => id !== 'paypal' || opensPaymentWindows(inApp));
  const rest = offered.filter((id) => id !== 'card');
  return offered.includes('card')
    ? ['card', ...rest]
    : [offered[0] ?? methods[0], ...rest.slice(1)];
}

/**
 * The CheckoutPayment island's props (SPEC.md §2 checkout page content): the methods in the
 * order given (as methodsFor adapts them to the browser), the card form's copy, Pay's words and
 * the renewal terms for each plan the screen offers (`offer`), and where each outcome leads.
 */
export function checkoutPaymentProps(
  props: ScreenProps,
  options: {
    layout: CheckoutPaymentProps['layout'];
    methods: Methods;
    offer: Pick<ScreenOffer, 'families' | 'defaultFamily' | 'coupon'>;
    forceDirect?: boolean;
  },
): CheckoutPaymentProps {
  const { t, language } = props;
  const methods = methodsFor(options.methods, props.inApp);
  return {
    layout: options.layout,
    methods: methods.map((id) => methodOption(t, id)),
    forceDirect: options.forceDirect ?? false,
    language,
    stripeAccountCountry: props.stripeAccountCountry ?? DEFAULT_STRIPE_ACCOUNT_COUNTRY,
    ...paymentPage(props),
    terms: payTermsCopy(props, options.offer),
    signUpHref: props.signUpAt ?? null,
    copy: {
      methodsLabel: t('plans.methods.label'),
      cardTitle: t('plans.card.title'),
      fields: cardFieldLabels(t),
      fieldMessages: cardFieldMessages(t),
      fieldsSummary: t('plans.card.errors.summary'),
      namePlaceholder: t('plans.card.name_placeholder'),
      gateway: gatewayCopy(t),
      loading: t('plans.card.loading'),
      noAccount: t('plans.card.no_account'),
      signUp: t('plans.checkout_terms.sign_up'),
      unavailable: t('plans.card.unavailable'),
      oneClick: {
        label: t('plans.methods.wallet'),
        or: t('plans.methods.or'),
        payWithApplePay: t('plans.methods.pay_with_apple_pay'),
        payWithGooglePay: t('plans.methods.pay_with_google_pay'),
      },
      walletTotal: t('plans.summary.total'),
      pay: t('plans.pay.button'),
      paying: t('plans.pay.paying'),
      confirming: t('plans.pay.confirming'),
      otherProvider: t('after.decline_advice.actions.other_provider'),
    },
  };
}
