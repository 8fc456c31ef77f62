import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { directionOf, movedIndex, radioKeyMove } from './kit/PlanPicker';

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

/** Labels and placeholders of the card fields, translated on the server. */
export interface CardFieldCopy {
  title: string;
  number: string;
  numberPlaceholder: string;
  expiry: string;
  expiryPlaceholder: string;
  cvv: string;
  cvvPlaceholder: string;
  name: string;
  namePlaceholder: string;
}

export interface PaymentMethodChoiceProps {
  /** Accessible name of the method group ('Payment method'). */
  label: string;
  /** Stacked rows, or tabs side by side. */
  layout: 'vertical' | 'horizontal';
  methods: PaymentMethodOption[];
  defaultId: PaymentMethodId;
  card: CardFieldCopy;
}

/**
 * SPEC.md §2 checkout card form: card number, MM/YY expiry, CVV and an optional name on card.
 * The fields have no name and sit outside every form, so nothing typed here is sent anywhere:
 * taking the payment comes with the payment issue.
 */
function CardFields({ copy }: { copy: CardFieldCopy }) {
  const id = useId();
  return (
    <fieldset className="card-form">
      <legend className="card-form__title">{copy.title}</legend>
      <label className="card-form__field" htmlFor={`${id}number`}>
        <span className="card-form__label">{copy.number}</span>
        <input
          id={`${id}number`}
          className="card-form__input"
          type="text"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder={copy.numberPlaceholder}
          maxLength={23}
        />
      </label>
      <div className="card-form__row">
        <label className="card-form__field" htmlFor={`${id}expiry`}>
          <span className="card-form__label">{copy.expiry}</span>
          <input
            id={`${id}expiry`}
            className="card-form__input"
            type="text"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder={copy.expiryPlaceholder}
            maxLength={5}
          />
        </label>
        <label className="card-form__field" htmlFor={`${id}cvv`}>
          <span className="card-form__label">{copy.cvv}</span>
          <input
            id={`${id}cvv`}
            className="card-form__input"
            type="text"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder={copy.cvvPlaceholder}
            maxLength={4}
          />
        </label>
      </div>
      <label className="card-form__field" htmlFor={`${id}name`}>
        <span className="card-form__label">{copy.name}</span>
        <input
          id={`${id}name`}
          className="card-form__input"
          type="text"
          autoComplete="cc-name"
          placeholder={copy.namePlaceholder}
        />
      </label>
    </fieldset>
  );
}

/**
 * The payment-method choice of a checkout (SPEC.md §2): card, one-click wallets or PayPal, as a
 * radio group. The card fields stay in the page while another method is chosen, so what the
 * visitor typed is still there on coming back.
 */
export default function PaymentMethodChoice({
  label,
  layout,
  methods,
  defaultId,
  card,
}: PaymentMethodChoiceProps) {
  const [activeId, setActiveId] = useState<PaymentMethodId>(defaultId);
  const buttons = useRef<(HTMLDivElement | null)[]>([]);
  const panelId = useId();
  const active = methods.find((method) => method.id === activeId);

  function onKeyDown(index: number, event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      const method = methods[index];
      if (method) setActiveId(method.id);
      return;
    }
    const move = radioKeyMove(event.key, directionOf(event.currentTarget));
    if (!move) return;
    event.preventDefault();
    const target = movedIndex(move, index, methods.length);
    const method = methods[target];
    if (!method) return;
    setActiveId(method.id);
    buttons.current[target]?.focus();
  }

  return (
    <div className={`payment-methods payment-methods--${layout}`}>
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
              aria-controls={`${panelId}panel`}
              tabIndex={selected ? 0 : -1}
              className={`payment-methods__option${selected ? ' payment-methods__option--selected' : ''}`}
              data-method={method.id}
              onClick={() => setActiveId(method.id)}
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
      <div id={`${panelId}panel`} className="payment-methods__panel">
        <div hidden={activeId !== 'card'}>
          <CardFields copy={card} />
        </div>
        {active && active.id !== 'card' && active.note ? (
          <p className="payment-methods__note">{active.note}</p>
        ) : null}
      </div>
    </div>
  );
}
