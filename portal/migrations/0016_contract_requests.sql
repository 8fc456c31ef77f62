-- Every withdrawal and cancellation declared on the funnel's contract page (shared/api/
-- contract-calls.ts), matched or not: the consumer bears the proof of a declaration sent in time,
-- so each is kept as received, never replaced, with the acknowledgement the emulator "sent".
-- `request_key` is the worker's Idempotency-Key: a double press is one declaration.
CREATE TABLE contract_requests (
  id TEXT PRIMARY KEY,
  request_key TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,                  -- withdrawal, cancellation
  email TEXT NOT NULL,
  reference TEXT NOT NULL,
  name TEXT,
  cancellation_type TEXT,              -- ordinary, extraordinary (a cancellation's)
  reason TEXT,
  statement TEXT NOT NULL,
  brand TEXT,
  language TEXT,
  submitted_at TEXT NOT NULL,
  received_at TEXT NOT NULL,
  subscription_id TEXT,                -- the subscription it matched, else NULL
  outcome TEXT NOT NULL,               -- withdrawn, canceled, not_matched
  acknowledgement TEXT NOT NULL        -- the emulator sends no email: 'recorded'
);
CREATE INDEX contract_requests_by_received ON contract_requests (received_at);
