-- A subscriber's card update from the manage link's page (POST /subscriptions/{id}/payment-method,
-- portal/card-update.ts): one row per call's Idempotency-Key, so a second press changes the card
-- once and a 3-D Secure challenge decides only the update that opened it. The card itself is the
-- subscription's `payment_method` (its label the test gateway's), set when an update succeeds.
-- Nothing is charged.
CREATE TABLE card_updates (
  subscription_id TEXT NOT NULL REFERENCES subscriptions(id),
  idempotency_key TEXT NOT NULL,
  payment_method TEXT NOT NULL,
  payment_intent_id TEXT,              -- a 3-D Secure challenge waiting to decide the update
  created_at TEXT NOT NULL,
  updated_at TEXT,                     -- set once, when the card became the subscription's
  PRIMARY KEY (subscription_id, idempotency_key)
);
