-- A renewal the gateway failed to charge leaves an amount due, which the
-- subscriber pays through the recovery link's page (POST /subscriptions/{id}/pay-due). One row
-- per subscription: its latest failed renewal. `paid_at` is set once, with the Idempotency-Key
-- that paid it, so a second press answers the first payment and charges nothing more.
CREATE TABLE renewal_dues (
  subscription_id TEXT PRIMARY KEY REFERENCES subscriptions(id),
  amount REAL NOT NULL,                -- major units of `currency`: 39.99
  currency TEXT NOT NULL,
  failed_at TEXT NOT NULL,
  payment_intent_id TEXT,              -- a 3-D Secure challenge waiting to decide the payment
  paid_at TEXT,
  idempotency_key TEXT,
  payment_method TEXT
);
