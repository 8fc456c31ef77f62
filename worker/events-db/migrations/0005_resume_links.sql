-- The resume links (worker/resume/): what a visitor in an ad app's in-app browser carries to the
-- real browser, kept 15 minutes and consumed once. `payload` is the record as JSON (visitor uuid,
-- variant, screen, query, ad cookies, what was entered); never a token, a session or card data.
-- Opening a link deletes its row in the same statement that reads it, so a link works once.
CREATE TABLE resume_links (
  id TEXT PRIMARY KEY,                 -- 128 random bits, hex
  created_at INTEGER NOT NULL,         -- epoch ms
  expires_at INTEGER NOT NULL,         -- epoch ms
  payload TEXT NOT NULL
) WITHOUT ROWID;

-- Expired rows are deleted whenever a link is made or opened.
CREATE INDEX resume_links_by_expiry ON resume_links (expires_at);
