-- The marketers' console's history (worker/config/versions.ts): every published config document,
-- in order, immutable once written. It is also the audit log: who published, when, on top of
-- which version, and why. KV's `split` and `flows` keys hold the newest row's document.
CREATE TABLE config_versions (
  seq INTEGER PRIMARY KEY,      -- 1, 2, 3…: a publish claims base + 1 (compare-and-set)
  id TEXT NOT NULL UNIQUE,      -- 'v12': what the pages carry as split.version and flows.version
  at TEXT NOT NULL,             -- ISO 8601
  author TEXT NOT NULL,         -- the Access email, the local author, or the CLI's user
  note TEXT NOT NULL DEFAULT '',
  base INTEGER,                 -- the version it was published on top of; NULL for the first
  phase INTEGER NOT NULL,       -- the experiment phase from this version on
  source TEXT NOT NULL CHECK (source IN ('console', 'cli', 'rollback', 'seed')),
  restores INTEGER,             -- a rollback: the version whose document it publishes again
  split_json TEXT NOT NULL,     -- exactly what was written to KV's `split`
  flows_json TEXT NOT NULL      -- exactly what was written to KV's `flows`
);
