-- A verified purchase is an outbox row (worker/purchases/purchase-outbox.ts): the claim carries
-- the queue message it stands for, and a lease, until the message is known to be queued. A claim
-- whose lease ran out unconfirmed (the isolate died between the claim and the queue) is queued
-- again, the same message with the same insert id, by the next poll or the scheduled sweep.
-- Rows already here were queued: both columns stay NULL.
ALTER TABLE verified_purchases ADD COLUMN message TEXT;        -- the queued message, JSON; NULL once queued
ALTER TABLE verified_purchases ADD COLUMN lease_until INTEGER; -- epoch ms; NULL once queued
-- Only the rows not yet confirmed as queued, a handful at any time: the sweep reads this index,
-- never the table, which grows with every purchase (until its retention).
CREATE INDEX verified_purchases_unqueued ON verified_purchases (lease_until)
  WHERE lease_until IS NOT NULL;

-- Dead letters can be sent back to the events queue (`npm run events -- dead-letters redrive`):
-- the command asks for it, the worker sends and marks (worker/collector/redrive.ts), so a row is
-- asked for once and sent again only until it is marked.
ALTER TABLE dead_letters ADD COLUMN redrive_requested_at INTEGER; -- epoch ms; NULL = not asked
ALTER TABLE dead_letters ADD COLUMN redriven_at INTEGER;          -- epoch ms; NULL = not sent again
CREATE INDEX dead_letters_to_redrive ON dead_letters (seq)
  WHERE redrive_requested_at IS NOT NULL AND redriven_at IS NULL;
