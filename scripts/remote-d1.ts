import type { SqlRunner, SqlValue } from '../worker/config/versions';
import { type WranglerRunner, wranglerMessage } from './wrangler-cli';
import { type Environment, wranglerEnvArgs } from './wrangler-environment';

/**
 * A deployed D1 database of the environment through `wrangler d1 execute <binding> --remote
 * --env <name> --json` (wrangler's login), for the tools' `--remote`: `npm run config` reaches
 * CONFIG_DB, `npm run events -- dead-letters` EVENTS_DB. The command takes no bound parameters:
 * each value is written into the statement as an SQL literal (numbers as digits, text quoted with
 * its quotes doubled, which is all SQLite's literal syntax needs).
 */
export function remoteD1Runner(
  binding: string,
  environment: Environment,
  wrangler: WranglerRunner,
): SqlRunner {
  async function execute(sql: string, params: readonly SqlValue[]) {
    try {
      const { stdout } = await wrangler([
        'd1',
        'execute',
        binding,
        '--remote',
        ...wranglerEnvArgs(environment),
        '--json',
        '--command',
        inline(sql, params),
      ]);
      const [result] = JSON.parse(stdout) as { results: unknown[]; meta?: { changes?: number } }[];
      return { results: result?.results ?? [], changes: result?.meta?.changes ?? 0 };
    } catch (error) {
      throw new Error(`wrangler d1 execute ${binding} failed: ${wranglerMessage(error)}`);
    }
  }
  return {
    run: async (sql, params) => ({ changes: (await execute(sql, params)).changes }),
    all: async <T>(sql: string, params: readonly SqlValue[]) =>
      (await execute(sql, params)).results as T[],
  };
}

/** `sql` with each `?` replaced by the next parameter as a literal. */
export function inline(sql: string, params: readonly SqlValue[]): string {
  let next = 0;
  const text = sql.replace(/\?/g, () => {
    if (next >= params.length) throw new Error('more placeholders than parameters');
    return literal(params[next++] ?? null);
  });
  if (next !== params.length) throw new Error('more parameters than placeholders');
  return text;
}

function literal(value: SqlValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  return `'${value.replaceAll("'", "''")}'`;
}
