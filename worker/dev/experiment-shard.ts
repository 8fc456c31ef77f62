import { SPLIT_EXPERIMENT_ID } from '../../shared/experiments';
import { ExperimentShard } from '../experiments/store/experiment-shard';

/**
 * The experiment shard as the development entry (worker/dev.ts) exports it: the production class
 * (worker/experiments/store/experiment-shard.ts) and one more method, for `npm run experiments --
 * simulate --reset` (simulate-route.ts). A deployed shard is the production class, which has no
 * way to delete a phase.
 */
export class DevelopmentExperimentShard extends ExperimentShard {
  /**
   * Deletes every row of the experiment's phase in this shard: its visitors' exposures, their
   * purchases and money, and the totals their triggers kept (deleted, not recomputed: with
   * every row of the phase gone they are zero; no trigger fires on a delete). The tables are
   * found by their columns, so one a later migration adds is emptied too. For the split, its own
   * tables' rows of the phase as well (visitors counted before every experiment was).
   */
  async emptyExperimentPhase(experiment: string, phase: number): Promise<void> {
    const sql = this.ctx.storage.sql;
    const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
    const tables = sql
      .exec<{ name: string }>(
        `SELECT name FROM sqlite_master WHERE type = 'table'
           AND name NOT LIKE 'sqlite!_%' ESCAPE '!' AND name NOT LIKE '!_cf!_%' ESCAPE '!'`,
      )
      .toArray()
      .map(({ name }) => {
        const columns = sql
          .exec<{ name: string }>(`PRAGMA table_info(${quoted(name)})`)
          .toArray()
          .map((column) => column.name);
        return {
          name,
          phased: columns.includes('phase'),
          perExperiment: columns.includes('experiment'),
        };
      });
    this.ctx.storage.transactionSync(() => {
      // Rows keyed by visitor rather than by phase first, while the exposures still name them.
      sql.exec(
        `DELETE FROM xp_purchases WHERE (visitor_id, experiment) IN
           (SELECT visitor_id, experiment FROM xp_exposures WHERE experiment = ?1 AND phase = ?2)`,
        experiment,
        phase,
      );
      for (const table of tables.filter((t) => t.phased && t.perExperiment)) {
        sql.exec(
          `DELETE FROM ${quoted(table.name)} WHERE experiment = ?1 AND phase = ?2`,
          experiment,
          phase,
        );
      }
      if (experiment !== SPLIT_EXPERIMENT_ID) return;
      for (const table of tables.filter((t) => t.phased && !t.perExperiment)) {
        sql.exec(`DELETE FROM ${quoted(table.name)} WHERE phase = ?1`, phase);
      }
    });
  }
}
