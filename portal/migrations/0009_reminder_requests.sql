-- The renewal reminders the worker asked the emulated product API to send
-- (shared/api/reminders.ts): one row per reminder id, so asking again sends nothing twice, as a
-- real product API would key its emails. `npm run portal -- reminders` lists them.
CREATE TABLE reminder_requests (
  reminder_id TEXT PRIMARY KEY,
  subscription_id TEXT NOT NULL REFERENCES subscriptions(id),
  kind TEXT NOT NULL,
  price REAL NOT NULL,
  currency TEXT NOT NULL,
  renews_at TEXT NOT NULL,
  manage_url TEXT,
  language TEXT,
  country TEXT,
  asked_at TEXT NOT NULL
);
