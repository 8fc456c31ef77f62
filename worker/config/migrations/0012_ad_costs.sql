-- Ad costs (worker/ad-costs/ad-costs.ts): what the ads of one source and campaign cost on one
-- day, as a marketer imported it (worker/console/ad-costs-route.ts), for the funnel report's cost
-- per sign-up, cost per purchase and return on ad spend. One row per day, source and campaign,
-- so a re-upload of that day replaces it; a year of 300 campaigns a day is 110,000 rows, some
-- 10 MB. Amounts in the minor units of their own currency, converted only when read.
CREATE TABLE ad_costs (
  day TEXT NOT NULL,              -- YYYY-MM-DD (UTC)
  source TEXT NOT NULL,           -- a first touch's source (shared/routing.ts SOURCES)
  campaign TEXT NOT NULL,         -- utm_campaign as a visit keeps it; '' for none
  currency TEXT NOT NULL,         -- ISO 4217
  amount_minor INTEGER NOT NULL,  -- >= 0
  uploaded_by TEXT NOT NULL,      -- the console author: an Access email or token:<name>
  uploaded_at INTEGER NOT NULL,   -- epoch ms
  PRIMARY KEY (day, source, campaign)
) WITHOUT ROWID;
