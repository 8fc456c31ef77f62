import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { SqlRunner, SqlValue } from '../../worker/config/versions';
import { wranglerMessage } from '../kv-store';
import { PROJECT_ROOT } from '../local-platform';

const execFileAsync = promisify(execFile);

/**
 * The deployed EVENTS_DB through `wrangler d1 execute --remote --json` (uses wrangler's login),
 * as `npm run config --remote` reaches CONFIG_DB (scripts/config-stores.ts). The command takes no
 * bound parameters: each value is written into the statement as an SQL literal.
 */
export function remoteEventsDb(): SqlRunner {
  async function execute(sql: string, params: readonly SqlValue[]) {
    try {
      const { stdout } = await execFileAsync(
        'npx',
        [
          'wrangler',
          'd1',
          'execute',
          'EVENTS_DB',
          '--remote',
          '--json',
          '--command',
          inline(sql, params),
        ],
        { cwd: PROJECT_ROOT, maxBuffer: 64 * 1024 * 1024 },
      );
      const [result] = JSON.parse(stdout) as { results: unknown[]; meta?: { changes?: number } }[];
      return { results: result?.results ?? [], changes: result?.meta?.changes ?? 0 };
    } catch (error) {
      throw new Error(`wrangler d1 execute EVENTS_DB failed: ${wranglerMessage(error)}`);
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
