-- The card providers' fakes can be slow as well as failing (docs/payments.md, "A failing
-- provider routed around"): a fault with delay_ms waits that long, before the charge (then
-- fails, nothing charged) or after it (then answers late, charged), so the worker's own timeout
-- is what the visitor meets: a timeout before or after the charge.
ALTER TABLE emulator_faults ADD COLUMN delay_ms INTEGER NOT NULL DEFAULT 0;
