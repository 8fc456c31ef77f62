import type { EventName, GenericEventName } from '../../shared/analytics/catalogue';
import { screenEvent } from '../../shared/analytics/catalogue';
import { isPlanId, planById } from '../../shared/plans/catalogue';
import { isPaywallScreen, isScreenId } from '../../shared/screens';
import type { PurchaseTrackingPayload } from '../payments/purchase-tracking';
import type { ClickProperties } from './clicks';

/** The Continue button's id (SPEC.md §2 Shared building blocks). */
const CONTINUE_BUTTON_ID = 'continue-button';

/** Checkouts and paywalls: where the plans are shown and paid for. */
export const isPaywall = isPaywallScreen;

/**
 * What every page load emits (SPEC.md §4 Analytics events): `load`, `screen__load` and the
 * screen's own load event; a checkout or paywall also says it was shown.
 */
export function loadEvents(screen: string): EventName[] {
  const events: EventName[] = ['load', 'screen__load'];
  if (isScreenId(screen)) events.push(screenEvent(screen, 'load'));
  if (isPaywall(screen)) events.push('checkout_screen_load', 'subs_purchase_show');
  return events;
}

/** Generic events a control may name with data-event (clicks.ts). */
const MARKED_EVENTS: ReadonlySet<string> = new Set<EventName>([
  'button__scroll',
  'option__redirect',
]);

/**
 * What one click on a control emits: `click` and the screen's own click event; the Continue
 * button also `button__continue`, a link also `link__redirect`, a control marked with a
 * data-event of button__scroll or option__redirect that event.
 */
export function clickEvents(screen: string, click: ClickProperties): EventName[] {
  const events: EventName[] = ['click'];
  if (isScreenId(screen)) events.push(screenEvent(screen, 'click'));
  if (click.element_id === CONTINUE_BUTTON_ID) events.push('button__continue');
  if (click.element_role === 'link') events.push('link__redirect');
  if (click.element_event && MARKED_EVENTS.has(click.element_event)) {
    events.push(click.element_event as EventName);
  }
  return events;
}

/** What the page reports (start.ts, clicks.ts) before the tracker fans it out. */
const RAW_LOAD: GenericEventName = 'load';
const RAW_CLICK: GenericEventName = 'click';

/** The events one reported event stands for on `screen`. */
export function fannedOut(screen: string, event: { name: string; properties?: unknown }): string[] {
  if (event.name === RAW_LOAD) return loadEvents(screen);
  if (event.name === RAW_CLICK)
    return clickEvents(screen, (event.properties ?? {}) as ClickProperties);
  return [event.name];
}

/**
 * A purchase handed over by the payment (islands/stores/events.ts) as its event: the upsells'
 * and the guide's plans (catalogue role upsell or guide) are upsell purchases, any other plan
 * the subscription. The SPEC.md §3
 * purchase payload is the event's properties.
 */
export function purchaseEvent(payload: PurchaseTrackingPayload): {
  name: EventName;
  properties: Record<string, unknown>;
} {
  const upsell = isPlanId(payload.plan) && planById(payload.plan).role !== 'main';
  return {
    name: upsell ? 'upsell_purchase_completed' : 'subs_purchase_completed',
    properties: { ...payload },
  };
}
