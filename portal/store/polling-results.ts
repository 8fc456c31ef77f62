/** The `polling_results` table: what GET /polling/get-result/{id} answers (SPEC.md §7). */

export function insertPollingResultStatement(
  db: D1Database,
  polling: {
    id: string;
    userId: string;
    planId: string;
    subscriptionId: string;
    result: unknown;
    readyAt: string;
    createdAt: string;
  },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO polling_results (id, user_id, plan_id, subscription_id, result_json, ready_at,
         created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      polling.id,
      polling.userId,
      polling.planId,
      polling.subscriptionId,
      JSON.stringify(polling.result),
      polling.readyAt,
      polling.createdAt,
    );
}

export interface StoredPollingResult {
  result: unknown;
  readyAt: string;
}

export async function findPollingResult(
  db: D1Database,
  id: string,
): Promise<StoredPollingResult | null> {
  const row = await db
    .prepare('SELECT result_json, ready_at FROM polling_results WHERE id = ?')
    .bind(id)
    .first<{ result_json: string; ready_at: string }>();
  return row && { result: JSON.parse(row.result_json), readyAt: row.ready_at };
}

export function findPollingIdBySubscription(
  db: D1Database,
  subscriptionId: string,
): Promise<string | null> {
  return db
    .prepare(
      'SELECT id FROM polling_results WHERE subscription_id = ? ORDER BY created_at, rowid LIMIT 1',
    )
    .bind(subscriptionId)
    .first<string>('id');
}
