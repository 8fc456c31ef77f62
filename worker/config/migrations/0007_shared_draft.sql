-- A team's work in the console (worker/config/draft-store.ts): the one shared draft, as a row per
-- saved revision, so a save made on an older revision is merged with what came between or
-- refused with it. Only the newest rows are kept (DRAFT_REVISIONS_KEPT). A review request and its
-- approval belong to one revision: any later save is a new row with neither.
CREATE TABLE console_draft_revisions (
  revision INTEGER PRIMARY KEY,   -- 1, 2, 3…: a save claims the newest + 1 (compare-and-set)
  base INTEGER,                   -- the published version it started from; NULL before the first
  document_json TEXT NOT NULL,    -- the draft document, as the console edits it
  paused_json TEXT NOT NULL,      -- weights of the variants paused in the draft, for Resume
  editors_json TEXT NOT NULL,     -- who edited it since its base (an approver may be none of them)
  edited_by TEXT NOT NULL,        -- the Access email of this revision's save
  at TEXT NOT NULL,               -- ISO 8601
  review_by TEXT,                 -- who asked for a review of this revision; NULL: nobody
  review_note TEXT,
  review_at TEXT,
  approved_by TEXT,               -- who approved this revision (never one of its editors)
  approved_at TEXT
);
-- Who approved a version published with a review (NULL: published without one, or before
-- reviews existed).
ALTER TABLE config_versions ADD COLUMN approver TEXT;
