/**
 * What a card form says about each field, apart from the checks themselves
 * (shared/card-check.ts): the test gateway's frame checks the card with those, while Stripe's and
 * Braintree's fields check it in their own iframes and need only these names and the rule of when
 * a problem shows.
 */

/** The card fields of a card form (SPEC.md §2 card form: number, MM/YY, CVV). */
export type CardFieldName = 'number' | 'expiry' | 'cvv';

/**
 * What is wrong with one field, or null when it is fine: nothing typed yet, typed but not yet
 * whole (a number still short), or whole and wrong (a number failing Luhn, a past expiry).
 */
export type CardFieldProblem = 'empty' | 'incomplete' | 'invalid' | 'past';

export type CardFieldProblems = Record<CardFieldName, CardFieldProblem | null>;

/**
 * Whether a field's problem is shown beside it yet, as the best checkouts do: a whole and wrong
 * value (a number failing Luhn, a past expiry) at once; an unfinished one once the visitor has
 * left the field; an empty one only when Pay asks for every field (`revealed`).
 */
export function problemShown(
  problem: CardFieldProblem | null,
  field: { left: boolean; revealed: boolean },
): boolean {
  if (problem === null) return false;
  if (field.revealed) return true;
  if (problem === 'empty') return false;
  return problem === 'incomplete' ? field.left : true;
}
