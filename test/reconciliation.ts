import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { PaymentListing } from '../portal/store/subscription-payments';
import { archivedObjects } from '../scripts/events/archive';
import { PROJECT_ROOT } from '../scripts/local-platform';

/**
 * docs/analytics.md's reconciliation as the page writes it, for the tests that check it against
 * the embedded product API's listing: its SQL blocks, the archive copied out of R2 as the files
 * the blocks read, the DuckDB block run over them, and both sides in cents.
 */

export type Row = Record<string, unknown>;

/** The ```sql blocks of docs/analytics.md, in page order. */
export async function analyticsSqlBlocks(): Promise<string[]> {
  const page = await readFile(join(PROJECT_ROOT, 'docs', 'analytics.md'), 'utf8');
  return [...page.matchAll(/```sql\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
}

/** A block's statements, without those that set up a cloud read (a local file needs none). */
export const statementsOf = (block: string) =>
  block
    .split(/;\s*\n/)
    .map((statement) => statement.trim())
    .filter((statement) => statement !== '')
    .filter((statement) => !/^(INSTALL|LOAD|CREATE SECRET)\b/i.test(statement));

/** Exactly one block that `matches`, or the test fails saying which was missing. */
export function oneBlock(blocks: readonly string[], matches: (block: string) => boolean): string {
  const found = blocks.filter(matches);
  if (found.length !== 1) {
    throw new Error(`docs/analytics.md has ${found.length} such sql blocks, not one`);
  }
  return found[0] as string;
}

/** The UTC days the page's DuckDB query reads, as it writes them. */
const PAGE_DAYS = /archive_events\('(\d{4}-\d{2}-\d{2})', '(\d{4}-\d{2}-\d{2})'\)/;

/**
 * The DuckDB reconciliation over the archive objects under `dir` (as R2 keeps them), as the page
 * has it but for the bucket read as files and, when given, the days read.
 */
export async function duckDbReconciliation(
  dir: string,
  days?: { from: string; to: string },
): Promise<Row[]> {
  const blocks = await analyticsSqlBlocks();
  const macro = oneBlock(blocks, (block) => block.includes('read_json('));
  let query = oneBlock(blocks, (block) => block.startsWith('-- Reconciliation (DuckDB'));
  if (days) {
    if (!PAGE_DAYS.test(query)) throw new Error('the DuckDB reconciliation names no days');
    query = query.replace(PAGE_DAYS, `archive_events('${days.from}', '${days.to}')`);
  }
  const local = macro.replace(
    "'r2://geofunnel-events/events/*/*/*.ndjson.gz'",
    `'${dir}/events/*/*/*.ndjson.gz'`,
  );
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    for (const statement of statementsOf(local)) await connection.runAndReadAll(statement);
    const reader = await connection.runAndReadAll(query);
    return reader.getRowObjectsJson() as Row[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Copies the archive objects of UTC `day` out of `bucket` under `dir`, keyed as R2 keys them. */
export async function copyArchiveDay(bucket: R2Bucket, day: string, dir: string): Promise<void> {
  for (const { key } of await archivedObjects(bucket, day)) {
    const stored = await bucket.get(key);
    const path = join(dir, key);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, new Uint8Array((await stored?.arrayBuffer()) ?? new ArrayBuffer(0)));
  }
}

export interface ReconciledRow {
  subscription_id: unknown;
  day: string;
  currency: unknown;
  charges: number;
  refunds: number;
  net: number;
}

/**
 * The portal's payments per subscription, day and currency, in cents, in the query's order (the
 * databases' binary order: 'sub_S…' before 'sub_e…').
 */
export function listingTotals(payments: readonly PaymentListing[]): ReconciledRow[] {
  const rows = new Map<string, { charges: number; refunds: number }>();
  for (const payment of payments) {
    const key = [payment.subscription_id, payment.occurred_at.slice(0, 10), payment.currency].join(
      ' ',
    );
    const row = rows.get(key) ?? { charges: 0, refunds: 0 };
    if (payment.kind === 'refund' || payment.kind === 'chargeback')
      row.refunds += payment.amount_minor;
    else row.charges += payment.amount_minor;
    rows.set(key, row);
  }
  return [...rows]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, { charges, refunds }]) => {
      const [subscription_id, day = '', currency] = key.split(' ');
      return { subscription_id, day, currency, charges, refunds, net: charges - refunds };
    });
}

const cents = (value: unknown) => Math.round(Number(value) * 100);

/** The query's rows (amounts in major units) in cents, to compare with listingTotals. */
export function inCents(rows: readonly Row[]): ReconciledRow[] {
  return rows.map((row) => ({
    subscription_id: row.subscription_id,
    day: String(row.day),
    currency: row.currency,
    charges: cents(row.charges),
    refunds: cents(row.refunds),
    net: cents(row.net),
  }));
}
