-- Server-verified purchases (worker/purchases/): each final successful charge the worker relayed
-- from the product API, recorded once per subscription id however often the browser polls it.
-- Only these carry revenue to Meta, TikTok, Amplitude and the experiment results.
CREATE TABLE verified_purchases (
  subscription_id TEXT PRIMARY KEY,
  insert_id TEXT NOT NULL,             -- the purchase event's, derived from the subscription id
  recorded_at INTEGER NOT NULL         -- epoch ms
) WITHOUT ROWID;
