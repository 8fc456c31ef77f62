import type { RoutingDocument } from '../config/routing';

/** The console's traffic area: "test a visitor" and the routes' visits and steps. */

/** The console's "test a visitor": an ad link and what the edge would know of the visitor. */
export interface RouteTestRequest {
  /** The link as a marketer pastes it (https://…/?utm_source=tiktok&ttclid=…). */
  link: string;
  /** ISO country; null: unknown. */
  country: string | null;
  platform: string;
  /** The ad app whose browser opens the link, or 'none'. */
  app: string;
  /** Page language; absent: 'en'. */
  language?: string;
  /**
   * The ad network whose click id the visitor's link carries, or 'none', over the link's own
   * click ids; absent: as the link says.
   */
  clickId?: string;
  returning?: boolean;
  /** The routing to test: the draft being edited; absent, what is live. */
  routing?: RoutingDocument;
  /** ISO instant to test at; absent, now. */
  at?: string;
}

export interface RouteTestAnswer {
  route: string;
  flow: string;
  plans: string[] | null;
  /** The upsell's and the guide's plans it offers; null: the screens' own. */
  upsellPlans: string[] | null;
  guidePlans: string[] | null;
  /** Each route before it, with why it did not take the visitor. */
  passed: { id: string; why: string }[];
  /** What the visitor's first touch reads from the link (source, UTM values, entry). */
  source: string;
  /** Opens the route's funnel as a preview, which assigns and counts nothing. */
  preview: string;
}

/**
 * The funnel steps counted by route and day, from the visitors' own events and the verified
 * purchases: started a lookup (the search), signed up, reached the paywall or checkout, bought
 * a main plan (and so reached the upsell).
 */
export const ROUTE_STEPS = ['lookup', 'signup', 'paywall', 'upsell'] as const;

export type RouteStep = (typeof ROUTE_STEPS)[number];

/**
 * First visits each route took over the last `days` UTC days, today included, exact counts; and
 * how often its visitors reached each step over the same days (`steps`), an estimate: events
 * counted, so a visitor who reached a step twice (a reload, another day) counts twice.
 */
export interface RouteVisitsAnswer {
  days: number;
  /** By route id; a route with none is absent. */
  visits: Record<string, number>;
  total: number;
  /** By route id; a route with no step counted is absent, a step not reached is 0. */
  steps: Record<string, Record<RouteStep, number>>;
}
