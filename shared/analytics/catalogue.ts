import type { ScreenId } from '../screens';

/**
 * The events catalogue of SPEC.md §4 Analytics events. Every name the funnel sends is one of
 * these, or a screen's own load or click event (screenEvent below).
 */
export const FUNNEL_EVENTS = [
  'onboarding_start',
  'lead',
  'checkout_screen_load',
  'processing_started',
  'session_start',
  'subs_purchase_show',
  'subs_purchase_started',
  'subs_purchase_completed',
  'subs_purchase_failed',
  'payment_successful_popup',
  'subs_purchase_screen_close',
  'upsell_purchase_completed',
] as const;

export const GENERIC_EVENTS = [
  'load',
  'click',
  'screen__load',
  'button__continue',
  'button__scroll',
  'link__redirect',
  'option__redirect',
] as const;

/**
 * The way out of an ad app's own browser (islands/OpenInBrowser.tsx): offered on a screen, taken
 * (the visitor pressed it), completed (the link opened in the real browser), with the app and OS.
 */
export const IN_APP_ESCAPE_EVENTS = [
  'in_app_escape_offered',
  'in_app_escape_taken',
  'in_app_escape_completed',
] as const;

/**
 * SPEC.md §8 chunk load failure: an island's script failed or stalled twice (islands/hydrate.ts),
 * with `chunk` (the island's name) and `type` ('missing' or 'timeout'); and ours, the page's first
 * uncaught error of its own scripts (islands/analytics/script-errors.ts), with `kind` and
 * `message`. Both are a guarded ramp's client errors (docs/statistics.md).
 */
export const LOADING_EVENTS = ['chunk_load_failed', 'script_error'] as const;

export type FunnelEventName =
  | (typeof FUNNEL_EVENTS)[number]
  | (typeof IN_APP_ESCAPE_EVENTS)[number]
  | (typeof LOADING_EVENTS)[number];
export type GenericEventName = (typeof GENERIC_EVENTS)[number];

/**
 * SPEC.md §4: "each screen emits a screen-load event and a click event, named as the screen id
 * plus a fixed suffix". The suffixes follow the generic events' `__` separator: the load of
 * `checkout_v3_tr` is `checkout_v3_tr__load`, a click on it `checkout_v3_tr__click`.
 */
export const SCREEN_EVENT_SUFFIX = { load: '__load', click: '__click' } as const;

export type ScreenEventName =
  `${ScreenId}${(typeof SCREEN_EVENT_SUFFIX)[keyof typeof SCREEN_EVENT_SUFFIX]}`;

export type EventName = FunnelEventName | GenericEventName | ScreenEventName;

export function screenEvent(
  screen: ScreenId,
  kind: keyof typeof SCREEN_EVENT_SUFFIX,
): ScreenEventName {
  return `${screen}${SCREEN_EVENT_SUFFIX[kind]}`;
}

/** The purchase events the ad networks hear of (Meta Conversions API, TikTok Events API). */
export const PURCHASE_EVENTS: ReadonlySet<string> = new Set<EventName>([
  'subs_purchase_completed',
  'upsell_purchase_completed',
]);
