import {
  type CardFieldName,
  type CardFieldProblem,
  type CardFieldProblems,
  problemShown,
} from '../../../shared/card-field-problems';
import type { CardFieldsOptions } from '../provider';

export type { CardFieldName };

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
  /** The message line under each slot, empty and hidden until its field has a problem shown. */
  readonly errors: Record<CardFieldName, HTMLElement>;
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
  labels: CardFieldsOptions['labels'],
): CardFieldSlots {
  slotCount += 1;
  const rows: HTMLElement[] = [];
  const slots = {} as Record<CardFieldName, HTMLElement>;
  const errors = {} as Record<CardFieldName, HTMLElement>;
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
    const error = document.createElement('p');
    error.id = `${id}-error`;
    error.className = 'card-field__error';
    error.hidden = true;
    row.appendChild(label);
    row.appendChild(slot);
    row.appendChild(error);
    rows.push(row);
    slots[name] = slot;
    errors[name] = error;
  }
  for (const row of rows) container.appendChild(row);
  return {
    slots,
    errors,
    remove: () => {
      for (const row of rows) row.remove();
    },
  };
}

/**
 * The per-field checks of a provider whose own iframes check the card (Stripe's change events,
 * Braintree's validity): the provider's answer goes in as a problem per field, each shown under
 * its slot by the same rules as the test gateway's frame (shared/card-check.ts problemShown),
 * and the page is told (`onProblems`).
 */
export function slotProblems(
  fields: CardFieldSlots,
  { messages = {}, onProblems }: Pick<CardFieldsOptions, 'messages' | 'onProblems'>,
) {
  const problems: CardFieldProblems = { number: 'empty', expiry: 'empty', cvv: 'empty' };
  const left = new Set<CardFieldName>();
  let revealed = false;
  const show = () => {
    for (const name of FIELD_ORDER) {
      const problem = problems[name];
      const shown = problemShown(problem, { left: left.has(name), revealed });
      const error = fields.errors[name];
      error.textContent = shown ? (messages[`${name}_${problem}`] ?? '') : '';
      error.hidden = !shown;
      fields.slots[name].classList.toggle('card-field__input--invalid', shown);
    }
  };
  onProblems?.({ ...problems });
  return {
    problems: problems as Readonly<CardFieldProblems>,
    set(name: CardFieldName, problem: CardFieldProblem | null) {
      problems[name] = problem;
      show();
      onProblems?.({ ...problems });
    },
    leave(name: CardFieldName) {
      left.add(name);
      show();
    },
    reveal() {
      revealed = true;
      show();
    },
  };
}
