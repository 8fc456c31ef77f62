/**
 * A D1 database that dies at one statement, as an isolate killed there would: the first
 * statement whose SQL matches `match` throws, `before` it runs (nothing written) or `after` it
 * ran (written, but the caller never hears so). Later statements, and every other, run as usual.
 * `statements` lists the SQL of every statement run, so a test can count them.
 */
export function faultyD1(
  db: D1Database,
  fault: { match: RegExp; when: 'before' | 'after' } | null = null,
) {
  const statements: string[] = [];
  let armed = fault !== null;
  const unwrapped = new WeakMap<object, D1PreparedStatement>();
  function wrap(statement: D1PreparedStatement, sql: string): D1PreparedStatement {
    const once =
      <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        statements.push(sql);
        const hit = armed && fault?.match.test(sql) === true;
        if (hit) armed = false;
        if (hit && fault?.when === 'before') throw new Error('isolate died before the statement');
        const result = await call(...args);
        if (hit) throw new Error('isolate died after the statement');
        return result;
      };
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
    unwrapped.set(proxy, statement);
    return proxy;
  }
  const faulty = new Proxy(db, {
    get(target, name) {
      if (name === 'prepare') return (sql: string) => wrap(target.prepare(sql), sql);
      // A batch runs as one: its statements are unwrapped, and never faulted.
      if (name === 'batch') {
        return (list: D1PreparedStatement[]) =>
          target.batch(list.map((statement) => unwrapped.get(statement) ?? statement));
      }
      const value = Reflect.get(target, name, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: faulty, statements, fired: () => fault !== null && !armed };
}
