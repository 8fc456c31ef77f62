-- The test gateway emulates Stripe's card.fingerprint (the per-card charge limit works
-- locally as with Stripe): the same for every tokenization of one card number, never the number.
-- Cards tokenized before this have none, as Stripe cards have none without a lookup key.
ALTER TABLE test_payment_methods ADD COLUMN fingerprint TEXT;
