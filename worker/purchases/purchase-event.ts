import type { CollectedEvent } from '../../shared/analytics/batch';
import type { EventName } from '../../shared/analytics/catalogue';
import { isPlanId, planById } from '../../shared/plans/catalogue';
import type { Theme } from '../../shared/theme';
import type { VerifiedCharge } from '../checkout/charge-call';

/** What the request that relayed the charge says about who bought it and where. */
export interface PurchaseFacts {
  /** The visitor uuid (cookie), the events' device_id. */
  visitorId: string;
  /** The portal's external user id, from the sign-in the worker relayed; null if unknown. */
  userId: string | null;
  variant: string;
  flow: string;
  configVersion: string;
  /** The visitor's route (gf_route), or null when the request brought none. */
  route: string | null;
  /** Where their visit came from (gf_touch's source), or null when the request brought none. */
  trafficSource: string | null;
  /** The page that asked (`Referer`): its screen and its click ids. */
  pageUrl: string | null;
  /**
   * The language the pages speak to this visitor (SPEC.md §9, from their Accept-Language): the
   * renewal reminders the product API is asked for are written in it (worker/lifecycle/reminders.ts).
   */
  language: string;
  /** The brand the purchase was made in (./purchase-look.ts): the reminders wear it too. */
  theme: Theme;
  /** Epoch ms on the worker's clock. */
  at: number;
}

/** A main plan's purchase is subs_purchase_completed; an upsell's or the guide's is the upsell's. */
function eventTypeOf(planId: string | null): EventName {
  const role = planId && isPlanId(planId) ? planById(planId).role : 'main';
  return role === 'main' ? 'subs_purchase_completed' : 'upsell_purchase_completed';
}

/** The screen of the page that polled, as the browser's events name it (SPEC.md §3 screen_name). */
function screenOf(pageUrl: URL | null): string {
  const screen = pageUrl?.pathname.replace(/^\/+/, '') ?? '';
  return screen === '' ? 'server' : screen.slice(0, 128);
}

function parsedUrl(url: string | null): URL | null {
  if (url === null) return null;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * The server-verified purchase as an event of the collector's shape (SPEC.md §3 Purchase tracking
 * payload in its properties): what was charged from the product API's answer, who and where from
 * the request. `source: 'server'` is informative here; the queue message's own source is what the
 * destinations trust (worker/collector/queued-event.ts).
 */
export function purchaseEventOf(
  charge: VerifiedCharge,
  facts: PurchaseFacts,
  insertId: string,
): CollectedEvent {
  const page = parsedUrl(facts.pageUrl);
  const clickId = (name: string) => page?.searchParams.get(name)?.slice(0, 256) || null;
  return {
    event_type: eventTypeOf(charge.planId),
    insert_id: insertId,
    time: facts.at,
    // No browser session is known here; the destinations read 0 as "outside a session".
    session_id: 0,
    device_id: facts.visitorId,
    user_id: facts.userId,
    event_properties: {
      screen_name: screenOf(page),
      variant: facts.variant,
      flow: facts.flow,
      config_version: facts.configVersion,
      route: facts.route,
      // Not `source`: the queue message's source (who vouches) overwrites that property.
      traffic_source: facts.trafficSource,
      language: facts.language,
      theme: facts.theme,
      source: 'server',
      price: charge.amount,
      currency: charge.currency,
      plan: charge.planId,
      sub_id: charge.subscriptionId,
      event_id: charge.eventId,
      gclid: clickId('gclid'),
      fb_click_id: clickId('fbclid'),
      tt_click_id: clickId('ttclid'),
    },
  };
}
