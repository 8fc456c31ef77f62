-- The subscriber's page (shared/api/subscriber-calls.ts): a subscription canceled on the web,
-- and one whose money-back guarantee was claimed (its first charge refunded, and it ended).
-- Null until then; each is set once.
ALTER TABLE subscriptions ADD COLUMN canceled_at TEXT;
ALTER TABLE subscriptions ADD COLUMN refunded_at TEXT;
