/** What a statement on a locked database throws (D1 gives up on SQLITE_BUSY so). */
const LOCKED = 'D1_ERROR: database is locked: SQLITE_BUSY';

/**
 * A D1 database that dies at one statement, as an isolate killed there would: the first
 * statement whose SQL matches `match` throws, `before` it runs (nothing written) or `after` it
 * ran (written, but the caller never hears so); a batch dies as one, at any statement of it that
 * matches. Later statements, and every other, run as usual. `statements` lists the SQL of every
 * statement run, so a test can count them. `lock()` makes every statement and batch throw LOCKED
 * until `unlock()`, as a database stalled by a long write or an outage does.
 */
export function faultyD1(
  db: D1Database,
  fault: { match: RegExp; when: 'before' | 'after' } | null = null,
) {
  const statements: string[] = [];
  let armed = fault !== null;
  let locked = false;
  const unwrapped = new WeakMap<object, { statement: D1PreparedStatement; sql: string }>();
  /** Runs `call` for `sqls` as the fault and the lock say. */
  async function run<R>(sqls: readonly string[], call: () => Promise<R>): Promise<R> {
    statements.push(...sqls);
    if (locked) throw new Error(LOCKED);
    const hit = armed && sqls.some((sql) => fault?.match.test(sql) === true);
    if (hit) armed = false;
    if (hit && fault?.when === 'before') throw new Error('isolate died before the statement');
    const result = await call();
    if (hit) throw new Error('isolate died after the statement');
    return result;
  }
  function wrap(statement: D1PreparedStatement, sql: string): D1PreparedStatement {
    const once =
      <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
      (...args: A): Promise<R> =>
        run([sql], () => call(...args));
    const proxy = new Proxy(statement, {
      get(target, name) {
        if (name === 'bind') return (...values: unknown[]) => wrap(target.bind(...values), sql);
        if (name === 'run' || name === 'all' || name === 'first' || name === 'raw') {
          const method = (target[name] as (...args: unknown[]) => Promise<unknown>).bind(target);
          return once(method);
        }
        const value = Reflect.get(target, name, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    unwrapped.set(proxy, { statement, sql });
    return proxy;
  }
  const faulty = new Proxy(db, {
    get(target, name) {
      if (name === 'prepare') return (sql: string) => wrap(target.prepare(sql), sql);
      // A batch runs as one: its statements unwrapped, faulted together.
      if (name === 'batch') {
        return (list: D1PreparedStatement[]) => {
          const parts = list.map((each) => unwrapped.get(each) ?? { statement: each, sql: '' });
          return run(
            parts.map((part) => part.sql),
            () => target.batch(parts.map((part) => part.statement)),
          );
        };
      }
      const value = Reflect.get(target, name, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    db: faulty,
    statements,
    fired: () => fault !== null && !armed,
    lock: () => {
      locked = true;
    },
    unlock: () => {
      locked = false;
    },
  };
}
