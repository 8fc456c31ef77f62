/** One migration: its file's name and its statements in order. */
export interface NamedMigration {
  name: string;
  queries: string[];
}

/**
 * Applies the `migrations` not yet recorded in the database's `d1_migrations` table, recording
 * each as `wrangler d1 migrations apply` does (the same table and columns; so does
 * vitest-pool-workers' applyD1Migrations): a database migrated here and one migrated by
 * `npm start` agree on what has run. Every pending one runs in one batch, so in one transaction
 * and one round trip to workerd. Imports nothing, so Node (d1-migrations.ts, the browser tests'
 * built worker) and workerd (test/worker/fresh-storage.ts) run the same code.
 */
export async function applyPending(
  db: D1Database,
  migrations: readonly NamedMigration[],
): Promise<void> {
  await db
    .prepare(
      `CREATE TABLE IF NOT EXISTS d1_migrations (
         id INTEGER PRIMARY KEY AUTOINCREMENT,
         name TEXT UNIQUE,
         applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
       )`,
    )
    .run();
  const { results } = await db.prepare('SELECT name FROM d1_migrations').all<{ name: string }>();
  const applied = new Set(results.map((row) => row.name));
  const record = db.prepare('INSERT INTO d1_migrations (name) VALUES (?)');
  const statements = migrations
    .filter((migration) => !applied.has(migration.name))
    .flatMap((migration) => [
      ...migration.queries.map((query) => db.prepare(query)),
      record.bind(migration.name),
    ]);
  if (statements.length > 0) await db.batch(statements);
}
