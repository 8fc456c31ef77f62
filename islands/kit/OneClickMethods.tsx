import type { RefObject } from 'react';
import type { OfferedOneClick } from '../stores/checkout-form';

/** The texts of the one-click methods, translated on the server. */
export interface OneClickMethodsCopy {
  /** The group's name ('One-click payment'). */
  label: string;
  /** The divider between the card's Pay and the one-click buttons ('or'). */
  or: string;
  payWithApplePay: string;
  payWithGooglePay: string;
}

/**
 * The one-click methods this browser can pay with (SPEC.md §2 "one-click payment"): each its
 * own button, which opens the wallet's sheet or PayPal's window at once. Under the card's Pay,
 * so a method appearing once its provider confirmed it moves nothing the visitor is using; or
 * `first`, above the card with the divider under them, where the screen leads with them and
 * the form opens only once the provider has answered (CheckoutPayment's gate). With none
 * confirmed nothing shows at all. PayPal's container is always in the page (its SDK draws into
 * it), hidden until its button is drawn.
 */
export function OneClickMethods({
  copy,
  offered,
  busy,
  paypalRef,
  first,
}: {
  copy: OneClickMethodsCopy;
  offered: readonly OfferedOneClick[];
  busy: boolean;
  paypalRef: RefObject<HTMLDivElement | null>;
  first: boolean;
}) {
  const paypal = offered.some((each) => each.kind === 'paypal');
  const divider = (
    <p className="payment-methods__or" aria-hidden="true">
      {copy.or}
    </p>
  );
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of buttons, not a form's fieldset.
    <div
      className={`payment-methods__one-click${first ? ' payment-methods__one-click--first' : ''}`}
      role="group"
      aria-label={copy.label}
      hidden={offered.length === 0}
    >
      {first ? null : divider}
      <div className="payment-methods__options">
        {offered.map((each) =>
          each.kind === 'wallet' ? (
            <button
              key={each.method}
              type="button"
              className="button payment-methods__wallet"
              data-method={each.method}
              disabled={busy}
              // The browser opens its sheet only from the click itself (a user activation).
              onClick={() => each.button.show()}
            >
              {each.button.wallets.applePay ? copy.payWithApplePay : copy.payWithGooglePay}
            </button>
          ) : null,
        )}
        <div ref={paypalRef} className="payment-methods__paypal" hidden={!paypal} />
      </div>
      {first ? divider : null}
    </div>
  );
}
