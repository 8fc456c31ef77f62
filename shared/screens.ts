/**
 * Every screen id of SPEC.md §2. One path segment per screen: `/{screenId}`.
 *
 * Two ids the spec leaves open are fixed here:
 * - `paycheck_combo_3d`: the `{hash}` 3-day combo paywall (Apple Pay first).
 * - `payment_declined`: the page titled 'Payment declined' with Try again (SPEC.md §2, §8).
 */
export const SCREEN_IDS = [
  'one_pager',
  'one_pager_all',
  'one_pager_ai',
  'one_pager_l1',
  'one_pager_l2',
  'searching',
  'searching_2',
  'searching_ai',
  'signup',
  'signup_testim',
  'features',
  'checkout_v3_tr',
  'checkout_h3_pp',
  'checkout_v3_pp',
  'checkout_h3_pp_braintree',
  'paycheck1_pr5_h_win',
  'paycheck1_pr5_h_ai',
  'paycheck_combo_3d',
  'upsell_an_private',
  'upsell_guide',
  'success',
  'payment_declined',
  'auto-signup',
  'checkout-test',
] as const;

export type ScreenId = (typeof SCREEN_IDS)[number];

/**
 * The screen in code that draws a quiz's question (shared/quiz/question.ts), at the path of each
 * question the content declares (shared/composed-screens.ts screenOfRef); it has no path of its
 * own, so it is none of SPEC.md §2's screen ids above.
 */
export const QUESTION_SCREEN = 'question';

/** A screen in code a page is drawn as: one of SPEC.md §2's, or a quiz's question. */
export type DrawnScreen = ScreenId | typeof QUESTION_SCREEN;

const screenIdSet: ReadonlySet<string> = new Set(SCREEN_IDS);

export function isScreenId(value: string): value is ScreenId {
  return screenIdSet.has(value);
}

/** Checkouts and paywalls: the screens where plans are shown and paid for. */
export function isPaywallScreen(screen: string): boolean {
  return screen.startsWith('checkout') || screen.startsWith('paycheck');
}
