/**
 * The tables of a ledger shard (ledger.ts), as migrations: a change is a new entry, never an edit
 * of one already run; a shard runs those it has not yet when it next wakes.
 */
export const LEDGER_MIGRATIONS: readonly (readonly string[])[] = [
  [
    // Who bought each subscription: written by the queue consumer from the server-verified
    // purchase (worker/collector/consumer/ledger-destination.ts), read by every lifecycle event
    // of the subscription. The first buyer stays, as the experiments count a subscription once,
    // for the visitor whose session started the charge (worker/purchases/charge-owner.ts,
    // record-purchase.ts). A comment only: the statement below is unchanged. No index on the time:
    // the daily alarm scans for old rows, which costs less than an index on every row.
    `CREATE TABLE subscriptions (
  subscription_id TEXT PRIMARY KEY,
  visitor_id TEXT NOT NULL,
  remembered_at INTEGER NOT NULL
) WITHOUT ROWID`,
    // Every event id seen, so each counts once however often it is sent:
    // - 'claimed': being passed to the experiments by the request that claimed it at `seen_at`;
    //   released on failure, taken over when its request died (CLAIM_TIMEOUT_MS);
    // - 'applied': passed to the experiments;
    // - 'parked': its subscription was not known yet; `event` holds it until the purchase
    //   arrives (within PARKED_MS) or the alarm gives up on it ('expired', `event` dropped).
    `CREATE TABLE events (
  event_id TEXT PRIMARY KEY,
  subscription_id TEXT NOT NULL,
  state TEXT NOT NULL,
  seen_at INTEGER NOT NULL,
  event TEXT
) WITHOUT ROWID`,
    // Only the parked few are looked up by subscription (when its purchase arrives).
    `CREATE INDEX parked_events ON events (subscription_id) WHERE state = 'parked'`,
    // Signatures taken while they are fresh (worker/lifecycle/signature.ts): the same signed
    // request twice is a replay, refused.
    `CREATE TABLE signatures (
  signature TEXT PRIMARY KEY,
  fresh_until INTEGER NOT NULL
) WITHOUT ROWID`,
  ],
  [
    // What each subscription's buyer paid and got back (subscription-fit.ts), so an event in
    // another currency, or a refund beyond what was paid, is refused: the verified purchase's
    // currency and amount, renewals added, refunds and chargebacks added up. Rows remembered
    // before this have no currency, and their events are taken unchecked, as before.
    'ALTER TABLE subscriptions ADD COLUMN currency TEXT',
    'ALTER TABLE subscriptions ADD COLUMN paid_minor INTEGER',
    'ALTER TABLE subscriptions ADD COLUMN returned_minor INTEGER NOT NULL DEFAULT 0',
    // The signed amount an event added to its subscription's money while it is claimed (so a
    // release takes it back out), or held and counted (so a retried purchase does not count it
    // twice); NULL once applied, and on a held event not counted yet.
    'ALTER TABLE events ADD COLUMN amount_minor INTEGER',
  ],
  [
    // A renewal that failed and is not paid yet (a `renewal_failed`'s time, the first of a run of
    // them): the next renewal of the subscription closes it as recovered revenue, a cancellation
    // closes it unpaid. NULL when nothing is owed. A column, not a table: one failure at a time.
    'ALTER TABLE subscriptions ADD COLUMN failed_at INTEGER',
    // The open failure a claimed or held event closed, so a released claim gives it back and a
    // held event passed on again is still a recovery; NULL once applied.
    'ALTER TABLE events ADD COLUMN closed_failure_at INTEGER',
  ],
  [
    // The renewal reminders to ask the product API for (reminder-rows.ts): a subscription's next
    // trial-end and yearly reminder, one row each at most, with what the next one is computed
    // from. Deleted once asked (a yearly one replaced by the next year's), on a cancellation, or
    // once its renewal has passed unasked (missed, and reported). The cron reads them by `ask_at`.
    `CREATE TABLE reminders (
  subscription_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  renews_at INTEGER NOT NULL,
  ask_at INTEGER NOT NULL,
  plan_id TEXT NOT NULL,
  charged_at INTEGER NOT NULL,
  country TEXT,
  language TEXT,
  origin TEXT,
  asking_since INTEGER,
  PRIMARY KEY (subscription_id, kind)
) WITHOUT ROWID`,
    'CREATE INDEX reminders_due ON reminders (ask_at)',
  ],
  [
    // The brand a reminder's subscription was bought in (reminder-rows.ts): its ask names it and
    // its manage link wears it. NULL on rows scheduled before it was kept: their asks and links
    // name no brand, as before.
    'ALTER TABLE reminders ADD COLUMN theme TEXT',
  ],
  [
    // The brand and language each subscription was bought in (the purchase event's `theme` and
    // `language`): the recovery link a `renewal_failed` is answered with wears them
    // (recover-link.ts). NULL on rows remembered before, whose links wear the browser's.
    'ALTER TABLE subscriptions ADD COLUMN theme TEXT',
    'ALTER TABLE subscriptions ADD COLUMN language TEXT',
  ],
  [
    // How many reminders are scheduled, by kind and country ('' for none: a key column cannot
    // be NULL), for the console's totals (reminder-rows.ts scheduledReminders). Kept by the
    // triggers below on every row added or taken out, whichever path does it, as the experiment
    // shards keep their arms' counts: a count over the rows themselves would read every one of
    // a shard's millions of reminders (docs/performance.md, "Renewal reminders and failed
    // renewals") and hold its lifecycle events back meanwhile. Rows at 0 stay: at most three
    // kinds times the countries. The rows scheduled before are counted once, here.
    `CREATE TABLE reminder_counts (
  kind TEXT NOT NULL,
  country TEXT NOT NULL,
  scheduled INTEGER NOT NULL,
  PRIMARY KEY (kind, country)
) WITHOUT ROWID`,
    `INSERT INTO reminder_counts (kind, country, scheduled)
  SELECT kind, coalesce(country, ''), count(*) FROM reminders GROUP BY 1, 2`,
    `CREATE TRIGGER reminder_counted AFTER INSERT ON reminders
BEGIN
  INSERT INTO reminder_counts (kind, country, scheduled)
    VALUES (NEW.kind, coalesce(NEW.country, ''), 1)
    ON CONFLICT (kind, country) DO UPDATE SET scheduled = scheduled + 1;
END`,
    `CREATE TRIGGER reminder_uncounted AFTER DELETE ON reminders
BEGIN
  UPDATE reminder_counts SET scheduled = scheduled - 1
  WHERE kind = OLD.kind AND country = coalesce(OLD.country, '');
END`,
    // No path changes a row's kind or country today (a yearly reminder moves its dates only);
    // should one, its count moves with it.
    `CREATE TRIGGER reminder_recounted AFTER UPDATE OF kind, country ON reminders
WHEN OLD.kind IS NOT NEW.kind OR OLD.country IS NOT NEW.country
BEGIN
  UPDATE reminder_counts SET scheduled = scheduled - 1
  WHERE kind = OLD.kind AND country = coalesce(OLD.country, '');
  INSERT INTO reminder_counts (kind, country, scheduled)
    VALUES (NEW.kind, coalesce(NEW.country, ''), 1)
    ON CONFLICT (kind, country) DO UPDATE SET scheduled = scheduled + 1;
END`,
  ],
];
