import type { AdCost } from '../../shared/console-api/ad-costs';

/**
 * The ad costs in CONFIG_DB (config/migrations/0012_ad_costs.sql): what each day's ads of one
 * source and campaign cost, in the currency they were paid in. Imported and deleted from the
 * console (worker/console/ad-costs-route.ts), read by the funnel report. Small by nature, a row
 * per day and campaign, so D1 holds it as it holds the config's history.
 */

/** A day's cost of one source and campaign, in minor units of its currency. */
export interface AdCostRow {
  day: string;
  source: string;
  campaign: string;
  currency: string;
  amountMinor: number;
}

interface StoredRow {
  day: string;
  source: string;
  campaign: string;
  currency: string;
  amount_minor: number;
}

/** The costs of `firstDay` to `lastDay` (YYYY-MM-DD, both included), by day, source, campaign. */
export async function readAdCosts(
  db: D1Database,
  firstDay: string,
  lastDay: string,
): Promise<AdCostRow[]> {
  const { results } = await db
    .prepare(
      `SELECT day, source, campaign, currency, amount_minor FROM ad_costs
       WHERE day BETWEEN ?1 AND ?2 ORDER BY day, source, campaign`,
    )
    .bind(firstDay, lastDay)
    .all<StoredRow>();
  return results.map((row) => ({
    day: row.day,
    source: row.source,
    campaign: row.campaign,
    currency: row.currency,
    amountMinor: row.amount_minor,
  }));
}

/** The day, source and campaign of each row of `?1`, the JSON that writeAdCosts binds. */
const KEY_OF_EACH = `json_extract(value, '$[0]'), json_extract(value, '$[1]'),
  json_extract(value, '$[2]')`;

/**
 * Writes `rows`, each replacing the row of its day, source and campaign: all or none, in one
 * batch (one transaction), so an import is never half written. The rows travel as one JSON
 * parameter: D1 binds at most 100 parameters a statement, and an import has up to 5,000 rows.
 */
export async function writeAdCosts(
  db: D1Database,
  rows: readonly AdCost[],
  by: string,
  at: number,
): Promise<{ imported: number; replaced: number }> {
  const json = JSON.stringify(
    rows.map((row) => [row.day, row.source, row.campaign, row.currency, row.amountMinor]),
  );
  const [existing] = await db.batch<{ replaced: number }>([
    db
      .prepare(
        `SELECT COUNT(*) AS replaced FROM json_each(?1)
         WHERE (${KEY_OF_EACH}) IN (SELECT day, source, campaign FROM ad_costs)`,
      )
      .bind(json),
    // WHERE true: SQLite's parser needs it to read ON CONFLICT after a SELECT.
    db
      .prepare(
        `INSERT INTO ad_costs (day, source, campaign, currency, amount_minor, uploaded_by, uploaded_at)
         SELECT ${KEY_OF_EACH}, json_extract(value, '$[3]'), json_extract(value, '$[4]'), ?2, ?3
         FROM json_each(?1) WHERE true
         ON CONFLICT (day, source, campaign) DO UPDATE SET currency = excluded.currency,
           amount_minor = excluded.amount_minor, uploaded_by = excluded.uploaded_by,
           uploaded_at = excluded.uploaded_at`,
      )
      .bind(json, by, at),
  ]);
  return { imported: rows.length, replaced: existing?.results[0]?.replaced ?? 0 };
}

/** Deletes the row of that day, source and campaign; false when there is none. */
export async function deleteAdCost(
  db: D1Database,
  key: { day: string; source: string; campaign: string },
): Promise<boolean> {
  const { meta } = await db
    .prepare('DELETE FROM ad_costs WHERE day = ?1 AND source = ?2 AND campaign = ?3')
    .bind(key.day, key.source, key.campaign)
    .run();
  return meta.changes === 1;
}
