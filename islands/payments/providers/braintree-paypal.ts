import type { Client } from 'braintree-web/client';
import type {
  PayPalCheckoutCreatePaymentOptions,
  PayPalCheckoutLoadPayPalSDKOptions,
  PayPalCheckoutTokenizationOptions,
} from 'braintree-web/paypal-checkout';
import type {
  AuthorizationData,
  AuthorizationResponse,
  ButtonsRenderer,
} from 'paypal-checkout-components';
import { ProviderError } from '../provider';

/**
 * PayPal through Braintree, the alternate provider's one-click payment (SPEC.md §2 checkout
 * "one-click payment", §4 Payment step 2: "a supplied nonce is used"). PayPal's own button is
 * rendered into our panel; the visitor approves a billing agreement in PayPal's window and the
 * Braintree nonce it yields goes through the same purchase as a card, on the direct route.
 */

/** The promise forms of braintree-web's PayPal Checkout component this adapter calls. */
export interface BraintreePayPalCheckout {
  loadPayPalSDK(options: PayPalCheckoutLoadPayPalSDKOptions): Promise<unknown>;
  createPayment(options: PayPalCheckoutCreatePaymentOptions): Promise<string>;
  tokenizePayment(options: PayPalCheckoutTokenizationOptions): Promise<AuthorizationResponse>;
  teardown(): Promise<void>;
}

/** PayPal's Buttons options as its type definitions declare them, with our onApprove. */
export type PayPalButtonsOptions = Omit<Parameters<ButtonsRenderer>[0], 'onApprove'> & {
  onApprove(data: AuthorizationData): Promise<void>;
};

/** The rendered-button instance of PayPal's JS SDK (render takes an element and resolves). */
export interface PayPalButtonsInstance {
  isEligible(): boolean;
  render(container: HTMLElement): Promise<void>;
  close(): Promise<void>;
}

/** `window.paypal` once loadPayPalSDK resolved: the part this adapter uses. */
export interface PayPalSdk {
  Buttons(options: PayPalButtonsOptions): PayPalButtonsInstance;
}

/** braintree-web's modules (loaded only when PayPal is chosen) and the SDK global. */
export interface BraintreePayPalDeps {
  client(): Promise<{ create(options: { authorization: string }): Promise<Client> }>;
  paypalCheckout(): Promise<{
    create(options: { client: Client }): Promise<BraintreePayPalCheckout>;
  }>;
  paypalSdk(): PayPalSdk | null;
}

/** braintree-web is CommonJS: a bundler may hand its exports over as `default`. */
async function commonJsModule<T extends object>(load: Promise<T>): Promise<T> {
  const module = await load;
  return (module as { default?: T }).default ?? module;
}

const defaultBraintreePayPalDeps: BraintreePayPalDeps = {
  client: () => commonJsModule(import('braintree-web/client')),
  paypalCheckout: () => commonJsModule(import('braintree-web/paypal-checkout')),
  // The global's declared type is checkout.js v4's; loadPayPalSDK puts the v5 SDK there, whose
  // Buttons render into an element and resolve.
  paypalSdk: () => (window as unknown as { paypal?: PayPalSdk }).paypal ?? null,
};

export interface PayPalPurchase {
  /** Braintree client token of the portal's payment settings (SPEC.md §7 braintree_client_token). */
  clientToken: string;
  /** What the first charge takes, as a decimal string ('29.99'), shown in PayPal's window. */
  amount: string;
  /** ISO currency of the plan, e.g. 'USD'. */
  currency: string;
  /** Where PayPal's button goes. */
  container: HTMLElement;
  /** Runs the purchase with the approved nonce; resolves true when it succeeded. */
  onApprove(nonce: string): Promise<boolean>;
  /**
   * PayPal or Braintree failed once the button was shown: the billing agreement could not be
   * created, PayPal's SDK reported an error (its onError), or the visitor approved but Braintree
   * gave no nonce for it. Nothing was charged, and the visitor must be told (SPEC.md §8 Payment:
   * a payment-method creation error shows its message, else 'Payment error'). A visitor who
   * cancels in PayPal's window is not a failure: nothing is said.
   */
  onFailure(error: unknown): void;
}

export interface PayPalButton {
  /** Removes PayPal's button and tears the component down. */
  destroy(): void;
}

/**
 * The subscription is charged again each period, so the visitor approves a billing agreement
 * (Braintree's vault flow) rather than a one-time order. The type definitions declare `flow` as
 * an enum that exists only in types; braintree-web reads the string.
 */
const VAULT_FLOW = 'vault' as PayPalCheckoutCreatePaymentOptions['flow'];

/**
 * PayPal's button for `purchase`, rendered into its container. Rejects a ProviderError
 * ('card_form_unavailable') when Braintree or PayPal's SDK cannot load or PayPal is not offered
 * to this browser; nothing is left in the container then.
 */
export async function createBraintreePayPalButton(
  purchase: PayPalPurchase,
  deps: BraintreePayPalDeps = defaultBraintreePayPalDeps,
): Promise<PayPalButton> {
  let checkout: BraintreePayPalCheckout | null = null;
  try {
    const [clientModule, checkoutModule] = await Promise.all([
      deps.client(),
      deps.paypalCheckout(),
    ]);
    const client = await clientModule.create({ authorization: purchase.clientToken });
    const component = await checkoutModule.create({ client });
    checkout = component;
    await component.loadPayPalSDK({ vault: true, intent: 'tokenize', currency: purchase.currency });
    const sdk = deps.paypalSdk();
    if (!sdk) throw new Error('PayPal SDK missing after loadPayPalSDK');
    // Until the button is shown, a failure is the load's: this function rejects, and the
    // checkout says PayPal could not load (told twice, the visitor would read two reasons).
    // Once destroyed, the visitor has left PayPal: what its closing SDK reports is not theirs.
    let shown = false;
    const failed = (error: unknown) => {
      console.error('[geofunnel] PayPal', error);
      if (shown) purchase.onFailure(error);
    };
    const buttons = sdk.Buttons({
      fundingSource: 'paypal',
      createBillingAgreement: () =>
        component.createPayment({
          flow: VAULT_FLOW,
          amount: purchase.amount,
          currency: purchase.currency,
        }),
      onApprove: async (data) => {
        let nonce: string;
        try {
          nonce = (await component.tokenizePayment(data)).nonce;
        } catch (error) {
          failed(error);
          return;
        }
        // The purchase shows its own outcome (next page, declined page or error toast).
        await purchase.onApprove(nonce);
      },
      // PayPal's SDK routes here what fails in its window, createBillingAgreement's rejection
      // included.
      onError: failed,
      // The visitor closed PayPal's window: nothing was approved, and the button stays for
      // another try or the card.
      onCancel: () => {},
    });
    if (!buttons.isEligible()) throw new Error('PayPal is not eligible in this browser');
    await buttons.render(purchase.container);
    shown = true;
    const rendered = component;
    return {
      destroy: () => {
        shown = false;
        void buttons.close().catch(() => {});
        void rendered.teardown().catch(() => {});
        purchase.container.replaceChildren();
      },
    };
  } catch (error) {
    console.error('[geofunnel] PayPal did not load', error);
    void checkout?.teardown().catch(() => {});
    purchase.container.replaceChildren();
    throw ProviderError.of('card_form_unavailable');
  }
}
