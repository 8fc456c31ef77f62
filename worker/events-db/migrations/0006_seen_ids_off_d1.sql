-- `POST /e` now remembers the insert ids it took in each visitor's own counter object
-- (worker/rate-limits/rate-limiter.ts, RateLimiter.admit), not here: seen_events is no longer
-- written. Ids seen in the last 8 days before this migration are forgotten with it; a batch sent
-- again across the change is queued again, and each destination drops the repeat by insert_id or
-- event_id.
DROP TABLE seen_events;

-- The hourly retention (worker/collector/retention.ts) deletes by age.
CREATE INDEX verified_purchases_by_age ON verified_purchases (recorded_at);
CREATE INDEX dead_letters_by_age ON dead_letters (failed_at);
