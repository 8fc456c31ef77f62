-- Issue 38 (routing): which route took each exposed visitor, and where their visit came from,
-- so the split test's results can be read by route and source. Visitors exposed before this
-- migration have neither (NULL): they were exposed before routes existed.
-- The experiment shards run this file too (worker/experiments/store/shard-schema.ts).
ALTER TABLE exposures ADD COLUMN route TEXT;
ALTER TABLE exposures ADD COLUMN source TEXT;

-- First visits each route took, per UTC day (`day` as 'YYYY-MM-DD'): +1 when a new visitor's
-- route is chosen on a funnel screen they were shown, never a preview, prefetch or known bot
-- (worker/middleware/exposure.ts). A few rows per route and day, never one per visitor; the
-- console sums the last 7 days (GET /console/api/route-visits). Only the shards are written: a
-- new visitor always lives in one. The table is here so the two stores keep one schema.
CREATE TABLE route_days (
  route TEXT NOT NULL,
  day TEXT NOT NULL,
  visits INTEGER NOT NULL,
  PRIMARY KEY (route, day)
) WITHOUT ROWID;
