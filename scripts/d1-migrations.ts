import { readdir, readFile } from 'node:fs/promises';
import { unstable_splitSqlQuery } from 'wrangler';

/**
 * Applies a migrations folder's `.sql` files in name order, each once, recording them in the
 * `d1_migrations` table as `wrangler d1 migrations apply` does (the same table and columns; so
 * does vitest-pool-workers' applyD1Migrations): a database migrated here and one migrated by
 * `npm start` agree on what has run. The pending files run in one batch, so in one transaction.
 */
export async function applyMigrations(db: D1Database, dir: string): Promise<void> {
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
  const names = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort();
  const pending = names.filter((name) => !applied.has(name));
  const statements: D1PreparedStatement[] = [];
  for (const name of pending) {
    const queries = unstable_splitSqlQuery(await readFile(`${dir}/${name}`, 'utf8'));
    statements.push(
      ...queries.map((query) => db.prepare(query)),
      db.prepare('INSERT INTO d1_migrations (name) VALUES (?)').bind(name),
    );
  }
  // One batch for every pending file: each batch is a round trip to workerd, and a browser test
  // file starts from an empty database (portal/migrations alone is a dozen files).
  if (statements.length > 0) await db.batch(statements);
}
