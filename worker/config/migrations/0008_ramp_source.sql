-- A guarded ramp's engine publishes too (worker/alerts/run-ramps.ts): each step, hold and rollback
-- it makes is a version with source 'ramp', told apart in the history from a person's publish.
-- SQLite cannot change a CHECK in place: the table is copied into one that allows it, every row
-- and column as it was.
CREATE TABLE config_versions_next (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  at TEXT NOT NULL,
  author TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  base INTEGER,
  phase INTEGER NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('console', 'cli', 'rollback', 'seed', 'ramp')),
  restores INTEGER,
  split_json TEXT NOT NULL,
  flows_json TEXT NOT NULL,
  routing_json TEXT,
  experiments_json TEXT,
  content_json TEXT,
  approver TEXT
);
INSERT INTO config_versions_next
  (seq, id, at, author, note, base, phase, source, restores, split_json, flows_json,
   routing_json, experiments_json, content_json, approver)
SELECT seq, id, at, author, note, base, phase, source, restores, split_json, flows_json,
       routing_json, experiments_json, content_json, approver
  FROM config_versions;
DROP TABLE config_versions;
ALTER TABLE config_versions_next RENAME TO config_versions;
