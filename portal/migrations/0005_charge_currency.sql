-- What the charge request said it charges in (SPEC.md §7 request payload, our fields: the
-- worker sends the catalogue plan's currency and price id): kept as sent, null for a client
-- that sent none, so a test can read what currency a visitor was charged in.
ALTER TABLE subscriptions ADD COLUMN currency TEXT;
ALTER TABLE subscriptions ADD COLUMN price_id TEXT;
