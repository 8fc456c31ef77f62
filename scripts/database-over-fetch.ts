import type { D1Database } from '@cloudflare/workers-types';
import type { WorkerOptions } from 'miniflare';

/**
 * The D1 databases of a workerd that Miniflare runs, read and written from Node through a small
 * worker of its own (databasesWorker) rather than through Miniflare's proxy. The proxy's
 * `prepare()` is synchronous: Node blocks on a worker thread for the answer, and with both
 * cores busy it once took another call's answer (`message?.id === id` in miniflare's
 * fetch-sync.ts), after which every call of the file failed (three tests of receipt.test.ts).
 * Here each call is one ordinary request. What crosses: statements, their parameters and the
 * answers, as JSON (so no blobs).
 */

/** One statement with its parameters, as `prepare(sql).bind(...params)` makes it. */
interface Statement {
  sql: string;
  params: unknown[];
}

/** What Node asks the databases' worker. */
interface DatabaseCall {
  binding: string;
  mode: 'all' | 'first' | 'run' | 'raw' | 'batch';
  statements: Statement[];
  column?: string;
}

/** The databases' worker's name in the workerd it shares with the worker under test. */
export const DATABASES_WORKER_NAME = 'databases';

/** The worker's one route: a DatabaseCall in, `{ result }` or `{ error }` out. */
const DATABASES_WORKER_SOURCE = `export default {
  async fetch(request, env) {
    const { binding, mode, statements, column } = await request.json();
    const db = env[binding];
    try {
      const prepared = statements.map(({ sql, params }) => db.prepare(sql).bind(...params));
      const [first] = prepared;
      const result =
        mode === 'batch'
          ? await db.batch(prepared)
          : mode === 'first'
            ? await (column === undefined ? first.first() : first.first(column))
            : await first[mode]();
      return Response.json({ result });
    } catch (error) {
      return Response.json({ error: String(error?.message ?? error) }, { status: 500 });
    }
  },
};`;

/**
 * The databases' worker, on the compatibility date of the worker under test and bound to the
 * same D1 databases (`d1Databases` as wrangler.toml declares them): Miniflare keeps one database
 * per id, so both see the same rows.
 */
export function databasesWorker(
  underTest: Pick<WorkerOptions, 'compatibilityDate' | 'd1Databases'>,
): WorkerOptions {
  return {
    name: DATABASES_WORKER_NAME,
    compatibilityDate: underTest.compatibilityDate,
    modules: [{ type: 'ESModule', path: 'databases.mjs', contents: DATABASES_WORKER_SOURCE }],
    d1Databases: underTest.d1Databases,
  };
}

/** Sends a call to the databases' worker: `mf.getWorker(DATABASES_WORKER_NAME)`'s fetch. */
type Send = (call: DatabaseCall) => Promise<unknown>;

class FetchedStatement {
  constructor(
    private readonly send: Send,
    private readonly binding: string,
    readonly statement: Statement,
  ) {}

  bind(...params: unknown[]): FetchedStatement {
    return new FetchedStatement(this.send, this.binding, { sql: this.statement.sql, params });
  }

  all() {
    return this.call('all');
  }

  run() {
    return this.call('run');
  }

  raw() {
    return this.call('raw');
  }

  first(column?: string) {
    return this.call('first', column);
  }

  private call(mode: 'all' | 'first' | 'run' | 'raw', column?: string) {
    return this.send({ binding: this.binding, mode, statements: [this.statement], column });
  }
}

/** Where the databases' worker answers, as Miniflare's `getWorker()` gives it. */
interface DatabasesFetcher {
  fetch(
    url: string,
    init: { method: string; body: string },
  ): Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;
}

/**
 * The database bound as `binding`, with D1's `prepare(...).bind(...)` (`all`, `first`, `run`,
 * `raw`) and `batch`: what the tests and the migrations use of it. A failed statement rejects
 * with D1's message.
 */
export function databaseOverFetch(fetcher: DatabasesFetcher, binding: string): D1Database {
  const send: Send = async (call) => {
    const answer = await fetcher.fetch(`http://${DATABASES_WORKER_NAME}/`, {
      method: 'POST',
      body: JSON.stringify(call),
    });
    const body = (await answer.json()) as { result?: unknown; error?: string };
    if (!answer.ok) throw new Error(body.error ?? `${binding} answered ${answer.status}`);
    return body.result;
  };
  const database = {
    prepare: (sql: string) => new FetchedStatement(send, binding, { sql, params: [] }),
    batch: (statements: FetchedStatement[]) =>
      send({ binding, mode: 'batch', statements: statements.map((each) => each.statement) }),
  };
  return database as unknown as D1Database;
}
