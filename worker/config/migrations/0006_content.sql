-- Content (worker/content/): each version also holds what it wrote to KV's `content`, the
-- screens' sections and copy. Versions published before hold NULL, read as no content: every
-- screen as code composes it (worker/config/versions.ts).
ALTER TABLE config_versions ADD COLUMN content_json TEXT;
