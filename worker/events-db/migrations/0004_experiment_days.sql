-- The split test's results by exposure day (worker/experiments/results/experiment-days.ts), for the
-- console's chart of the primary metric's lift over days: the same counts as experiment_arms and
-- experiment_revenue, split by the UTC day each visitor was exposed on. A visitor stays on that
-- day for good: what they do later (a step, a purchase a week on) counts on their exposure day,
-- so a day's counts are exact sums that only ever grow, and the results up to day D are the sum
-- of the days up to D. Kept by triggers beside 0003's, from the same rows.

-- Per phase, variant and exposure day: exposed visitors, how many reached each step, and the
-- earliest exposure's time (epoch ms; the phase's start is the smallest of them).
CREATE TABLE experiment_days (
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  day TEXT NOT NULL,                   -- 'YYYY-MM-DD', UTC
  exposed INTEGER NOT NULL DEFAULT 0,
  reached_lookup INTEGER NOT NULL DEFAULT 0,
  signed_up INTEGER NOT NULL DEFAULT 0,
  reached_checkout INTEGER NOT NULL DEFAULT 0,
  purchased INTEGER NOT NULL DEFAULT 0,
  first_exposed_at INTEGER NOT NULL,
  PRIMARY KEY (phase, variant, day)
) WITHOUT ROWID;

-- experiment_revenue's histogram by exposure day: how many visitors of an arm exposed that day
-- have spent exactly `revenue_minor` in `currency` (values above 0 only). Histograms add, so the
-- 99th percentile of the visitors exposed up to a day follows exactly, as the whole phase's does.
CREATE TABLE experiment_day_revenue (
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  day TEXT NOT NULL,
  currency TEXT NOT NULL,
  revenue_minor INTEGER NOT NULL,
  visitors INTEGER NOT NULL,
  PRIMARY KEY (phase, variant, day, currency, revenue_minor)
) WITHOUT ROWID;

-- What the visitors already exposed before this migration add up to.
INSERT INTO experiment_days
  (phase, variant, day, exposed, reached_lookup, signed_up, reached_checkout, purchased,
   first_exposed_at)
SELECT phase, variant, date(exposed_at / 1000, 'unixepoch'), count(*), sum(reached_lookup),
       sum(signed_up), sum(reached_checkout), sum(purchased), min(exposed_at)
FROM exposures GROUP BY 1, 2, 3;

INSERT INTO experiment_day_revenue (phase, variant, day, currency, revenue_minor, visitors)
SELECT e.phase, e.variant, date(e.exposed_at / 1000, 'unixepoch'), spent.currency, spent.total,
       count(*)
FROM (
  SELECT visitor_id, currency, sum(amount_minor) AS total FROM experiment_purchases
  WHERE currency IS NOT NULL GROUP BY visitor_id, currency
) AS spent
JOIN exposures AS e ON e.visitor_id = spent.visitor_id
WHERE spent.total > 0
GROUP BY 1, 2, 3, 4, 5;

CREATE TRIGGER exposure_counted_by_day AFTER INSERT ON exposures
BEGIN
  INSERT INTO experiment_days (phase, variant, day, exposed, first_exposed_at)
    VALUES (NEW.phase, NEW.variant, date(NEW.exposed_at / 1000, 'unixepoch'), 1, NEW.exposed_at)
    ON CONFLICT (phase, variant, day) DO UPDATE SET
      exposed = exposed + 1,
      first_exposed_at = min(first_exposed_at, excluded.first_exposed_at);
END;

-- As exposure_outcome_counted: flags go from 0 to 1 once, so the differences are 0 or 1.
CREATE TRIGGER exposure_outcome_counted_by_day
AFTER UPDATE OF reached_lookup, signed_up, reached_checkout, purchased ON exposures
BEGIN
  UPDATE experiment_days SET
    reached_lookup = reached_lookup + NEW.reached_lookup - OLD.reached_lookup,
    signed_up = signed_up + NEW.signed_up - OLD.signed_up,
    reached_checkout = reached_checkout + NEW.reached_checkout - OLD.reached_checkout,
    purchased = purchased + NEW.purchased - OLD.purchased
  WHERE phase = NEW.phase AND variant = NEW.variant
    AND day = date(NEW.exposed_at / 1000, 'unixepoch');
END;

-- As experiment_purchase_counted: the buyer moves from the bucket of what they had spent in that
-- currency to the bucket of what they have spent now, on their exposure day. It reads only
-- experiment_purchases and exposures, never the other trigger's tables, so the order the two
-- triggers fire in does not matter.
CREATE TRIGGER experiment_purchase_counted_by_day AFTER INSERT ON experiment_purchases
WHEN NEW.amount_minor > 0 AND NEW.currency IS NOT NULL
BEGIN
  UPDATE experiment_day_revenue SET visitors = visitors - 1
  WHERE phase = NEW.phase AND variant = NEW.variant AND currency = NEW.currency
    AND day = (
      SELECT date(exposed_at / 1000, 'unixepoch') FROM exposures
      WHERE visitor_id = NEW.visitor_id
    )
    AND revenue_minor = (
      SELECT SUM(amount_minor) FROM experiment_purchases
      WHERE visitor_id = NEW.visitor_id AND currency = NEW.currency
    ) - NEW.amount_minor;
  DELETE FROM experiment_day_revenue
  WHERE phase = NEW.phase AND variant = NEW.variant AND currency = NEW.currency AND visitors = 0;
  INSERT INTO experiment_day_revenue (phase, variant, day, currency, revenue_minor, visitors)
    SELECT NEW.phase, NEW.variant, date(e.exposed_at / 1000, 'unixepoch'), NEW.currency,
           (SELECT SUM(amount_minor) FROM experiment_purchases
            WHERE visitor_id = NEW.visitor_id AND currency = NEW.currency), 1
    FROM exposures AS e WHERE e.visitor_id = NEW.visitor_id
    ON CONFLICT (phase, variant, day, currency, revenue_minor) DO UPDATE SET
      visitors = visitors + 1;
END;
