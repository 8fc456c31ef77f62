-- The purchase a charge is an attempt of (SPEC.md §7 request payload, our `purchase_id`: the
-- worker's attempt ledger names it). A purchase already charged answers that subscription to
-- any later attempt of it and charges nothing (portal/charges.ts).
ALTER TABLE subscriptions ADD COLUMN purchase_id TEXT;
CREATE INDEX subscriptions_by_purchase ON subscriptions (user_id, purchase_id, status);
