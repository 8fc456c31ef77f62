import { readdir, readFile } from 'node:fs/promises';
import { unstable_splitSqlQuery } from 'wrangler';

/**
 * Applies a migrations folder's `.sql` files in name order, each once, recording them in the
 * `d1_migrations` table as `wrangler d1 migrations apply` does (the same table and columns; so
 * does vitest-pool-workers' applyD1Migrations): a database migrated here and one migrated by
 * `npm start` agree on what has run.
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
  for (const name of names) {
    if (applied.has(name)) continue;
    const queries = unstable_splitSqlQuery(await readFile(`${dir}/${name}`, 'utf8'));
    await db.batch([
      ...queries.map((query) => db.prepare(query)),
      db.prepare('INSERT INTO d1_migrations (name) VALUES (?)').bind(name),
    ]);
  }
}
