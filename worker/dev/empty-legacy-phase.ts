/**
 * Empties a phase of the split in EVENTS_DB's experiment tables (visitors exposed before the
 * shards, and those an earlier `npm run experiments -- simulate` wrote there): its visitors'
 * rows, their purchases (and those purchases' claims) and the totals the triggers kept from them,
 * found as every table with a `phase` column so that a table a later migration adds is emptied
 * too. The totals are deleted rather than recomputed: with every row of the phase gone, they are
 * zero.
 */
export async function emptyLegacyPhase(db: D1Database, phase: number): Promise<void> {
  const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const { results: tables } = await db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table'
         AND name NOT LIKE 'sqlite!_%' ESCAPE '!' AND name NOT LIKE '!_cf!_%' ESCAPE '!'`,
    )
    .all<{ name: string }>();
  // D1 refuses the pragma_table_info() function and its own _cf_ tables, not PRAGMA table_info.
  const columns = await db.batch<{ name: string }>(
    tables.map(({ name }) => db.prepare(`PRAGMA table_info(${quoted(name)})`)),
  );
  const phased = tables.filter((_, i) => columns[i]?.results.some((c) => c.name === 'phase'));
  await db.batch([
    db
      .prepare(
        `DELETE FROM verified_purchases WHERE subscription_id IN
           (SELECT subscription_id FROM experiment_purchases WHERE phase = ?1)`,
      )
      .bind(phase),
    ...phased.map(({ name }) =>
      db.prepare(`DELETE FROM ${quoted(name)} WHERE phase = ?1`).bind(phase),
    ),
  ]);
}
