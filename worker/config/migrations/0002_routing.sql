-- Routes (worker/routing/): each version also holds what it wrote to KV's `routing`. Versions
-- published before hold NULL, read as the default route alone (worker/config/versions.ts).
ALTER TABLE config_versions ADD COLUMN routing_json TEXT;
