-- Charge attempts the worker closed unpaid (docs/product-api.md "Closing an attempt"): once a
-- key is here, no subscription is ever written under it, so "nothing was charged" stays true
-- after the worker has offered the visitor the other provider. The trigger makes the close and a
-- charge still on its way exclusive: whichever is written first wins, in one statement each.
CREATE TABLE closed_attempts (
  user_id TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  closed_at TEXT NOT NULL,
  PRIMARY KEY (user_id, idempotency_key)
);

CREATE TRIGGER subscriptions_not_under_closed_attempt
BEFORE INSERT ON subscriptions
WHEN NEW.idempotency_key IS NOT NULL AND EXISTS (
  SELECT 1 FROM closed_attempts
  WHERE user_id = NEW.user_id AND idempotency_key = NEW.idempotency_key
)
BEGIN
  SELECT RAISE(ABORT, 'attempt_closed');
END;
