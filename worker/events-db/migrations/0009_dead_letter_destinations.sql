-- Which destinations a dead letter never reached, and how often they were tried
-- (worker/collector/consumer/dead-letters.ts), so a redrive sends it to those only
-- (worker/collector/redrive.ts): the others took it already, and an ad network de-duplicates a
-- repeat only within its window.
ALTER TABLE dead_letters ADD COLUMN destinations TEXT; -- JSON array; NULL: kept before this column, or unreadable
ALTER TABLE dead_letters ADD COLUMN attempts INTEGER;  -- the events queue's tries of the failing destinations
ALTER TABLE dead_letters ADD COLUMN error TEXT;        -- per failing destination, the last failure's log code, JSON
ALTER TABLE dead_letters ADD COLUMN redrive_destinations TEXT; -- JSON array the redrive was asked for; NULL: destinations

-- Each retried event's failing destinations (worker/collector/consumer/deliveries.ts): written only
-- when a message is retried, so an event delivered on its first try costs nothing here.
CREATE TABLE delivery_failures (
  insert_id TEXT NOT NULL,
  destination TEXT NOT NULL,
  attempts INTEGER NOT NULL,   -- the queue's attempts of the message when it last failed
  error TEXT,                  -- the log code of that failure
  at INTEGER NOT NULL,         -- epoch ms of that failure
  PRIMARY KEY (insert_id, destination)
) WITHOUT ROWID;
CREATE INDEX delivery_failures_at ON delivery_failures (at);
