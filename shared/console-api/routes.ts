import type { ConfigDocument } from './config';
import type { ContentPreviewRoute } from './content';

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
  /** The whole draft to test (its routes, flows and composed screens); absent, what is live. */
  document?: ConfigDocument;
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
  /** Opens the route's funnel as a preview, which assigns and counts nothing; '' for none. */
  preview: string;
  /**
   * No preview link because the route (its currency table above all) is more than a browser's
   * preview cookie holds: the link would preview the live funnel instead.
   */
  previewTooLarge?: true;
  /** What the visitor gets on that route (the live experiments on the routing tested). */
  gets: VisitorGetsAnswer;
  /** The route as the content preview draws a screen of it (its flow, plans, variants, arms). */
  previewRoute: ContentPreviewRoute;
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

/** How a visitor came by an experiment's arm (worker/experiments/config/visitor-gets.ts). */
export type ArmSource = 'chosen' | 'pinned' | 'drawn' | 'rolled_out' | 'control';

/** A visitor's arm of one experiment, as the edge serves it. */
export interface VisitorArm {
  experiment: string;
  /** The experiment's name as the console shows it (its id where it has none). */
  name: string;
  layer: string;
  variant: string;
  /**
   * `chosen`: the arm asked for; `pinned`: kept from an earlier exposure; `drawn`: the hash of
   * the visitor id; `rolled_out`: a shipped winner; `control`: a visitor drawn by no one sees
   * each running experiment's control (and `skip_split` every experiment's).
   */
  source: ArmSource;
}

/** One screen of the funnel a visitor walks. */
export interface ServedScreen {
  /** The id the flow names (a composed screen's own). */
  ref: string;
  /** The screen in code it is drawn as; null for a composed id the content does not declare. */
  screen: string | null;
  /** Its slot (landing, signup…), null for one no test swaps. */
  slot: string | null;
  /** The content variant it shows; null: its own content. */
  variant: string | null;
}

/** What the edge serves a visitor: route, arms, flow and screens, plans and offer terms. */
export interface VisitorGetsAnswer {
  route: string;
  flow: string;
  /** The screen `/` opens with: the landing. */
  landing: ServedScreen | null;
  screens: ServedScreen[];
  arms: VisitorArm[];
  plans: string[] | null;
  upsellPlans: string[] | null;
  guidePlans: string[] | null;
  /** The currencies by country its route or price test sets; null: the routing's table. */
  currencies: Record<string, string> | null;
  /** Struck prices and the offer countdown shown. */
  anchors: boolean;
  countdown: boolean;
}

/**
 * POST CONSOLE_API.visitorGets: a described visitor, and what the edge would serve them under
 * the draft `document` (absent: what is live).
 */
export interface VisitorGetsRequest {
  /** The route they are on; absent: the route the router gives the visitor described. */
  route?: string;
  /** The ad link they open; absent: the site's front page, no campaign. */
  link?: string;
  /** ISO country; null: unknown. */
  country: string | null;
  platform: string;
  /** The ad app whose browser opens the link; absent: none. */
  app?: string;
  language?: string;
  returning?: boolean;
  /** A visitor id whose draws to follow; absent: a visitor drawn by none (each control). */
  visitorId?: string;
  /** Arms to show, experiment id → variant (a running or paused experiment's). */
  arms?: Record<string, string>;
  /** The draft; absent: the live config. */
  document?: unknown;
  /** ISO instant; absent: now. */
  at?: string;
}
