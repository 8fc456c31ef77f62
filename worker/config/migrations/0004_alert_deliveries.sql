-- The experiments' alerts (worker/alerts/): each alert claimed before it is posted, so it is
-- posted at most once per key however many cron runs see its condition, and retried on the
-- schedule kept here until it is sent or given up. A handful of rows a day; kept, as a key
-- must stay known for as long as its experiment's phase can be looked at again.
CREATE TABLE alert_deliveries (
  key TEXT PRIMARY KEY,            -- experiment|phase|kind[|variant] (worker/alerts/alert-rules.ts)
  experiment TEXT NOT NULL,
  phase INTEGER NOT NULL,
  kind TEXT NOT NULL,
  variant TEXT,
  webhook TEXT NOT NULL,           -- where it goes: the address set when it was claimed
  body TEXT NOT NULL,              -- the exact JSON posted, the same on every attempt
  state TEXT NOT NULL CHECK (state IN ('pending', 'sent', 'given_up')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL, -- epoch ms: not posted before
  lease_until INTEGER,             -- epoch ms: a run is posting it; another takes it after this
  claimed_at INTEGER NOT NULL,
  sent_at INTEGER,
  last_status INTEGER,             -- the webhook's last HTTP status; NULL: no answer
  last_error TEXT
);
CREATE INDEX alert_deliveries_due ON alert_deliveries (state, next_attempt_at);
