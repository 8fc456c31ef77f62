-- The embedded portal's storage: an emulator of the product API of SPEC.md §7, for development
-- and tests. Production points PORTAL_URL at the real product API and never reads these tables.
-- Times are ISO 8601 UTC strings (new Date().toISOString()), so they sort as text.

CREATE TABLE users (
  id TEXT PRIMARY KEY,                 -- entity.external_user_id
  email TEXT NOT NULL,
  -- One account per address, compared case-insensitively (the trimmed, lower-cased email).
  email_key TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  user_uuid TEXT NOT NULL,             -- the funnel visitor's uuid
  landing_type TEXT NOT NULL,
  registration_source TEXT NOT NULL,   -- 'email' or 'google'
  google_subject TEXT UNIQUE,          -- the ID token's `sub` for Google accounts
  created_at TEXT NOT NULL
);

CREATE TABLE access_tokens (
  token_hash TEXT PRIMARY KEY,         -- SHA-256 (hex) of the bearer token; the token is not stored
  user_id TEXT NOT NULL REFERENCES users(id),
  created_at TEXT NOT NULL
);

CREATE TABLE deeplink_tokens (
  token TEXT PRIMARY KEY,              -- one-time login token carried by the short deeplink
  user_id TEXT NOT NULL REFERENCES users(id),
  created_at TEXT NOT NULL,
  used_at TEXT                         -- set by the first (and only) successful consume
);
CREATE INDEX deeplink_tokens_unused_by_user ON deeplink_tokens (user_id, used_at);

CREATE TABLE phone_lookups (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  phone TEXT NOT NULL,
  valid INTEGER NOT NULL,
  country TEXT,
  -- When the product would text the located person for consent (SPEC.md §6); the emulator
  -- records it instead of sending it.
  consent_sms_at TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE subscriptions (
  id TEXT PRIMARY KEY,                 -- subscription_id
  user_id TEXT NOT NULL REFERENCES users(id),
  plan_id TEXT NOT NULL,
  gateway TEXT NOT NULL,
  status TEXT NOT NULL,
  price_with_discount REAL,
  coupon TEXT,
  event_id TEXT,
  -- The client's Idempotency-Key: a repeated charge answers the first one instead of charging
  -- again. Scoped per user, like a payment provider scopes it per account.
  idempotency_key TEXT,
  decline_code TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (user_id, idempotency_key)
);

CREATE TABLE polling_results (
  id TEXT PRIMARY KEY,                 -- polling_result_id
  user_id TEXT NOT NULL REFERENCES users(id),
  plan_id TEXT NOT NULL,
  subscription_id TEXT NOT NULL REFERENCES subscriptions(id),
  result_json TEXT NOT NULL,           -- data.result_data, answered once ready_at has passed
  ready_at TEXT NOT NULL,              -- answers 202 until this moment (SPEC.md §7)
  created_at TEXT NOT NULL
);
CREATE INDEX polling_results_by_subscription ON polling_results (subscription_id);

-- Failure switches for development and tests: the next `remaining` calls named `call` answer
-- 500 (portal/faults.ts lists the names; `npm run portal -- fail <call> [count]` sets them).
CREATE TABLE emulator_faults (
  call TEXT PRIMARY KEY,
  remaining INTEGER NOT NULL CHECK (remaining >= 0)
);
