import { type KeyboardEvent, useRef } from 'react';
import { directionOf, movedIndex, radioKeyMove } from './PlanPicker';

export type PaymentMethodId = 'card' | 'wallet' | 'apple_pay' | 'paypal';

export interface PaymentImage {
  src: string;
  alt: string;
  width: number;
  height: number;
}

export interface PaymentMethodOption {
  id: PaymentMethodId;
  label: string;
  images: PaymentImage[];
  /** What happens with this method, shown when it is selected (not for the card). */
  note?: string;
}

/**
 * The payment-method choice of a checkout (SPEC.md §2): card, one-click wallets or PayPal, as a
 * WAI-ARIA radio group (arrows move and select, as in the plan picker); the form around it lays it
 * out as stacked rows or tabs side by side.
 */
export function PaymentMethodPicker({
  label,
  methods,
  activeId,
  panelId,
  onSelect,
}: {
  label: string;
  methods: PaymentMethodOption[];
  activeId: PaymentMethodId;
  /** The id of the panel the choice shows (aria-controls). */
  panelId: string;
  onSelect: (id: PaymentMethodId) => void;
}) {
  const buttons = useRef<(HTMLDivElement | null)[]>([]);

  function onKeyDown(index: number, event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      const method = methods[index];
      if (method) onSelect(method.id);
      return;
    }
    const move = radioKeyMove(event.key, directionOf(event.currentTarget));
    if (!move) return;
    event.preventDefault();
    const target = movedIndex(move, index, methods.length);
    const method = methods[target];
    if (!method) return;
    onSelect(method.id);
    buttons.current[target]?.focus();
  }

  return (
    <div role="radiogroup" aria-label={label} className="payment-methods__options">
      {methods.map((method, index) => {
        const selected = method.id === activeId;
        return (
          // biome-ignore lint/a11y/useSemanticElements: same WAI-ARIA radio pattern as the plan picker, laid out as rows or tabs.
          <div
            key={method.id}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            role="radio"
            aria-checked={selected}
            aria-controls={panelId}
            tabIndex={selected ? 0 : -1}
            className={`payment-methods__option${selected ? ' payment-methods__option--selected' : ''}`}
            data-method={method.id}
            onClick={() => onSelect(method.id)}
            onKeyDown={(event) => onKeyDown(index, event)}
          >
            <span className="payment-methods__radio" aria-hidden="true" />
            <span className="payment-methods__label">{method.label}</span>
            <span className="payment-methods__images">
              {method.images.map((image) => (
                <img key={image.src} {...image} alt={image.alt} decoding="async" />
              ))}
            </span>
          </div>
        );
      })}
    </div>
  );
}
