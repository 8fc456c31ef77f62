/** Where a SQLite Durable Object keeps how many of its migrations it has run. */
const SCHEMA_VERSION_KEY = 'schemaVersion';

/**
 * Runs the migrations a Durable Object's SQLite has not run yet, in one transaction with the
 * count it has now run (kept in its synchronous KV: a Durable Object may not set PRAGMA
 * user_version). A change to the tables is a new entry of `migrations`, never an edit of one run
 * already; each object runs what it lacks when it next wakes. An entry's strings run one exec
 * each, and a string may hold several statements (a migration file). Call it in the constructor,
 * under blockConcurrencyWhile, so nothing is served before the schema is up to date.
 */
export function runSqliteMigrations(
  storage: DurableObjectStorage,
  migrations: readonly (readonly string[])[],
): void {
  const { sql, kv } = storage;
  const version = kv.get<number>(SCHEMA_VERSION_KEY) ?? 0;
  if (version >= migrations.length) return;
  storage.transactionSync(() => {
    for (const migration of migrations.slice(version)) {
      for (const statement of migration) sql.exec(statement);
    }
    kv.put(SCHEMA_VERSION_KEY, migrations.length);
  });
}
