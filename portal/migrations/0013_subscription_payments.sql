-- Every payment of a subscription after its first charge, and every amount given back: one row
-- each, never replaced (portal/store/subscription-payments.ts). The first charge is the
-- subscription's own row. `id` is the lifecycle event id the emulator sends for it, so the
-- worker's archive and this table name each payment alike.
CREATE TABLE subscription_payments (
  id TEXT PRIMARY KEY,
  subscription_id TEXT NOT NULL REFERENCES subscriptions(id),
  kind TEXT NOT NULL,                  -- renewal, recovery, refund, chargeback
  amount_minor INTEGER NOT NULL,       -- positive, in minor units of `currency`
  currency TEXT NOT NULL,
  attempt INTEGER,                     -- the try of its billing period, the first 1
  card_brand TEXT,
  occurred_at TEXT NOT NULL
);
CREATE INDEX subscription_payments_by_subscription
  ON subscription_payments (subscription_id, occurred_at);
-- The payment that settled a due (its row above): written in the same batch as `paid_at`, so a
-- later failure replacing the due never takes the payment with it.
ALTER TABLE renewal_dues ADD COLUMN payment_id TEXT;
-- A chargeback the provider reported: set once, at the first.
ALTER TABLE subscriptions ADD COLUMN charged_back_at TEXT;
