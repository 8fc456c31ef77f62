-- The failure switch for load runs (npm run load): a fault may last until a time
-- (until_ms, epoch ms) instead of a count, and may strike after the call did its work
-- (after_work = 1: the charge is made, then its answer is lost to a 500), the case where a
-- client that gives up too early charges twice.
ALTER TABLE emulator_faults ADD COLUMN until_ms INTEGER;
ALTER TABLE emulator_faults ADD COLUMN after_work INTEGER NOT NULL DEFAULT 0;
