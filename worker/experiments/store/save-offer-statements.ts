import type { Statement } from './split-statements';

/**
 * A save offer test's subscriptions (docs/experiments.md, "Testing the save offer"), in the
 * shards only, each in the shard of its subscription id (assign.ts shardOfVisitor): one
 * row per subscription and experiment, written when the confirm of a cancel first shows it the
 * offer, in the phase and arm it was shown in; a bit per later outcome, each set once; and the
 * per-arm totals, kept by triggers as every experiment's are (every-experiment-schema.ts).
 *
 * - `shown`: subscriptions the offer was shown to (a reload of the confirm inserts nothing);
 * - `chose_keep`: of them, those who tapped *Keep my subscription* (`?offer=shown`), once;
 * - `cancelled`: of them, those who cancelled afterwards (from the page, or wherever the product
 *   API's lifecycle hook reports a cancellation from), once.
 *
 * "Kept" is shown and not cancelled: a subscriber who keeps and cancels later is not kept, and
 * one who closes the tab is. The rows go with the visitors' after VISITOR_ROWS_KEPT_MS
 * (experiment-shard.ts alarm); the totals stay.
 */

/** What the subscriber's page reports of a subscription in a save offer test. */
export type SaveOfferOutcome = 'shown' | 'chose_keep' | 'took_action' | 'cancelled';

/** One outcome of one subscription, in the arm its page drew (save-offer-arm.ts). */
export interface SaveOfferEvent {
  experiment: string;
  phase: number;
  variant: string;
  subscriptionId: string;
  outcome: SaveOfferOutcome;
  /** Epoch ms. */
  at: number;
  /** A cancel's reason for leaving, a key of content `saveOffer.reasons`; none when not picked. */
  reason?: string;
}

/** Each later outcome's bit in `xp_save_offers.outcomes`. */
const OUTCOME_BITS = { chose_keep: 1, cancelled: 2, took_action: 4 } as const;

export const SAVE_OFFER_MIGRATION: readonly string[] = [
  `CREATE TABLE xp_save_offers (
  experiment TEXT NOT NULL,
  subscription_id TEXT NOT NULL,
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  outcomes INTEGER NOT NULL DEFAULT 0,
  shown_at INTEGER NOT NULL,
  PRIMARY KEY (experiment, subscription_id)
) WITHOUT ROWID`,
  `CREATE TABLE xp_save_offer_arms (
  experiment TEXT NOT NULL,
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  shown INTEGER NOT NULL DEFAULT 0,
  chose_keep INTEGER NOT NULL DEFAULT 0,
  cancelled INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (experiment, phase, variant)
) WITHOUT ROWID`,
  `CREATE TRIGGER xp_save_offer_shown AFTER INSERT ON xp_save_offers
BEGIN
  INSERT INTO xp_save_offer_arms (experiment, phase, variant, shown)
    VALUES (NEW.experiment, NEW.phase, NEW.variant, 1)
    ON CONFLICT (experiment, phase, variant) DO UPDATE SET shown = shown + 1;
END`,
  `CREATE TRIGGER xp_save_offer_outcome AFTER UPDATE OF outcomes ON xp_save_offers
BEGIN
  UPDATE xp_save_offer_arms SET
    chose_keep = chose_keep + ((NEW.outcomes & 1) > (OLD.outcomes & 1)),
    cancelled = cancelled + ((NEW.outcomes & 2) > (OLD.outcomes & 2))
  WHERE experiment = NEW.experiment AND phase = NEW.phase AND variant = NEW.variant;
END`,
];

/**
 * What one event writes: a showing inserts the subscription's row once (its first phase and arm
 * stay); a later outcome sets its bit on the row, if the offer was shown, and only once.
 */
export function saveOfferStatement(event: SaveOfferEvent): Statement {
  if (event.outcome === 'shown') {
    return {
      sql: `INSERT INTO xp_save_offers (experiment, subscription_id, phase, variant, shown_at)
            VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING`,
      params: [event.experiment, event.subscriptionId, event.phase, event.variant, event.at],
    };
  }
  // The reason is set with the cancel's bit, so the reason trigger sees both at once.
  return {
    sql: `UPDATE xp_save_offers SET outcomes = outcomes | ?3, reason = coalesce(reason, ?4)
          WHERE experiment = ?1 AND subscription_id = ?2 AND (outcomes & ?3) = 0`,
    params: [
      event.experiment,
      event.subscriptionId,
      OUTCOME_BITS[event.outcome],
      event.outcome === 'cancelled' ? (event.reason ?? null) : null,
    ],
  };
}

/**
 * What a save offer does besides its words, and what it comes to (docs/experiments.md, "Testing
 * the save offer"):
 * - `took_action` per arm: of the shown, those who took the arm's action (bit 4), once each;
 * - `xp_save_offer_reasons`: the reasons for leaving the cancelled picked, per arm, each
 *   subscription's first reason once;
 * - `xp_save_offer_money`: each shown subscription's net revenue since it was shown, per
 *   currency (renewals less refunds and chargebacks the lifecycle hook reported), and
 *   `xp_save_offer_arm_money` the arm's sum and sum of squares of it, kept by triggers, with the
 *   subscriptions that paid in the currency: what the results judge net revenue on. The event ids
 *   are claimed in `xp_revenue_events` under `save_offer:`, so an event counts once here whatever
 *   the buyer's shard counted of it.
 * A subscription's rows are found by its id alone (an event names no experiment): the index.
 */
export const SAVE_OFFER_ACTIONS_MIGRATION: readonly string[] = [
  'ALTER TABLE xp_save_offers ADD COLUMN reason TEXT',
  'ALTER TABLE xp_save_offer_arms ADD COLUMN took_action INTEGER NOT NULL DEFAULT 0',
  'CREATE INDEX xp_save_offers_subscription ON xp_save_offers (subscription_id)',
  `CREATE TABLE xp_save_offer_reasons (
  experiment TEXT NOT NULL,
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  reason TEXT NOT NULL,
  subscriptions INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (experiment, phase, variant, reason)
) WITHOUT ROWID`,
  `CREATE TABLE xp_save_offer_money (
  experiment TEXT NOT NULL,
  subscription_id TEXT NOT NULL,
  currency TEXT NOT NULL,
  net_minor INTEGER NOT NULL,
  PRIMARY KEY (experiment, subscription_id, currency)
) WITHOUT ROWID`,
  `CREATE TABLE xp_save_offer_arm_money (
  experiment TEXT NOT NULL,
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  currency TEXT NOT NULL,
  paying INTEGER NOT NULL DEFAULT 0,
  net_minor INTEGER NOT NULL DEFAULT 0,
  net_squares REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (experiment, phase, variant, currency)
) WITHOUT ROWID`,
  'DROP TRIGGER xp_save_offer_outcome',
  `CREATE TRIGGER xp_save_offer_outcome AFTER UPDATE OF outcomes ON xp_save_offers
BEGIN
  UPDATE xp_save_offer_arms SET
    chose_keep = chose_keep + ((NEW.outcomes & 1) > (OLD.outcomes & 1)),
    cancelled = cancelled + ((NEW.outcomes & 2) > (OLD.outcomes & 2)),
    took_action = took_action + ((NEW.outcomes & 4) > (OLD.outcomes & 4))
  WHERE experiment = NEW.experiment AND phase = NEW.phase AND variant = NEW.variant;
END`,
  `CREATE TRIGGER xp_save_offer_reason AFTER UPDATE OF outcomes ON xp_save_offers
WHEN (NEW.outcomes & 2) > (OLD.outcomes & 2) AND NEW.reason IS NOT NULL
BEGIN
  INSERT INTO xp_save_offer_reasons (experiment, phase, variant, reason, subscriptions)
    VALUES (NEW.experiment, NEW.phase, NEW.variant, NEW.reason, 1)
    ON CONFLICT (experiment, phase, variant, reason) DO UPDATE SET subscriptions = subscriptions + 1;
END`,
  `CREATE TRIGGER xp_save_offer_money_first AFTER INSERT ON xp_save_offer_money
BEGIN
  INSERT INTO xp_save_offer_arm_money (experiment, phase, variant, currency, paying, net_minor, net_squares)
    SELECT experiment, phase, variant, NEW.currency, 1, NEW.net_minor, NEW.net_minor * NEW.net_minor
    FROM xp_save_offers WHERE experiment = NEW.experiment AND subscription_id = NEW.subscription_id
    ON CONFLICT (experiment, phase, variant, currency) DO UPDATE SET
      paying = paying + 1,
      net_minor = net_minor + excluded.net_minor,
      net_squares = net_squares + excluded.net_squares;
END`,
  `CREATE TRIGGER xp_save_offer_money_more AFTER UPDATE OF net_minor ON xp_save_offer_money
BEGIN
  UPDATE xp_save_offer_arm_money SET
    net_minor = net_minor + NEW.net_minor - OLD.net_minor,
    net_squares = net_squares + 1.0 * NEW.net_minor * NEW.net_minor - 1.0 * OLD.net_minor * OLD.net_minor
  WHERE currency = NEW.currency AND (experiment, phase, variant) =
    (SELECT experiment, phase, variant FROM xp_save_offers
     WHERE experiment = NEW.experiment AND subscription_id = NEW.subscription_id);
END`,
];

/**
 * A lifecycle event of a subscription, as its save offer tests count it: money (signed minor
 * units of `currency`; a cancellation none) and whether it ended the subscription's renewing.
 */
export interface SaveOfferLifecycleEvent {
  eventId: string;
  subscriptionId: string;
  kind: string;
  amountMinor: number;
  currency: string | null;
  at: number;
}

/**
 * The event's id claimed when a save offer was shown to its subscription before it happened: 1
 * row written when it counts now, 0 when counted before or about no such subscription.
 */
export function saveOfferEventClaim(event: SaveOfferLifecycleEvent): Statement {
  return {
    sql: `INSERT OR IGNORE INTO xp_revenue_events (event_id, at)
          SELECT ?1, ?2 WHERE EXISTS (
            SELECT 1 FROM xp_save_offers WHERE subscription_id = ?3 AND shown_at <= ?2
          )`,
    params: [`save_offer:${event.eventId}`, event.at, event.subscriptionId],
  };
}

/**
 * What a claimed event changes in every save offer test its subscription was shown in before
 * it: its net revenue in the event's currency, and a cancellation (reported by the product API,
 * wherever the subscriber cancelled: the contract page, the app, support) sets the cancelled bit
 * once, as the page's own cancel does.
 */
export function saveOfferLifecycleStatements(event: SaveOfferLifecycleEvent): Statement[] {
  if (event.kind === 'cancellation') {
    return [
      {
        sql: `UPDATE xp_save_offers SET outcomes = outcomes | 2
              WHERE subscription_id = ?1 AND shown_at <= ?2 AND (outcomes & 2) = 0`,
        params: [event.subscriptionId, event.at],
      },
    ];
  }
  if (event.amountMinor === 0 || event.currency === null) return [];
  return [
    {
      sql: `INSERT INTO xp_save_offer_money (experiment, subscription_id, currency, net_minor)
            SELECT experiment, subscription_id, ?2, ?3 FROM xp_save_offers
            WHERE subscription_id = ?1 AND shown_at <= ?4
            ON CONFLICT (experiment, subscription_id, currency) DO UPDATE SET
              net_minor = net_minor + excluded.net_minor`,
      params: [event.subscriptionId, event.currency, event.amountMinor, event.at],
    },
  ];
}

/** An arm's subscriptions shown the offer in one phase, and what they did. */
export interface SaveOfferRow {
  variant: string;
  shown: number;
  chose_keep: number;
  took_action: number;
  cancelled: number;
}

export function saveOfferRowsStatement(experiment: string, phase: number): Statement {
  return {
    sql: `SELECT variant, shown, chose_keep, took_action, cancelled FROM xp_save_offer_arms
          WHERE experiment = ?1 AND phase = ?2 ORDER BY variant`,
    params: [experiment, phase],
  };
}

/** An arm's cancelled subscriptions that picked one reason for leaving. */
export interface SaveOfferReasonRow {
  variant: string;
  reason: string;
  subscriptions: number;
}

export function saveOfferReasonRowsStatement(experiment: string, phase: number): Statement {
  return {
    sql: `SELECT variant, reason, subscriptions FROM xp_save_offer_reasons
          WHERE experiment = ?1 AND phase = ?2 ORDER BY variant, reason`,
    params: [experiment, phase],
  };
}

/** An arm's net revenue in one currency since the offer was shown, and its sum of squares. */
export interface SaveOfferMoneyRow {
  variant: string;
  currency: string;
  paying: number;
  net_minor: number;
  net_squares: number;
}

export function saveOfferMoneyRowsStatement(experiment: string, phase: number): Statement {
  return {
    sql: `SELECT variant, currency, paying, net_minor, net_squares FROM xp_save_offer_arm_money
          WHERE experiment = ?1 AND phase = ?2 ORDER BY variant, currency`,
    params: [experiment, phase],
  };
}

/** The phases a save offer test showed its offer in, newest first. */
export function saveOfferPhasesStatement(experiment: string): Statement {
  return {
    sql: `SELECT DISTINCT phase FROM xp_save_offer_arms WHERE experiment = ?1 AND shown > 0
          ORDER BY phase DESC`,
    params: [experiment],
  };
}
