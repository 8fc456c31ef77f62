import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { navigate } from '../boot';
import { switchToOtherProvider } from '../payments/provider-calls';
import { $anotherCardAsked } from '../stores/payment';
import { $otherProviderOffer } from '../stores/provider-failover';

/**
 * 'Pay with another payment form' beside Pay, when the visitor's provider kept failing their
 * charge and nothing was charged (../stores/provider-failover.ts). The region is always in the
 * page, so the button is announced when it comes, and it takes the focus: the payment error
 * above it says why. A press moves the checkout to the other provider (the worker allows it
 * once) and opens the checkout anew on that provider's empty form, its number focused, as the
 * declined page's move does; refused, the offer goes and the checkout stays as it was.
 */
export function OtherProviderOffer({
  label,
  reopen = reopenCheckout,
}: {
  label: string;
  /** Opens the page anew on the other provider's form: the checkout's, unless the page has its own. */
  reopen?: () => void;
}) {
  const offered = useStore($otherProviderOffer);
  const [moving, setMoving] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (offered) button.current?.focus();
  }, [offered]);

  async function take() {
    setMoving(true);
    const moved = await switchToOtherProvider();
    $otherProviderOffer.set(false);
    setMoving(false);
    if (moved) reopen();
  }

  return (
    <div className="payment-methods__other-provider" role="status" aria-live="polite">
      {offered ? (
        <button
          ref={button}
          id="other-provider-button"
          type="button"
          className="button button--primary"
          disabled={moving}
          aria-busy={moving || undefined}
          onClick={() => void take()}
        >
          {label}
        </button>
      ) : null}
    </div>
  );
}

/**
 * The checkout opened anew, its card form open and the number focused
 * (../stores/checkout-form.ts).
 */
function reopenCheckout(): void {
  $anotherCardAsked.set('yes');
  navigate(`${window.location.pathname}${window.location.search}`);
}
