-- Console tokens (worker/access/console-tokens.ts): a person's tool or an agent working the
-- console API. Only the secret's SHA-256 is kept; the secret is shown once, when made. A row per
-- token a person made: a team makes a handful, so the table stays small; a revoked one is kept
-- so the logs and the drafts still name whose it was.
CREATE TABLE console_tokens (
  id TEXT PRIMARY KEY,            -- the token's public part: gft_<id>_<secret>
  name TEXT NOT NULL UNIQUE,      -- what its requests are recorded under (token:<name>)
  secret_sha256 TEXT NOT NULL,    -- hex
  scopes_json TEXT NOT NULL,      -- ["read","content","traffic"], a subset
  created_by TEXT NOT NULL,       -- the Access email of the person who made it
  created_at TEXT NOT NULL,       -- ISO 8601
  revoked_by TEXT,
  revoked_at TEXT
);

-- Each token's draft edits are a change set of its own beside the team's shared draft: the
-- revisions gain their owner ('' the team's draft, 'token:<name>' a token's change set), and a
-- revision number is counted per owner.
CREATE TABLE console_draft_revisions_next (
  owner TEXT NOT NULL DEFAULT '',
  revision INTEGER NOT NULL,
  base INTEGER,
  document_json TEXT NOT NULL,
  paused_json TEXT NOT NULL,
  editors_json TEXT NOT NULL,
  edited_by TEXT NOT NULL,
  at TEXT NOT NULL,
  review_by TEXT,
  review_note TEXT,
  review_at TEXT,
  approved_by TEXT,
  approved_at TEXT,
  PRIMARY KEY (owner, revision)
);
INSERT INTO console_draft_revisions_next (owner, revision, base, document_json, paused_json,
  editors_json, edited_by, at, review_by, review_note, review_at, approved_by, approved_at)
SELECT '', revision, base, document_json, paused_json, editors_json, edited_by, at, review_by,
  review_note, review_at, approved_by, approved_at FROM console_draft_revisions;
DROP TABLE console_draft_revisions;
ALTER TABLE console_draft_revisions_next RENAME TO console_draft_revisions;
