import type {
  PaymentIntent,
  Stripe,
  StripeCardNumberElement,
  StripeElementChangeEvent,
  StripeElementLocale,
  StripeError,
} from '@stripe/stripe-js';
import type { CardFieldProblem } from '../../../shared/card-field-problems';
import { type CardFieldsOptions, type CardProvider, ProviderError } from '../provider';
import {
  CARD_FIELD_PLACEHOLDERS,
  type CardFieldSlots,
  createCardFieldSlots,
  slotProblems,
} from './card-field-slots';

/**
 * Stripe, the card provider of SPEC.md §4 Payment and §7 "Card payment provider": Elements card
 * fields (the card data stays in Stripe's iframes), createPaymentMethod for step 2 and
 * confirmCardPayment for the 3-D Secure challenge of step 4. A thin adapter: every decision is
 * Stripe's answer mapped onto ProviderError.
 */

/** The part of Stripe.js the card fields and the wallet button use. */
export type StripeClient = Pick<
  Stripe,
  'elements' | 'createPaymentMethod' | 'confirmCardPayment' | 'paymentRequest'
>;

export interface StripeDeps {
  /** `loadStripe` of `@stripe/stripe-js`: injects js.stripe.com, resolves null without a window. */
  loadStripe: (publishableKey: string) => Promise<StripeClient | null>;
}

/**
 * The `pure` entry injects js.stripe.com only when loadStripe is called; the main entry injects
 * it as soon as the module is imported. Imported lazily, so Stripe reaches only a checkout.
 */
export const defaultStripeDeps: StripeDeps = {
  loadStripe: async (publishableKey) => {
    const { loadStripe } = await import('@stripe/stripe-js/pure');
    return loadStripe(publishableKey);
  },
};

/** No words from Stripe: the error-text mapping falls back to 'Payment error' (SPEC.md §5). */
const NO_TEXT = '';

/** Loads Stripe.js for `publishableKey`; a script that cannot load rejects a ProviderError. */
export async function loadStripeClient(
  publishableKey: string,
  deps: StripeDeps,
): Promise<StripeClient> {
  let stripe: StripeClient | null;
  try {
    stripe = await deps.loadStripe(publishableKey);
  } catch {
    stripe = null;
  }
  if (!stripe) {
    throw ProviderError.of('card_form_unavailable');
  }
  return stripe;
}

/** Stripe's own message and its most precise reason: the issuer's decline code, else the code. */
function stripeProviderError(error: StripeError): ProviderError {
  const declineCode =
    error.payment_intent?.last_payment_error?.decline_code ??
    error.decline_code ??
    error.payment_intent?.last_payment_error?.code ??
    error.code ??
    null;
  return new ProviderError(error.message || NO_TEXT, declineCode);
}

/**
 * Statuses after which the subscription call can be repeated with the intent id (SPEC.md §4
 * step 4): paid, authorised for later capture, or settling asynchronously.
 */
const CONFIRMED_STATUSES: ReadonlySet<PaymentIntent.Status> = new Set([
  'succeeded',
  'requires_capture',
  'processing',
]);

function unconfirmedIntentError(intent: PaymentIntent): ProviderError {
  const lastError = intent.last_payment_error;
  if (lastError) {
    return new ProviderError(
      lastError.message || NO_TEXT,
      lastError.decline_code ?? lastError.code ?? null,
    );
  }
  if (intent.status === 'requires_action') {
    return ProviderError.of('payment_not_authenticated', 'authentication_required');
  }
  return new ProviderError(NO_TEXT, intent.status);
}

// biome-ignore format: Stripe's locale list reads best as a block.
const STRIPE_LOCALES: ReadonlySet<string> = new Set<StripeElementLocale>([
  'ar', 'bg', 'cs', 'da', 'de', 'el', 'en', 'en-AU', 'en-CA', 'en-NZ', 'en-GB', 'es', 'es-ES',
  'es-419', 'et', 'fi', 'fil', 'fr', 'fr-CA', 'fr-FR', 'he', 'hu', 'hr', 'id', 'it', 'it-IT',
  'ja', 'ko', 'lt', 'lv', 'ms', 'mt', 'nb', 'nl', 'no', 'pl', 'pt', 'pt-BR', 'ro', 'ru', 'sk',
  'sl', 'sv', 'th', 'tr', 'vi', 'zh', 'zh-HK', 'zh-TW',
]);

/** The funnel's language as an Elements locale (its error texts), else Stripe's own guess. */
export function stripeLocale(language: string): StripeElementLocale {
  if (STRIPE_LOCALES.has(language)) return language as StripeElementLocale;
  const base = language.split('-')[0] ?? '';
  return STRIPE_LOCALES.has(base) ? (base as StripeElementLocale) : 'auto';
}

/** 16 px keeps iOS Safari from zooming into the field on focus. */
const FIELD_STYLE = { base: { fontSize: '16px' } };
/** Our classes on each slot as Elements' state changes (screens/plans/styles/checkout.ts). */
const FIELD_CLASSES = { focus: 'card-field__input--focus' };

interface MountedFields {
  stripe: StripeClient;
  cardNumber: StripeCardNumberElement;
  /** Every field shows its problem; the first with one takes focus. */
  reveal(): void;
  destroy(): void;
}

/**
 * A field's problem from Elements' change event: Stripe checks the number (Luhn, brand length),
 * the expiry (a past one is `invalid_expiry_year_past`) and the CVC by brand itself.
 */
function stripeFieldProblem(event: StripeElementChangeEvent): CardFieldProblem | null {
  if (event.empty) return 'empty';
  const code = event.error?.code ?? '';
  if (code.endsWith('_past')) return 'past';
  if (code.startsWith('incomplete')) return 'incomplete';
  if (code) return 'invalid';
  return event.complete ? null : 'incomplete';
}

/** SPEC.md §2 card form: split number / MM/YY / CVV fields, not Stripe's one-line card. */
function mountElements(
  loaded: StripeClient,
  container: HTMLElement,
  options: CardFieldsOptions,
): MountedFields {
  const elements = loaded.elements({ locale: stripeLocale(options.language) });
  const fields: CardFieldSlots = createCardFieldSlots(container, options.labels);
  const checks = slotProblems(fields, options);
  const cardNumber = elements.create('cardNumber', {
    placeholder: CARD_FIELD_PLACEHOLDERS.number,
    showIcon: true,
    style: FIELD_STYLE,
    classes: FIELD_CLASSES,
  });
  const cardExpiry = elements.create('cardExpiry', {
    placeholder: CARD_FIELD_PLACEHOLDERS.expiry,
    style: FIELD_STYLE,
    classes: FIELD_CLASSES,
  });
  const cardCvc = elements.create('cardCvc', {
    placeholder: CARD_FIELD_PLACEHOLDERS.cvv,
    style: FIELD_STYLE,
    classes: FIELD_CLASSES,
  });
  const named = [
    ['number', cardNumber],
    ['expiry', cardExpiry],
    ['cvv', cardCvc],
  ] as const;
  for (const [name, element] of named) {
    element.mount(fields.slots[name]);
    // Elements' 'change' fires on every edit of a field's value.
    (element as StripeCardNumberElement).on('change', (event: StripeElementChangeEvent) => {
      checks.set(name, stripeFieldProblem(event));
      options.onCardEdited?.();
    });
    (element as StripeCardNumberElement).on('blur', () => checks.leave(name));
  }
  return {
    stripe: loaded,
    cardNumber,
    reveal: () => {
      checks.reveal();
      const first = named.find(([name]) => checks.problems[name] !== null);
      first?.[1].focus();
    },
    destroy: () => {
      for (const element of [cardNumber, cardExpiry, cardCvc]) element.destroy();
      fields.remove();
    },
  };
}

export function createStripeProvider(
  settings: { publishableKey: string; accountName: string | null },
  deps: StripeDeps = defaultStripeDeps,
): CardProvider {
  let stripe: Promise<StripeClient> | null = null;
  let mounted: MountedFields | null = null;
  // Bumped by every mount and unmount: a mount whose load finishes after an unmount stays away.
  let generation = 0;

  /** One Stripe.js per provider; a failed load is forgotten so the next call retries. */
  function client(): Promise<StripeClient> {
    if (!stripe) {
      stripe = loadStripeClient(settings.publishableKey, deps).catch((error: unknown) => {
        stripe = null;
        throw error;
      });
    }
    return stripe;
  }

  function unmount(): void {
    generation += 1;
    mounted?.destroy();
    mounted = null;
  }

  return {
    id: 'stripe',

    async mount(container, options) {
      unmount();
      const own = generation;
      const loaded = await client();
      if (own !== generation) return;
      mounted = mountElements(loaded, container, options);
    },

    unmount,

    revealProblems() {
      mounted?.reveal();
    },

    focusNumber() {
      mounted?.cardNumber.focus();
    },

    async createPaymentMethod({ cardholderName }) {
      if (!mounted) throw ProviderError.of('card_form_not_ready');
      const name = cardholderName.trim();
      const result = await mounted.stripe.createPaymentMethod({
        type: 'card',
        card: mounted.cardNumber,
        // SPEC.md §2: the name on card is optional; an empty one is not sent.
        ...(name ? { billing_details: { name } } : {}),
      });
      if (result.error) throw stripeProviderError(result.error);
      // Stripe.js names no BIN, and Stripe's 3-D Secure (confirmCardPayment) needs none.
      return { nonce: result.paymentMethod.id, bin: null };
    },

    async confirmCardPayment(intentSecret) {
      // Needs no mounted fields: the intent already holds its payment method, and a checkout
      // resumed after a reload confirms before any field is shown.
      const result = await (await client()).confirmCardPayment(intentSecret);
      if (result.error) throw stripeProviderError(result.error);
      const intent = result.paymentIntent;
      if (CONFIRMED_STATUSES.has(intent.status)) return intent.id;
      throw unconfirmedIntentError(intent);
    },
  };
}
