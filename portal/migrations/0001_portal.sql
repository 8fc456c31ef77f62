-- The embedded portal's storage (an emulator of the product API of SPEC.md §7, for development
-- and tests). Production points PORTAL_URL at the real product API and never reads these tables.

CREATE TABLE users (
  id TEXT PRIMARY KEY,                 -- entity.external_user_id
  email TEXT NOT NULL,
  -- One account per address, compared case-insensitively.
  email_key TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  user_uuid TEXT NOT NULL,             -- the funnel visitor's uuid
  landing_type TEXT NOT NULL,
  registration_source TEXT NOT NULL,   -- 'email' or 'google'
  google_subject TEXT UNIQUE,          -- the ID token's `sub` for Google accounts
  created_at TEXT NOT NULL
);

CREATE TABLE access_tokens (
  token_hash TEXT PRIMARY KEY,         -- SHA-256 of the bearer token; the token itself is not stored
  user_id TEXT NOT NULL REFERENCES users(id),
  created_at TEXT NOT NULL
);

CREATE TABLE deeplink_tokens (
  token TEXT PRIMARY KEY,              -- one-time login token carried by the short deeplink
  user_id TEXT NOT NULL REFERENCES users(id),
  created_at TEXT NOT NULL,
  used_at TEXT
);

CREATE TABLE phone_lookups (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  phone TEXT NOT NULL,
  valid INTEGER NOT NULL,
  country TEXT,
  -- Where the product would text the located person for consent (SPEC.md §6); the emulator
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
  idempotency_key TEXT UNIQUE,
  decline_code TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE polling_results (
  id TEXT PRIMARY KEY,                 -- polling_result_id
  user_id TEXT NOT NULL REFERENCES users(id),
  plan_id TEXT NOT NULL,
  status TEXT NOT NULL,                -- 'pending' until final
  result_json TEXT,                    -- data.result_data once final
  ready_at TEXT NOT NULL,              -- answers 202 until this moment
  created_at TEXT NOT NULL
);

-- Failure switches for development and tests: the next `remaining` calls named `call` fail.
CREATE TABLE emulator_faults (
  call TEXT PRIMARY KEY,               -- e.g. 'payments-settings', 'phone-number-info'
  remaining INTEGER NOT NULL
);
