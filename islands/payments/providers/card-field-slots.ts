import type { CardFieldLabels } from '../provider';

/** The card fields a provider's iframes fill (SPEC.md §2 card form: number, MM/YY, CVV). */
export type CardFieldName = 'number' | 'expiry' | 'cvv';

const FIELD_ORDER: readonly CardFieldName[] = ['number', 'expiry', 'cvv'];

/** Placeholders that read the same in every language (SPEC.md §2: "MM/YY", "CVV"). */
export const CARD_FIELD_PLACEHOLDERS: Record<CardFieldName, string> = {
  number: '1234 1234 1234 1234',
  expiry: 'MM/YY',
  cvv: 'CVV',
};

let slotCount = 0;

export interface CardFieldSlots {
  /** The empty element each provider mounts its iframe into. */
  readonly slots: Record<CardFieldName, HTMLElement>;
  /** Removes the labels and slots this call added, and whatever the provider put inside. */
  remove(): void;
}

/**
 * One labelled slot per card field inside `container`. Stripe and Braintree both focus their
 * iframe when a `<label for>` naming the slot is clicked, so the visible label stays ours (and
 * translated) while the card data never leaves the provider's frame.
 */
export function createCardFieldSlots(
  container: HTMLElement,
  labels: CardFieldLabels,
): CardFieldSlots {
  slotCount += 1;
  const rows: HTMLElement[] = [];
  const slots = {} as Record<CardFieldName, HTMLElement>;
  for (const name of FIELD_ORDER) {
    const id = `card-field-${slotCount}-${name}`;
    const row = document.createElement('div');
    row.className = `card-field card-field--${name}`;
    const label = document.createElement('label');
    label.htmlFor = id;
    label.className = 'card-field__label';
    label.textContent = labels[name];
    const slot = document.createElement('div');
    slot.id = id;
    slot.className = 'card-field__input';
    row.appendChild(label);
    row.appendChild(slot);
    rows.push(row);
    slots[name] = slot;
  }
  for (const row of rows) container.appendChild(row);
  return {
    slots,
    remove: () => {
      for (const row of rows) row.remove();
    },
  };
}
