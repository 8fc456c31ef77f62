-- Experiments (worker/experiments/config/): each version also holds what it wrote to KV's
-- `experiments`. Versions published before hold NULL, read as no experiment but the split
-- (worker/config/versions.ts).
ALTER TABLE config_versions ADD COLUMN experiments_json TEXT;
