import type { SaveOfferTakeAnswer } from '../../shared/api/subscriber-calls';
import type { TakenOffer } from '../renewal-terms';

/**
 * The `save_offers` table (migration 0019): each save offer a subscriber took, once per
 * Idempotency-Key and at most one a subscription within a year, with the answer the first call
 * gave.
 */

/** A save offer as kept: what it did, and what came of it. */
export interface SaveOfferRow extends TakenOffer {
  id: string;
  subscriptionId: string;
  months: number | null;
  planBefore: string;
  idempotencyKey: string;
  brand: string | null;
  language: string | null;
  experiment: string | null;
  variant: string | null;
  answer: SaveOfferTakeAnswer;
}

interface StoredRow extends Omit<SaveOfferRow, 'answer'> {
  answer: string;
}

const COLUMNS = `id, subscription_id AS subscriptionId, action, percent_off AS percentOff, renewals,
  months, plan_before AS planBefore, plan_after AS planAfter, paused_until AS pausedUntil,
  taken_at AS takenAt, idempotency_key AS idempotencyKey, brand, language, experiment, variant,
  answer`;

function rowOf(stored: StoredRow): SaveOfferRow {
  return { ...stored, answer: JSON.parse(stored.answer) as SaveOfferTakeAnswer };
}

/** The offer a key took on the subscription (a repeated call), if any. */
export async function findSaveOffer(
  db: D1Database,
  subscriptionId: string,
  idempotencyKey: string,
): Promise<SaveOfferRow | null> {
  const stored = await db
    .prepare(`SELECT ${COLUMNS} FROM save_offers WHERE subscription_id = ? AND idempotency_key = ?`)
    .bind(subscriptionId, idempotencyKey)
    .first<StoredRow>();
  return stored ? rowOf(stored) : null;
}

/** Every offer the subscription took, oldest first: what its renewal terms are made of. */
export async function listSaveOffersOf(
  db: D1Database,
  subscriptionId: string,
): Promise<SaveOfferRow[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM save_offers WHERE subscription_id = ? ORDER BY taken_at, id`)
    .bind(subscriptionId)
    .all<StoredRow>();
  return results.map(rowOf);
}

/**
 * Keeps `offer` unless the subscription took one after `since` (ISO 8601): true when kept, false
 * when another was (this key's a moment before, or another key's), nothing written. One
 * statement, so two calls at once cannot both take an offer.
 */
export async function keepSaveOffer(
  db: D1Database,
  offer: SaveOfferRow,
  since: string,
): Promise<boolean> {
  const result = await db
    .prepare(
      `INSERT OR IGNORE INTO save_offers (id, subscription_id, action, percent_off, renewals,
         months, plan_before, plan_after, paused_until, taken_at, idempotency_key, brand,
         language, experiment, variant, answer)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16
       WHERE NOT EXISTS (SELECT 1 FROM save_offers WHERE subscription_id = ?2 AND taken_at > ?17)`,
    )
    .bind(
      offer.id,
      offer.subscriptionId,
      offer.action,
      offer.percentOff,
      offer.renewals,
      offer.months,
      offer.planBefore,
      offer.planAfter,
      offer.pausedUntil,
      offer.takenAt,
      offer.idempotencyKey,
      offer.brand,
      offer.language,
      offer.experiment,
      offer.variant,
      JSON.stringify(offer.answer),
      since,
    )
    .run();
  return result.meta.changes === 1;
}

/**
 * When the provider reported a chargeback of the subscription (`subscriptions.charged_back_at`,
 * migration 0013), or null: a disputed subscription renews no more, and takes no offer.
 */
export async function findChargedBackAt(
  db: D1Database,
  subscriptionId: string,
): Promise<string | null> {
  const row = await db
    .prepare('SELECT charged_back_at AS at FROM subscriptions WHERE id = ?')
    .bind(subscriptionId)
    .first<{ at: string | null }>();
  return row?.at ?? null;
}
