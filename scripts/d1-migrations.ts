import { readdir, readFile } from 'node:fs/promises';
import { unstable_splitSqlQuery } from 'wrangler';
import { applyPending } from './pending-migrations';

/**
 * Applies a migrations folder's `.sql` files in name order, each once (pending-migrations.ts):
 * a browser test file starts from an empty database (portal/migrations alone is a dozen files).
 */
export async function applyMigrations(db: D1Database, dir: string): Promise<void> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort();
  const migrations = await Promise.all(
    names.map(async (name) => ({
      name,
      queries: unstable_splitSqlQuery(await readFile(`${dir}/${name}`, 'utf8')),
    })),
  );
  await applyPending(db, migrations);
}
