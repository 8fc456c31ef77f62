import { AFTER_ISLANDS } from './after/islands';
import { KIT_ISLANDS } from './kit/islands';
import { LANDING_ISLANDS } from './landing/islands';
import { LAYOUT_ISLANDS } from './layout/islands';
import { PLANS_ISLANDS } from './plans/islands';
import { QUIZ_ISLANDS } from './quiz/islands';
import { SEARCHING_ISLANDS } from './searching/islands';
import { SIGNUP_ISLANDS } from './signup/islands';
import { SUBSCRIBER_ISLANDS } from './subscriber/islands';

/**
 * Every island the screens may render, by name. The name is also the file `islands/<Name>.tsx`
 * that the build turns into the chunk the browser loads. Each area lists its own.
 */
export const ISLANDS = {
  ...KIT_ISLANDS,
  ...LAYOUT_ISLANDS,
  ...LANDING_ISLANDS,
  ...SEARCHING_ISLANDS,
  ...SIGNUP_ISLANDS,
  ...PLANS_ISLANDS,
  ...AFTER_ISLANDS,
  ...QUIZ_ISLANDS,
  ...SUBSCRIBER_ISLANDS,
} as const;

export type IslandName = keyof typeof ISLANDS;

/**
 * Islands whose server HTML does nothing without their script: the card form (only the card
 * provider's script makes it, and Pay is held until then), the plan cards, the search that never
 * ends without it, the Google and open-in-browser buttons. If such an island's script cannot
 * load, the page shows a message with Reload in its place (islands/hydrate.ts) rather than a
 * control that does nothing. Every other island keeps its server HTML: it is a form the worker
 * answers (phone, email, consent, download, upsell, try again, auto sign-up) or only shows
 * something (timer, banners, reviews, QR code, toast).
 */
export const SCRIPT_ONLY_ISLANDS: ReadonlySet<IslandName> = new Set<IslandName>([
  'CheckoutPayment',
  'PlanChoice',
  'SearchProgress',
  'GoogleSignIn',
  'OpenInBrowser',
  'PayDue',
]);
