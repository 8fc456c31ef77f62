-- The copy's version history (worker/translations/copy-versions.ts): every publish of the KV copy
-- overrides, from the console's Copy area or `npm run translations`, with who, when and why.
-- Each row holds every language's override in effect after it (flat keys to texts) and the
-- manifest timestamp it stored them under; never changed once written. A roll back publishes
-- an earlier row's copy again, as a new row.
CREATE TABLE copy_versions (
  seq INTEGER PRIMARY KEY,         -- 1, 2, 3…: the order of publishing
  id TEXT NOT NULL,                -- "c3": how the console and the logs name it
  at TEXT NOT NULL,                -- ISO 8601, the publisher's clock
  author TEXT NOT NULL,
  note TEXT NOT NULL,
  base INTEGER,                    -- the version it was published on top of; NULL for the first
  source TEXT NOT NULL,            -- console, cli, rollback
  restores INTEGER,                -- for a roll back: the version whose copy it publishes again
  timestamp INTEGER NOT NULL,      -- translations:manifest's timestamp it wrote
  copy_json TEXT NOT NULL          -- {"es": {"landing.phone.locate": "…"}, …}
);
