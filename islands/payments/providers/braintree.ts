import type { Client } from 'braintree-web/client';
import type {
  HostedFieldFieldOptions,
  HostedFieldsEvent,
  HostedFieldsHostedFieldsFieldData,
  HostedFieldsTokenizePayload,
} from 'braintree-web/hosted-fields';
import type {
  ThreeDSecureVerifyOptions,
  ThreeDSecureVerifyPayload,
} from 'braintree-web/three-d-secure';
import type { CardFieldProblem } from '../../../shared/card-field-problems';
import {
  type CardFieldLabels,
  type CardFieldsOptions,
  type CardPaymentMethod,
  type CardProvider,
  ProviderError,
} from '../provider';
import {
  CARD_FIELD_PLACEHOLDERS,
  type CardFieldName,
  type CardFieldSlots,
  createCardFieldSlots,
  slotProblems,
} from './card-field-slots';

/**
 * Braintree, the alternate provider of SPEC.md §4 ("Alternate provider with 3-D Secure") and §7
 * (POST /users/me/subscriptions/{planId}): hosted fields give a nonce; when the portal answers
 * 'User action required' with a nonce and a validation amount, verifyCard runs 3-D Secure and
 * the call is repeated with the verified nonce. A thin adapter around braintree-web.
 */

/**
 * Hosted fields' events that follow the visitor's edits. Braintree has none per keystroke; an
 * edit of a card that was refused changes a field's validity or emptiness on its way.
 */
export const EDIT_EVENTS = ['validityChange', 'empty', 'notEmpty', 'cardTypeChange'] as const;

/** The promise forms of braintree-web's components this adapter calls. */
export interface BraintreeHostedFields {
  tokenize(options: { cardholderName?: string }): Promise<HostedFieldsTokenizePayload>;
  teardown(): Promise<void>;
  /** Braintree's HostedFields.focus: the visitor came back to pay with another card. */
  focus(field: 'number'): void;
  on(
    event: (typeof EDIT_EVENTS)[number] | 'blur',
    handler: (event?: Partial<HostedFieldsEvent>) => void,
  ): void;
}
export interface BraintreeThreeDSecure {
  verifyCard(options: ThreeDSecureVerifyOptions): Promise<ThreeDSecureVerifyPayload>;
  teardown(): Promise<void>;
}

/** braintree-web's modules, each loaded only when first needed. */
export interface BraintreeDeps {
  client(): Promise<{ create(options: { authorization: string }): Promise<Client> }>;
  hostedFields(): Promise<{
    create(options: {
      client: Client;
      fields: HostedFieldFieldOptions;
      styles?: Record<string, Record<string, string>>;
    }): Promise<BraintreeHostedFields>;
  }>;
  threeDSecure(): Promise<{
    create(options: { client: Client; version: '2' }): Promise<BraintreeThreeDSecure>;
  }>;
}

/** braintree-web is CommonJS: a bundler may hand its exports over as `default`. */
async function commonJs<T extends object>(load: Promise<T>): Promise<T> {
  const module = await load;
  return (module as { default?: T }).default ?? module;
}

const defaultBraintreeDeps: BraintreeDeps = {
  client: () => commonJs(import('braintree-web/client')),
  hostedFields: () => commonJs(import('braintree-web/hosted-fields')),
  threeDSecure: () => commonJs(import('braintree-web/three-d-secure')),
};

/** Braintree's own message (BraintreeError.message), else 'Payment error' (SPEC.md §5). */
function braintreeProviderError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  return error instanceof Error && error.message
    ? new ProviderError(error.message)
    : ProviderError.of('payment_error');
}

/** 16 px keeps iOS Safari from zooming into the field on focus. */
const FIELD_STYLES = { input: { 'font-size': '16px' } };

interface MountedFields {
  hostedFields: BraintreeHostedFields;
  /** Our labelled slots the hosted fields are in, with their message lines. */
  slots: CardFieldSlots;
  remove(): void;
}

/**
 * A loader whose one load every call shares; a failed load is forgotten so the next call
 * retries, and fails as 'card_form_unavailable'.
 */
function loadedOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => {
    if (!loading) {
      loading = load().catch(() => {
        loading = null;
        throw ProviderError.of('card_form_unavailable');
      });
    }
    return loading;
  };
}

/** Our field of each of Braintree's. */
const FIELD_OF: Partial<Record<string, CardFieldName>> = {
  number: 'number',
  expirationDate: 'expiry',
  cvv: 'cvv',
};

/**
 * A field's problem from Braintree's state: it checks the number (Luhn, brand length), the
 * expiry (a past one can never become valid) and the CVV's length by brand itself.
 */
function braintreeFieldProblem(
  field: Pick<HostedFieldsHostedFieldsFieldData, 'isEmpty' | 'isValid' | 'isPotentiallyValid'>,
): CardFieldProblem | null {
  if (field.isEmpty) return 'empty';
  if (field.isValid) return null;
  return field.isPotentiallyValid ? 'incomplete' : 'invalid';
}

/** Braintree's validity events onto the per-field problems under the slots; reveal() for Pay. */
function followValidity(
  hostedFields: BraintreeHostedFields,
  fields: CardFieldSlots,
  options: CardFieldsOptions,
): () => void {
  const checks = slotProblems(fields, options);
  hostedFields.on('validityChange', (event) => {
    for (const [name, data] of Object.entries(event?.fields ?? {})) {
      const ours = FIELD_OF[name];
      if (ours && data) checks.set(ours, braintreeFieldProblem(data));
    }
  });
  hostedFields.on('empty', (event) => {
    const ours = FIELD_OF[event?.emittedBy ?? ''];
    if (ours) checks.set(ours, 'empty');
  });
  hostedFields.on('blur', (event) => {
    const ours = FIELD_OF[event?.emittedBy ?? ''];
    if (ours) checks.leave(ours);
  });
  return () => checks.reveal();
}

type HostedFieldsModule = Awaited<ReturnType<BraintreeDeps['hostedFields']>>;

/**
 * SPEC.md §2 card form: number, MM/YY, CVV, each in Braintree's iframe, put into `container`.
 * Resolves them with their removal; nothing is left in the page when they cannot be created.
 */
async function mountHostedFields(
  module: HostedFieldsModule,
  client: Client,
  container: HTMLElement,
  labels: CardFieldLabels,
): Promise<MountedFields> {
  const fields: CardFieldSlots = createCardFieldSlots(container, labels);
  const field = (name: CardFieldName) => ({
    container: fields.slots[name],
    placeholder: CARD_FIELD_PLACEHOLDERS[name],
    internalLabel: labels[name],
  });
  let hostedFields: BraintreeHostedFields;
  try {
    hostedFields = await module.create({
      client,
      styles: FIELD_STYLES,
      fields: { number: field('number'), expirationDate: field('expiry'), cvv: field('cvv') },
    });
  } catch {
    fields.remove();
    throw ProviderError.of('card_form_unavailable');
  }
  return {
    hostedFields,
    slots: fields,
    remove: () => {
      void hostedFields.teardown().catch(() => {});
      fields.remove();
    },
  };
}

/** 3-D Secure's verification of a nonce: the verified nonce, or why the payment cannot go. */
async function verified(
  component: BraintreeThreeDSecure,
  { nonce, amount, email, bin }: Parameters<NonNullable<CardProvider['verifyCard']>>[0],
): Promise<string> {
  let payload: ThreeDSecureVerifyPayload;
  try {
    payload = await component.verifyCard({
      nonce,
      amount,
      email,
      // braintree-web refuses a verification without the BIN; unknown when the nonce came
      // from elsewhere than card fields, and then Braintree's error is the answer.
      bin: bin ?? '',
      onLookupComplete: (_data, next) => next(),
    });
  } catch (error) {
    throw braintreeProviderError(error);
  }
  // A shift that was possible but did not happen: the challenge failed or was abandoned.
  // No shift possible (card not enrolled): the issuer keeps the liability and we proceed.
  if (payload.liabilityShiftPossible && !payload.liabilityShifted) {
    throw ProviderError.of(
      'payment_not_authenticated',
      'authentication_failed',
      payload.threeDSecureInfo?.status ?? null,
    );
  }
  return payload.nonce;
}

/** SPEC.md §4 Payment step 2 from the hosted fields: the nonce and the card's BIN. */
async function tokenizedCard(
  mounted: MountedFields | null,
  cardholderName: string,
): Promise<CardPaymentMethod> {
  if (!mounted) throw ProviderError.of('card_form_not_ready');
  const name = cardholderName.trim();
  try {
    const payload = await mounted.hostedFields.tokenize(name ? { cardholderName: name } : {});
    // 3-D Secure needs the BIN later, possibly after a reload: the attempt keeps it.
    return { nonce: payload.nonce, bin: payload.details.bin || null };
  } catch (error) {
    // SPEC.md §8: a payment-method creation error shows its (Braintree's) message.
    throw braintreeProviderError(error);
  }
}

export function createBraintreeProvider(
  settings: { clientToken: string; threeDSecure: boolean },
  deps: BraintreeDeps = defaultBraintreeDeps,
): CardProvider {
  let mounted: MountedFields | null = null;
  let reveal = () => {};
  let generation = 0;

  /** One client per provider. */
  const braintreeClient = loadedOnce(async () => {
    const module = await deps.client();
    return module.create({ authorization: settings.clientToken });
  });
  const threeDSecureComponent = loadedOnce(async () => {
    const [module, loaded] = await Promise.all([deps.threeDSecure(), braintreeClient()]);
    // Version 2 (Cardinal's modal); version 1 is refused by braintree-web.
    return module.create({ client: loaded, version: '2' });
  });

  function unmount(): void {
    generation += 1;
    mounted?.remove();
    mounted = null;
  }

  return {
    id: 'braintree',

    async mount(container, options) {
      const { labels, onCardEdited } = options;
      unmount();
      const own = generation;
      const [hostedFieldsModule, loaded] = await Promise.all([
        deps.hostedFields().catch(() => {
          throw ProviderError.of('card_form_unavailable');
        }),
        braintreeClient(),
      ]);
      if (own !== generation) return;
      const fields = await mountHostedFields(hostedFieldsModule, loaded, container, labels);
      if (own !== generation) return fields.remove();
      mounted = fields;
      const { hostedFields } = fields;
      if (onCardEdited) for (const event of EDIT_EVENTS) hostedFields.on(event, onCardEdited);
      reveal = followValidity(hostedFields, fields.slots, options);
      // Created with the fields when the portal asks for 3-D Secure (SPEC.md §7 payment
      // settings, request_three_d_secure), so Cardinal's device data is ready before the lookup.
      if (settings.threeDSecure) void threeDSecureComponent().catch(() => {});
    },

    unmount,

    revealProblems: () => reveal(),

    focusNumber: () => mounted?.hostedFields.focus('number'),

    createPaymentMethod: ({ cardholderName }) => tokenizedCard(mounted, cardholderName),

    confirmCardPayment() {
      return Promise.reject(
        // confirmCardPayment is a Stripe step (SPEC.md §4 Payment step 4); Braintree verifies
        // with verifyCard. Reaching here is a programming error, shown as 'Payment error'.
        ProviderError.of('payment_error'),
      );
    },

    async verifyCard(request) {
      return verified(await threeDSecureComponent(), request);
    },
  };
}
