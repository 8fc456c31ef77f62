-- The split test's results (worker/experiments/): who was exposed to which variant in which phase,
-- what each exposed visitor went on to do, and per-arm sufficient statistics the triggers below
-- keep in step with those rows. Exact counts, never samples. Times are epoch milliseconds.

-- One row per exposed visitor (the userUuid cookie), written by the worker when it draws the
-- visitor's variant on a funnel page: once, in the phase of that draw. A visitor who comes back in
-- a later phase keeps the variant and this row, so counts only in the phase of the draw. The 0/1
-- flags are set once each: by the queue consumer from the visitor's own events
-- (onboarding_start, lead, checkout_screen_load; its destination 'experiment' in deliveries), and
-- `purchased` from server-verified purchases.
CREATE TABLE exposures (
  visitor_id TEXT PRIMARY KEY,
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  config_version TEXT NOT NULL,        -- e.g. 'v12+v12', the config that drew it
  exposed_at INTEGER NOT NULL,
  reached_lookup INTEGER NOT NULL DEFAULT 0,
  signed_up INTEGER NOT NULL DEFAULT 0,
  reached_checkout INTEGER NOT NULL DEFAULT 0,
  purchased INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

-- Each server-verified purchase (verified_purchases) of an exposed visitor, once per subscription
-- id, in the visitor's phase and variant. Amounts are in the currency's minor units (cents), as
-- the product API answered; NULL when it named no amount or currency.
CREATE TABLE experiment_purchases (
  subscription_id TEXT PRIMARY KEY,
  visitor_id TEXT NOT NULL,
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  amount_minor INTEGER,
  currency TEXT,                       -- ISO 4217, upper case
  recorded_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX experiment_purchases_by_visitor ON experiment_purchases (visitor_id, currency);

-- Per phase and variant: exposed visitors, how many reached each step, verified purchases, and
-- bots (fresh draws for known bots, kept out of `exposed`). Kept by the triggers below, so the
-- results read a handful of rows however many visitors there were.
CREATE TABLE experiment_arms (
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  exposed INTEGER NOT NULL DEFAULT 0,
  reached_lookup INTEGER NOT NULL DEFAULT 0,
  signed_up INTEGER NOT NULL DEFAULT 0,
  reached_checkout INTEGER NOT NULL DEFAULT 0,
  purchased INTEGER NOT NULL DEFAULT 0,
  purchases INTEGER NOT NULL DEFAULT 0,
  unpriced_purchases INTEGER NOT NULL DEFAULT 0,
  bots INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (phase, variant)
) WITHOUT ROWID;

-- Revenue per exposed visitor as a histogram: how many visitors of an arm have spent exactly
-- `revenue_minor` in `currency` (values above 0 only; everyone else spent 0). Sum and sum of
-- squares follow from it exactly, and so does the 99th percentile the results cap revenue at.
-- Plan prices make the distinct values few.
CREATE TABLE experiment_revenue (
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  currency TEXT NOT NULL,
  revenue_minor INTEGER NOT NULL,
  visitors INTEGER NOT NULL,
  PRIMARY KEY (phase, variant, currency, revenue_minor)
) WITHOUT ROWID;

CREATE TRIGGER exposure_counted AFTER INSERT ON exposures
BEGIN
  INSERT INTO experiment_arms (phase, variant, exposed) VALUES (NEW.phase, NEW.variant, 1)
    ON CONFLICT (phase, variant) DO UPDATE SET exposed = exposed + 1;
END;

-- Flags only ever go from 0 to 1, and the writers update only rows whose flag is 0: a message
-- delivered twice changes no row, so fires nothing.
CREATE TRIGGER exposure_outcome_counted AFTER UPDATE ON exposures
BEGIN
  UPDATE experiment_arms SET
    reached_lookup = reached_lookup + NEW.reached_lookup - OLD.reached_lookup,
    signed_up = signed_up + NEW.signed_up - OLD.signed_up,
    reached_checkout = reached_checkout + NEW.reached_checkout - OLD.reached_checkout,
    purchased = purchased + NEW.purchased - OLD.purchased
  WHERE phase = NEW.phase AND variant = NEW.variant;
END;

-- A purchase moves its visitor from the histogram's bucket of what they had spent in that
-- currency before to the bucket of what they have spent now.
CREATE TRIGGER experiment_purchase_counted AFTER INSERT ON experiment_purchases
BEGIN
  UPDATE exposures SET purchased = 1 WHERE visitor_id = NEW.visitor_id AND purchased = 0;
  UPDATE experiment_arms SET
    purchases = purchases + 1,
    unpriced_purchases = unpriced_purchases + (NEW.amount_minor IS NULL OR NEW.currency IS NULL)
  WHERE phase = NEW.phase AND variant = NEW.variant;
  UPDATE experiment_revenue SET visitors = visitors - 1
  WHERE NEW.amount_minor > 0 AND NEW.currency IS NOT NULL
    AND phase = NEW.phase AND variant = NEW.variant AND currency = NEW.currency
    AND revenue_minor = (
      SELECT SUM(amount_minor) FROM experiment_purchases
      WHERE visitor_id = NEW.visitor_id AND currency = NEW.currency
    ) - NEW.amount_minor;
  DELETE FROM experiment_revenue
  WHERE phase = NEW.phase AND variant = NEW.variant AND currency = NEW.currency AND visitors = 0;
  INSERT INTO experiment_revenue (phase, variant, currency, revenue_minor, visitors)
    SELECT NEW.phase, NEW.variant, NEW.currency, SUM(amount_minor), 1 FROM experiment_purchases
    WHERE NEW.amount_minor > 0 AND NEW.currency IS NOT NULL
      AND visitor_id = NEW.visitor_id AND currency = NEW.currency
    GROUP BY visitor_id
    ON CONFLICT (phase, variant, currency, revenue_minor) DO UPDATE SET visitors = visitors + 1;
END;
