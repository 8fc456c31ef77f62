import type { Statement } from './split-statements';

/**
 * Outcomes counted once per exposed visitor and kind, per arm, in every experiment's tables (the
 * shards only): the declines by class (decline-statements.ts), what happened after the first
 * payment (lifecycle-statements.ts) and the errors a visitor met (error-statements.ts). Each
 * family keeps which of its kinds a visitor has counted in a column of `xp_exposures`, a bit a
 * kind, and a count per arm and kind in a table of its own: nothing per visitor beyond the bits
 * of a column that a 0 stores in no byte. One pair of statements per kind does the counting, so
 * a message delivered again counts nothing.
 */
export interface OutcomeFamily {
  /** The per-arm counts: (experiment, phase, variant, <kindColumn>, visitors). */
  table: string;
  kindColumn: string;
  /** The `xp_exposures` column of the visitor's bits. */
  bitsColumn: string;
}

/**
 * The exposures one kind counts in: SQL naming `xp_exposures` with `?1`… as its own parameters,
 * and what joins them (`FROM` rows the condition reads, or none).
 */
export interface CountedExposures {
  join?: string;
  where: string;
  params: (string | number | null)[];
}

/**
 * The count of `kind` into each arm of the exposures `scope` names whose bit is not set yet, then
 * the bit: the bit and the kind take the parameters after the scope's.
 */
export function countOnceStatements(
  family: OutcomeFamily,
  kind: string,
  bit: number,
  scope: CountedExposures,
): Statement[] {
  const bitParam = `?${scope.params.length + 1}`;
  const kindParam = `?${scope.params.length + 2}`;
  const from = scope.join ? `xp_exposures JOIN ${scope.join}` : 'xp_exposures';
  const where = `${scope.where} AND (xp_exposures.${family.bitsColumn} & ${bitParam}) = 0`;
  return [
    {
      sql: `INSERT INTO ${family.table} (experiment, phase, variant, ${family.kindColumn}, visitors)
            SELECT experiment, phase, variant, ${kindParam}, count(*) FROM ${from}
            WHERE ${where}
            GROUP BY experiment, phase, variant
            ON CONFLICT (experiment, phase, variant, ${family.kindColumn}) DO UPDATE SET
              visitors = visitors + excluded.visitors`,
      params: [...scope.params, bit, kind],
    },
    {
      sql: `UPDATE xp_exposures SET ${family.bitsColumn} = ${family.bitsColumn} | ${bitParam}
            ${scope.join ? `FROM ${scope.join}` : ''} WHERE ${where}`,
      params: [...scope.params, bit],
    },
  ];
}

/**
 * Each visitor's latest time (epoch ms) among the `events` that `of` keeps: a kind counts in the
 * arms a visitor was exposed to at or before their latest event of it.
 */
export function latestPerVisitor<T extends { visitorId: string; at: number }>(
  events: readonly T[],
  of: (event: T) => boolean,
): Map<string, number> {
  const latest = new Map<string, number>();
  for (const event of events) {
    if (of(event))
      latest.set(event.visitorId, Math.max(latest.get(event.visitorId) ?? 0, event.at));
  }
  return latest;
}

/** `kind` counted for each visitor of `latest` in the arms they were exposed to by then. */
export function countVisitorsOnce(
  family: OutcomeFamily,
  kind: string,
  bit: number,
  latest: ReadonlyMap<string, number>,
): Statement[] {
  if (latest.size === 0) return [];
  return countOnceStatements(family, kind, bit, {
    join: `(SELECT json_extract(value, '$[0]') AS visitor_id, json_extract(value, '$[1]') AS at
            FROM json_each(?1)) AS latest`,
    where: 'xp_exposures.visitor_id = latest.visitor_id AND xp_exposures.exposed_at <= latest.at',
    params: [JSON.stringify([...latest])],
  });
}

/** A family's rows of one phase of an experiment: (variant, kind, visitors). */
export function outcomeRowsStatement(
  family: OutcomeFamily,
  experiment: string,
  phase: number,
): Statement {
  return {
    sql: `SELECT variant, ${family.kindColumn}, visitors FROM ${family.table}
          WHERE experiment = ?1 AND phase = ?2 ORDER BY variant, ${family.kindColumn}`,
    params: [experiment, phase],
  };
}
