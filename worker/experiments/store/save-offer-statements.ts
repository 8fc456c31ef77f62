import type { Statement } from './split-statements';

/**
 * A save offer test's subscriptions (docs/experiments.md, "Testing the save offer"), in the
 * shards only, each in the shard of its subscription id (visitor-shard.ts shardOfVisitor): one
 * row per subscription and experiment, written when the confirm of a cancel first shows it the
 * offer, in the phase and arm it was shown in; a bit per later outcome, each set once; and the
 * per-arm totals, kept by triggers as every experiment's are (every-experiment-schema.ts).
 *
 * - `shown`: subscriptions the offer was shown to (a reload of the confirm inserts nothing);
 * - `chose_keep`: of them, those who tapped *Keep my subscription* (`?offer=shown`), once;
 * - `cancelled`: of them, those who cancelled from the page afterwards while the test ran, once.
 *
 * "Kept" is shown and not cancelled: a subscriber who keeps and cancels later is not kept, and
 * one who closes the tab is. The rows go with the visitors' after VISITOR_ROWS_KEPT_MS
 * (experiment-shard.ts alarm); the totals stay.
 */

/** What the subscriber's page reports of a subscription in a save offer test. */
export type SaveOfferOutcome = 'shown' | 'chose_keep' | 'cancelled';

/** One outcome of one subscription, in the arm its page drew (save-offer-arm.ts). */
export interface SaveOfferEvent {
  experiment: string;
  phase: number;
  variant: string;
  subscriptionId: string;
  outcome: SaveOfferOutcome;
  /** Epoch ms. */
  at: number;
}

/** Each later outcome's bit in `xp_save_offers.outcomes`. */
const OUTCOME_BITS = { chose_keep: 1, cancelled: 2 } as const;

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
  return {
    sql: `UPDATE xp_save_offers SET outcomes = outcomes | ?3
          WHERE experiment = ?1 AND subscription_id = ?2 AND (outcomes & ?3) = 0`,
    params: [event.experiment, event.subscriptionId, OUTCOME_BITS[event.outcome]],
  };
}

/** An arm's subscriptions shown the offer in one phase, and what they did. */
export interface SaveOfferRow {
  variant: string;
  shown: number;
  chose_keep: number;
  cancelled: number;
}

export function saveOfferRowsStatement(experiment: string, phase: number): Statement {
  return {
    sql: `SELECT variant, shown, chose_keep, cancelled FROM xp_save_offer_arms
          WHERE experiment = ?1 AND phase = ?2 ORDER BY variant`,
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
