import { ProviderError } from './provider';

/**
 * How long the provider's script and fields may take to be usable before the card form says it
 * could not load and the worker is told (docs/payments.md, "A failing provider routed around").
 * SPEC.md gives none for a provider (its chunks wait 120 s, §9): Stripe.js and Braintree's client
 * arrive in seconds even on a slow phone, so 30 s is a script that is not coming. Not less: a
 * phone on a poor network, or a busy test machine, must not be told the form failed when it is
 * only slow, nor the provider be counted as failing for it.
 */
export const CARD_FIELDS_DEADLINE_MS = 30_000;

/**
 * `work`, or the card form's 'could not load' once `ms` have passed; `late` runs when the work
 * ends after that (its fields then come out again).
 */
export function withinDeadline<T>(work: Promise<T>, ms: number, late: () => void): Promise<T> {
  let passed = false;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      passed = true;
      reject(ProviderError.of('card_form_unavailable'));
    }, ms);
    work.then(
      (value) => {
        if (passed) return late();
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        if (passed) return;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
