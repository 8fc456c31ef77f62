-- Each "Email me a link to my subscription" the funnel's contract page passed on (shared/api/
-- contract-calls.ts `linkRequest`), with the manage link the emulator "emailed" for each of the
-- account's subscriptions (one row each; one row with no subscription for an address that holds
-- none). The emulator sends no email: `npm run portal` and the tests read the links here.
-- `request_key` is the worker's Idempotency-Key: a double press asks once.
CREATE TABLE link_requests (
  id TEXT PRIMARY KEY,
  request_key TEXT NOT NULL,
  email TEXT NOT NULL,
  subscription_id TEXT,
  manage_url TEXT,
  brand TEXT,
  language TEXT,
  asked_at TEXT NOT NULL
);
CREATE INDEX link_requests_by_key ON link_requests (request_key);
