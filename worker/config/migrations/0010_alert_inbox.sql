-- The console's alerts inbox (worker/alerts/record-alerts.ts, /console/api/alerts): every alert
-- is claimed here, posted or not. `webhook` is NULL and `state` 'inbox' for one claimed while no
-- webhook was set or allowed: the console shows it, nothing posts it. Each alert is acknowledged
-- once, by whom and when. SQLite cannot change a NOT NULL or a CHECK in place: the table is
-- copied into one that allows them, every row and column as it was.
CREATE TABLE alert_deliveries_next (
  key TEXT PRIMARY KEY,
  experiment TEXT NOT NULL,
  phase INTEGER NOT NULL,
  kind TEXT NOT NULL,
  variant TEXT,
  webhook TEXT,
  body TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'sent', 'given_up', 'inbox')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  lease_until INTEGER,
  claimed_at INTEGER NOT NULL,
  sent_at INTEGER,
  last_status INTEGER,
  last_error TEXT,
  acknowledged_at INTEGER,         -- epoch ms; NULL: not yet
  acknowledged_by TEXT             -- the console's author (Access identity) who acknowledged it
);
INSERT INTO alert_deliveries_next
  (key, experiment, phase, kind, variant, webhook, body, state, attempts, next_attempt_at,
   lease_until, claimed_at, sent_at, last_status, last_error)
SELECT key, experiment, phase, kind, variant, webhook, body, state, attempts, next_attempt_at,
       lease_until, claimed_at, sent_at, last_status, last_error
  FROM alert_deliveries;
DROP TABLE alert_deliveries;
ALTER TABLE alert_deliveries_next RENAME TO alert_deliveries;
CREATE INDEX alert_deliveries_due ON alert_deliveries (state, next_attempt_at);
-- The inbox, newest first.
CREATE INDEX alert_deliveries_claimed ON alert_deliveries (claimed_at);
