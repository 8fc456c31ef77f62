-- The first-party analytics collector (worker/collector/): what POST /e has seen, what the queue
-- consumer has delivered where, and the local event store `npm run events -- tail` reads.
-- Times are epoch milliseconds (the events' own `time` is, too).

-- Every insert_id POST /e accepted in the last 8 days: a batch sent again (a retried fetch, a
-- beacon after a fetch that did arrive) is answered as duplicates and queued only once.
CREATE TABLE seen_events (
  insert_id TEXT PRIMARY KEY,
  seen_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX seen_events_by_age ON seen_events (seen_at);

-- Which destination has taken which event ('delivered'), or refused it for good ('dropped'), so
-- a message the queue delivers again is not sent twice to a destination that already has it.
CREATE TABLE deliveries (
  insert_id TEXT NOT NULL,
  destination TEXT NOT NULL,           -- 'local', 'amplitude', 'meta', 'tiktok'
  outcome TEXT NOT NULL,               -- 'delivered' or 'dropped'
  at INTEGER NOT NULL,
  PRIMARY KEY (insert_id, destination)
) WITHOUT ROWID;
CREATE INDEX deliveries_by_age ON deliveries (at);

-- The local store: every event, in arrival order (seq), when no AMPLITUDE_API_KEY is set.
CREATE TABLE events (
  seq INTEGER PRIMARY KEY,
  insert_id TEXT NOT NULL UNIQUE,
  event_type TEXT NOT NULL,
  time INTEGER NOT NULL,               -- the visitor's clock
  received_at INTEGER NOT NULL,        -- the collector's clock
  device_id TEXT NOT NULL,
  user_id TEXT,
  session_id INTEGER NOT NULL,
  screen_name TEXT,
  properties TEXT NOT NULL,            -- event_properties, JSON
  context TEXT NOT NULL                -- what the collector added (address, agent, country, page, ad cookies, consent), JSON
);

-- Messages the queue gave up on after max_retries (the dead letter queue's consumer keeps them
-- here, and logs collector_dead_letter): what never reached a destination, for an operator.
CREATE TABLE dead_letters (
  seq INTEGER PRIMARY KEY,
  insert_id TEXT,
  body TEXT NOT NULL,                  -- the queue message, JSON
  failed_at INTEGER NOT NULL
);
