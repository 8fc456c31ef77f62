-- The test gateway: an emulator of a card processor with the behaviour of Stripe's
-- documented test cards, for development and tests only. The full card number is never stored.

CREATE TABLE test_payment_methods (
  id TEXT PRIMARY KEY,                 -- the nonce the checkout sends: tpm_…
  brand TEXT NOT NULL,
  last4 TEXT NOT NULL,
  behaviour TEXT NOT NULL,             -- portal/test-gateway/test-cards.ts CardBehaviour
  -- Braintree-style 3-D Secure verification of the nonce (POST /test-gateway/verify): null
  -- until asked, then 'requires_action', 'succeeded' or 'failed'.
  verification TEXT,
  created_at TEXT NOT NULL
);

-- A 3-D Secure challenge: of a charge that answered requires_action (purpose 'payment', with the
-- subscription row it decides), or of a Braintree-style verification (purpose 'verify').
CREATE TABLE test_payment_intents (
  id TEXT PRIMARY KEY,                 -- tpi_…
  secret TEXT NOT NULL,                -- payment_intent_secret: tpi_…_secret_…
  purpose TEXT NOT NULL CHECK (purpose IN ('payment', 'verify')),
  payment_method_id TEXT NOT NULL REFERENCES test_payment_methods(id),
  user_id TEXT REFERENCES users(id),
  plan_id TEXT,
  subscription_id TEXT REFERENCES subscriptions(id),
  status TEXT NOT NULL CHECK (status IN ('requires_action', 'succeeded', 'failed')),
  created_at TEXT NOT NULL,
  authenticated_at TEXT
);

-- What a charge was made with, so an upsell can charge the method on file, and the
-- processor's text of a decline.
ALTER TABLE subscriptions ADD COLUMN payment_method TEXT;
ALTER TABLE subscriptions ADD COLUMN processor_response TEXT;
ALTER TABLE subscriptions ADD COLUMN payment_intent_id TEXT;
CREATE INDEX subscriptions_by_user_status ON subscriptions (user_id, status, created_at);
