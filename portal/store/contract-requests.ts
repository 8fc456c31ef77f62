import type { ContractOutcome, ContractRequest } from '../../shared/api/contract-calls';

/**
 * The `contract_requests` table (migration 0016): each declaration of the contract page as the
 * emulated product API received it, once per Idempotency-Key.
 */

/** A declaration as kept: the request, and what came of it. */
export interface ContractRequestRow {
  id: string;
  receivedAt: string;
  outcome: ContractOutcome;
  subscriptionId: string | null;
}

/** The declaration already kept under `key` (a repeated post), if any. */
export function findContractRequest(db: D1Database, key: string) {
  return db
    .prepare(
      `SELECT id, received_at AS receivedAt, outcome, subscription_id AS subscriptionId
       FROM contract_requests WHERE request_key = ?`,
    )
    .bind(key)
    .first<ContractRequestRow>();
}

/** Keeps `request` as received; false when `key` was kept already (nothing written). */
export async function keepContractRequest(
  db: D1Database,
  key: string,
  request: ContractRequest,
  row: ContractRequestRow,
): Promise<boolean> {
  const result = await db
    .prepare(
      `INSERT OR IGNORE INTO contract_requests
         (id, request_key, kind, email, reference, name, cancellation_type, reason, statement,
          brand, language, submitted_at, received_at, subscription_id, outcome, acknowledgement,
          end_date)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'recorded', ?)`,
    )
    .bind(
      row.id,
      key,
      request.kind,
      request.email,
      request.reference,
      request.name ?? null,
      request.cancellation_type ?? null,
      request.reason ?? null,
      request.statement,
      request.brand ?? null,
      request.language ?? null,
      request.submitted_at,
      row.receivedAt,
      row.subscriptionId,
      row.outcome,
      request.end_date ?? null,
    )
    .run();
  return result.meta.changes === 1;
}
