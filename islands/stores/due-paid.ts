import { atom } from 'nanostores';

/**
 * What paid the subscription's due on this page (docs/payments.md, "Pay what is due"): the pay
 * form's own Pay, or Update card's "Pay now" with the card it just saved, each its own island.
 * Whichever paid, the pay form shows it and takes the focus, and the card row names the card
 * that paid, which the renewals now use. The worker's words and figures; null while still due.
 */
export interface DuePaid {
  amount: string | null;
  card: string | null;
  /** The next renewal, as the page's row says it (*December 28, 2026, $39.99*). */
  renews: string | null;
}

export const $duePaid = atom<DuePaid | null>(null);

/** Notes the due paid, for every island of the page: the answer's words, none made up. */
export function notePaidDue(paid: Partial<DuePaid>): void {
  $duePaid.set({
    amount: paid.amount ?? null,
    card: paid.card ?? null,
    renews: paid.renews ?? null,
  });
}
