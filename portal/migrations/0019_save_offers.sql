-- Each save offer a subscriber took on the subscriber's page instead of cancelling
-- (shared/api/subscriber-calls.ts `saveOfferTake`, docs/product-api.md "Save offer actions"): a
-- discount on the next renewals, a pause, or a switch to a cheaper plan. One row per offer, never
-- replaced: the renewal terms (portal/renewal-terms.ts) are read from these rows and the renewals
-- paid since (`subscription_payments`), so a discount's renewals left are the renewals it names
-- less those paid since `taken_at`, with no counter to keep in step. At most one a subscription
-- in 12 months. `idempotency_key` is the worker's, and `answer` what the first call answered:
-- a repeat under that key answers it again, changing nothing.
CREATE TABLE save_offers (
  id TEXT PRIMARY KEY,
  subscription_id TEXT NOT NULL REFERENCES subscriptions(id),
  action TEXT NOT NULL,                -- discount, pause, switch
  percent_off INTEGER,                 -- a discount's share off each renewal, 1-100
  renewals INTEGER,                    -- a discount's: how many renewals it is off
  months INTEGER,                      -- a pause's length
  plan_before TEXT NOT NULL,           -- the plan it renewed on when taken
  plan_after TEXT NOT NULL,            -- the plan it renews on since: a switch's, else plan_before
  paused_until TEXT,                   -- a pause's end: the next renewal, `months` later
  taken_at TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  brand TEXT,
  language TEXT,
  experiment TEXT,                     -- the save offer test and arm that offered it, if any
  variant TEXT,
  answer TEXT NOT NULL,                -- JSON: what the call answered
  UNIQUE (subscription_id, idempotency_key)
);
CREATE INDEX save_offers_by_taken ON save_offers (subscription_id, taken_at);
