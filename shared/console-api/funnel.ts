/**
 * GET: the funnel by route, source and campaign, by day, and each campaign's cost per sign-up,
 * cost per purchase and return on ad spend (FunnelReportAnswer); `format=csv` answers a table of
 * it (`table=campaigns`, the default, or `table=days`).
 */
export const CONSOLE_FUNNEL_PATH = '/console/api/funnel';

/**
 * The longest range one report reads (request-schemas.ts funnelReportQuery): every shard's days,
 * each a few rows a route and campaign.
 */
export const FUNNEL_REPORT_MAX_DAYS = 93;

/**
 * A group's visitors and what they reached, each counted once, on the day of their first visit;
 * revenue is their first payments, in US cents at the reporting rates.
 */
export interface FunnelCounts {
  visitors: number;
  lookups: number;
  signups: number;
  checkouts: number;
  purchases: number;
  upsells: number;
  revenueCents: number;
  /** Currencies paid in that have no reporting rate: left out of revenueCents. */
  revenueUnconverted: string[];
}

/** One day of one route's visitors from one source and campaign. */
export interface FunnelDay extends FunnelCounts {
  day: string;
  route: string;
  source: string;
  /** The first link's `utm_campaign`, '' for none. */
  campaign: string;
}

/** What a campaign cost, and what each result cost, over the report's days. */
export interface CampaignSpend {
  /** The ad costs imported for its days, in US cents; null when none was. */
  costCents: number | null;
  costPerSignupCents: number | null;
  costPerPurchaseCents: number | null;
  /** Revenue over cost (1.5: 150 %); null without a cost. */
  roas: number | null;
}

/** One source and campaign over the report's days, every route's visitors. */
export interface FunnelCampaign extends FunnelCounts, CampaignSpend {
  source: string;
  campaign: string;
}

export interface FunnelReportAnswer {
  from: string;
  to: string;
  /** The route the days were read for, or null for every route. */
  route: string | null;
  /** The currency of every `…Cents`, and the date of its rates. */
  currency: 'USD';
  ratesDate: string;
  days: FunnelDay[];
  /** Costs are per campaign, whichever route its visitors took: every route's, always. */
  campaigns: FunnelCampaign[];
  totals: FunnelCounts & CampaignSpend;
}
