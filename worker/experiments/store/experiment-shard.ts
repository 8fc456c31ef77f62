import { DurableObject } from 'cloudflare:workers';
import type { SegmentDimension } from '../../../shared/console-api/experiment-results';
import type { RouteStep } from '../../../shared/console-api/routes';
import { SPLIT_EXPERIMENT_ID } from '../../../shared/experiments';
import { answerKeyOfName } from '../../../shared/quiz/answers';
import type { Bindings } from '../../env';
import { runSqliteMigrations } from '../../sqlite-migrations';
import { VISITOR_ROWS_KEPT_MS } from '../assignment/assign';
import type { Exposure } from '../exposure/exposure-store';
import {
  ANSWERS_KEPT_MS,
  answerSegmentRowsStatement,
  answerStatements,
  answersPruneStatement,
  type GivenAnswer,
} from './answer-statements';
import {
  type Confirmation,
  confirmationList,
  confirmationStatements,
  coveredCountStatement,
  PENDING_KEPT_MS,
  pendingPruneStatements,
} from './confirmation-statements';
import { type DeclineRow, declineRowsStatement, declineStatements } from './decline-statements';
import {
  type ErrorRow,
  errorRowsStatement,
  errorStatements,
  type VisitorError,
} from './error-statements';
import {
  type ExperimentArm,
  type ExperimentExposure,
  experimentArmRowsStatement,
  experimentDayRowsStatement,
  experimentExposureStatements,
  experimentLeftOutStatement,
  experimentOutcomeStatements,
  experimentPhasesStatement,
  experimentPurchaseStatements,
  histogramRowsStatement,
  type LeftOut,
  segmentRowsStatement,
} from './every-experiment-statements';
import type { StoreResults } from './experiment-stores';
import {
  FUNNEL_VISITORS_KEPT_MS,
  type FunnelDayRow,
  type FunnelRevenueRow,
  funnelDaysPruneStatements,
  funnelDaysStatement,
  funnelOutcomeStatements,
  funnelPurchaseStatements,
  funnelRevenueStatement,
  funnelVisitorsPruneStatements,
  funnelVisitStatements,
} from './funnel-statements';
import {
  type LifecycleRow,
  lifecycleRowsStatement,
  lifecycleStatements,
  type RecoveredRow,
  recoveredRowsStatement,
} from './lifecycle-statements';
import type { Outcome } from './outcomes';
import {
  type ArmRow,
  addExperimentPhaseRows,
  addPhases,
  type DayRevenueRow,
  type DayRow,
  type ExperimentArmRow,
  type ExperimentDayRow,
  type ExperimentPhaseRows,
  type RevenueRow,
  type SegmentRow,
  type StratumRevenueRow,
  type StratumRow,
  splitRowsAsExperimentRows,
} from './phase-rows';
import { type RevenueEvent, revenueEventClaim, revenueEventStatements } from './revenue-events';
import {
  routeStepStatements,
  routeStepsStatement,
  stepsOfOutcomes,
  stepsOfPurchases,
} from './route-steps';
import {
  type SaveOfferEvent,
  type SaveOfferLifecycleEvent,
  type SaveOfferMoneyRow,
  type SaveOfferReasonRow,
  type SaveOfferRow,
  saveOfferEventClaim,
  saveOfferLifecycleStatements,
  saveOfferMoneyRowsStatement,
  saveOfferPhasesStatement,
  saveOfferReasonRowsStatement,
  saveOfferRowsStatement,
  saveOfferStatement,
} from './save-offer-statements';
import { SHARD_MIGRATIONS } from './shard-schema';
import {
  armRowsStatement,
  dayRevenueRowsStatement,
  dayRowsStatement,
  type ExperimentPurchase,
  exposureStatement,
  type FirstVisit,
  firstVisitStatement,
  outcomeStatements,
  phasesStatement,
  purchaseStatements,
  revenueRowsStatement,
  routeVisitsStatement,
  type Statement,
} from './split-statements';
import {
  boundedStrata,
  strataRevenueRowsStatement,
  strataRowsStatement,
} from './strata-statements';
import {
  type DayVitalsRow,
  dayVitalsRowsStatement,
  type VitalsRow,
  type VitalsSample,
  vitalsRowsStatement,
  vitalsStatements,
} from './vitals-statements';

/** A shard's part of the console's route visits (route-visits.ts). */
interface ShardRouteVisits {
  visits: { route: string; visits: number }[];
  steps: { route: string; step: RouteStep; reached: number }[];
}

/** How often the alarm looks for visitor rows past VISITOR_ROWS_KEPT_MS: rows go 13 months to 13 months and a week after. */
const RETENTION_EVERY_MS = 7 * 24 * 60 * 60 * 1000;
/** Visitors deleted per statement, so one alarm never holds the shard for long. */
const RETENTION_CHUNK = 1000;

/**
 * One shard of the experiments' rows (worker/experiments/assignment/assign.ts decides whose): every
 * experiment's tables (every-experiment-schema.ts, the split's new visitors included), and the
 * split's own tables, the schema of EVENTS_DB's, written and read with the same statements
 * (split-statements.ts) for the visitors already in them. Each write is one transaction, visitor rows and the
 * totals their triggers keep together; the results read the totals of every shard and add them.
 */
export class ExperimentShard extends DurableObject {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    // Nothing is served before the schema is up to date.
    ctx.blockConcurrencyWhile(async () => runSqliteMigrations(ctx.storage, SHARD_MIGRATIONS));
  }

  /** The statements in one transaction: all of them, or none on a failure. */
  private run(statements: readonly Statement[]): void {
    const sql = this.ctx.storage.sql;
    this.ctx.storage.transactionSync(() => {
      for (const { sql: text, params } of statements) sql.exec(text, ...params);
    });
  }

  private rows<Row>(statement: Statement): Row[] {
    return this.ctx.storage.sql.exec(statement.sql, ...statement.params).toArray() as Row[];
  }

  /**
   * A visitor exposed once stays on the day they were first exposed, and a day of counts by
   * route for as long: the alarm finds them.
   */
  private async keepRetentionScheduled(): Promise<void> {
    if ((await this.ctx.storage.getAlarm()) === null) {
      await this.ctx.storage.setAlarm(Date.now() + RETENTION_EVERY_MS);
    }
  }

  /**
   * The exposures, and the first visits of the same request's visitors (route_days), in one
   * transaction: a new visitor exposed on their first page costs one request to their shard for
   * both, not two (worker/middleware/exposure.ts).
   */
  async recordExposures(
    exposures: readonly Exposure[],
    firstVisits: readonly FirstVisit[] = [],
  ): Promise<void> {
    const statements = [
      ...(exposures.length > 0 ? [exposureStatement(exposures)] : []),
      ...(firstVisits.length > 0 ? [firstVisitStatement(firstVisits)] : []),
      ...funnelVisitStatements(firstVisits),
    ];
    if (statements.length === 0) return;
    this.run(statements);
    await this.keepRetentionScheduled();
  }

  /**
   * A visitor's exposures to every experiment a page exposed them to, and their first visit
   * (route_days), in one transaction: one request to their shard for all of them
   * (worker/middleware/exposure.ts).
   */
  async recordExperimentExposures(
    exposures: readonly ExperimentExposure[],
    firstVisits: readonly FirstVisit[] = [],
    answers: readonly GivenAnswer[] = [],
  ): Promise<void> {
    const statements = [
      ...(exposures.length > 0 ? experimentExposureStatements(exposures) : []),
      // After the exposures: an answer is kept for a visitor this shard holds an exposure of.
      ...answerStatements(answers),
      ...(firstVisits.length > 0 ? [firstVisitStatement(firstVisits)] : []),
      ...funnelVisitStatements(firstVisits),
    ];
    if (statements.length === 0) return;
    this.run(statements);
    await this.keepRetentionScheduled();
  }

  /**
   * Each visitor's exposures their page's script confirmed, up to its `until`
   * (confirmation-statements.ts), in one transaction: how many pending rows it moved, 0 for a
   * ticket sent again.
   */
  async confirmExposures(confirmations: readonly Confirmation[]): Promise<number> {
    if (confirmations.length === 0) return 0;
    const list = confirmationList(confirmations);
    const moved = this.ctx.storage.transactionSync(() => {
      const [count] = this.rows<{ covered: number }>(coveredCountStatement(list));
      for (const { sql: text, params } of confirmationStatements(list)) {
        this.ctx.storage.sql.exec(text, ...params);
      }
      return count?.covered ?? 0;
    });
    await this.keepRetentionScheduled();
    return moved;
  }

  /**
   * A page's draws left out of the exposures (a known bot's, or over its address's budget), in
   * every experiment the page drew them into, counted apart under `reason`.
   */
  async recordLeftOutExposures(arms: readonly ExperimentArm[], reason: LeftOut): Promise<void> {
    if (arms.length > 0) this.run([experimentLeftOutStatement(arms, reason)]);
  }

  /**
   * In every experiment's rows, and in the split's own for its visitors there; and the steps
   * they mark on the visitors' routes (route-steps.ts), in the same transaction.
   */
  async recordOutcomes(outcomes: readonly Outcome[]): Promise<void> {
    const steps = routeStepStatements(stepsOfOutcomes(outcomes));
    this.run([
      ...outcomeStatements(outcomes),
      ...experimentOutcomeStatements(outcomes),
      ...declineStatements(outcomes),
      ...steps,
      ...funnelOutcomeStatements(outcomes),
    ]);
    if (steps.length > 0) await this.keepRetentionScheduled();
  }

  /**
   * In every experiment's rows, and in the split's own for its visitors there; and a main plan's
   * buyer as reaching the upsell on their route (route-steps.ts), in the same transaction.
   */
  async recordPurchases(purchases: readonly ExperimentPurchase[]): Promise<void> {
    const steps = routeStepStatements(stepsOfPurchases(purchases));
    this.run([
      ...purchaseStatements(purchases),
      ...experimentPurchaseStatements(purchases),
      ...steps,
      ...funnelPurchaseStatements(purchases),
    ]);
    if (steps.length > 0) await this.keepRetentionScheduled();
  }

  /** The errors the visitors of this shard met (error-statements.ts), in one transaction. */
  async recordErrors(errors: readonly VisitorError[]): Promise<void> {
    this.run(errorStatements(errors));
  }

  /** The quiz answers of this shard's exposed visitors (answer-statements.ts), in one transaction. */
  async recordAnswers(answers: readonly GivenAnswer[]): Promise<void> {
    this.run(answerStatements(answers));
    await this.keepRetentionScheduled();
  }

  /** The field vitals of the visitors of this shard (vitals-statements.ts), in one transaction. */
  async recordVitals(samples: readonly VitalsSample[]): Promise<void> {
    this.run(vitalsStatements(samples));
  }

  /**
   * The product API's lifecycle events (worker/lifecycle/), each counted once by its id, in
   * every experiment the buyer was exposed to at or before it; an event of a buyer exposed to
   * none changes nothing. One transaction: a failure leaves every event to be sent again.
   */
  async recordRevenueEvents(events: readonly RevenueEvent[]): Promise<void> {
    const sql = this.ctx.storage.sql;
    const exec = ({ sql: text, params }: Statement) => sql.exec(text, ...params);
    this.ctx.storage.transactionSync(() => {
      for (const event of events) {
        if (exec(revenueEventClaim(event)).rowsWritten === 0) continue;
        for (const statement of revenueEventStatements(event)) exec(statement);
        for (const statement of lifecycleStatements(event)) exec(statement);
      }
    });
  }

  /**
   * A save offer test's outcomes of the subscriptions of this shard (save-offer-statements.ts),
   * each once per subscription, in one transaction. Answers, event by event, whether it counted:
   * false for an outcome counted before (a reload) or of a subscription never shown the offer.
   */
  async recordSaveOffers(events: readonly SaveOfferEvent[]): Promise<boolean[]> {
    if (events.length === 0) return [];
    const sql = this.ctx.storage.sql;
    const counted = this.ctx.storage.transactionSync(() =>
      events.map((event) => {
        const { sql: text, params } = saveOfferStatement(event);
        return sql.exec(text, ...params).rowsWritten > 0;
      }),
    );
    await this.keepRetentionScheduled();
    return counted;
  }

  /**
   * Lifecycle events of this shard's subscriptions, as their save offer tests count them
   * (save-offer-statements.ts): each event once, in one transaction; an event of a subscription
   * never shown an offer writes nothing.
   */
  async recordSaveOfferEvents(events: readonly SaveOfferLifecycleEvent[]): Promise<void> {
    const sql = this.ctx.storage.sql;
    const exec = ({ sql: text, params }: Statement) => sql.exec(text, ...params);
    this.ctx.storage.transactionSync(() => {
      for (const event of events) {
        if (exec(saveOfferEventClaim(event)).rowsWritten === 0) continue;
        for (const statement of saveOfferLifecycleStatements(event)) exec(statement);
      }
    });
  }

  /** This shard's part of a phase's totals, histograms and counts by day, and its phases. */
  async results(phase: number): Promise<StoreResults> {
    return {
      rows: {
        arms: this.rows<ArmRow>(armRowsStatement(phase)),
        revenue: this.rows<RevenueRow>(revenueRowsStatement(phase)),
        days: this.rows<DayRow>(dayRowsStatement(phase)),
        dayRevenue: this.rows<DayRevenueRow>(dayRevenueRowsStatement(phase)),
      },
      phases: this.rows<{ phase: number }>(phasesStatement()).map((row) => row.phase),
    };
  }

  /**
   * This shard's part of one experiment's phase, and the phases it saw exposures in. For the
   * split, its own tables' part too (visitors exposed before every experiment was counted).
   * `segments`: one dimension's rows, every dimension's (null), or none.
   */
  async experimentRows(
    experiment: string,
    phase: number,
    segments: SegmentDimension | null | 'none' = null,
  ): Promise<{ rows: ExperimentPhaseRows; phases: number[] }> {
    const rows: ExperimentPhaseRows = {
      arms: this.rows<ExperimentArmRow>(experimentArmRowsStatement(experiment, phase)),
      revenue: this.rows<RevenueRow>(histogramRowsStatement('xp_revenue', experiment, phase)),
      days: this.rows<ExperimentDayRow>(experimentDayRowsStatement(experiment, phase)),
      dayRevenue: this.rows<DayRevenueRow>(
        histogramRowsStatement('xp_day_revenue', experiment, phase),
      ),
      netRevenue: this.rows<RevenueRow>(
        histogramRowsStatement('xp_net_revenue', experiment, phase),
      ),
      dayNetRevenue: this.rows<DayRevenueRow>(
        histogramRowsStatement('xp_day_net_revenue', experiment, phase),
      ),
      segments: this.segmentRows(experiment, phase, segments),
      vitals: this.rows<VitalsRow>(vitalsRowsStatement(experiment, phase)),
      dayVitals: this.rows<DayVitalsRow>(dayVitalsRowsStatement(experiment, phase)),
      declines: this.rows<DeclineRow>(declineRowsStatement(experiment, phase)),
      errors: this.rows<ErrorRow>(errorRowsStatement(experiment, phase)),
      lifecycle: this.rows<LifecycleRow>(lifecycleRowsStatement(experiment, phase)),
      recovered: this.rows<RecoveredRow>(recoveredRowsStatement(experiment, phase)),
      saveOffers: this.rows<SaveOfferRow>(saveOfferRowsStatement(experiment, phase)),
      saveOfferReasons: this.rows<SaveOfferReasonRow>(
        saveOfferReasonRowsStatement(experiment, phase),
      ),
      saveOfferMoney: this.rows<SaveOfferMoneyRow>(saveOfferMoneyRowsStatement(experiment, phase)),
      ...boundedStrata(
        this.rows<StratumRow>(strataRowsStatement(experiment, phase)),
        this.rows<StratumRevenueRow>(strataRevenueRowsStatement(experiment, phase)),
      ),
    };
    const phases = this.experimentPhasesHere(experiment);
    if (experiment !== SPLIT_EXPERIMENT_ID) return { rows, phases };
    const own = await this.results(phase);
    return {
      rows: addExperimentPhaseRows([rows, splitRowsAsExperimentRows(own.rows)]),
      phases: addPhases([phases, own.phases]),
    };
  }

  /** One dimension's segment rows (a quiz question's by its answers), every dimension's, or none. */
  private segmentRows(
    experiment: string,
    phase: number,
    segments: SegmentDimension | null | 'none',
  ): SegmentRow[] {
    if (segments === 'none') return [];
    const key = segments === null ? null : answerKeyOfName(segments);
    return this.rows<SegmentRow>(
      key === null
        ? segmentRowsStatement(experiment, phase, segments)
        : answerSegmentRowsStatement(experiment, phase, key),
    );
  }

  /** The phases this shard saw exposures to the experiment in, newest first. */
  async experimentPhases(experiment: string): Promise<number[]> {
    return this.experimentPhasesHere(experiment);
  }

  private experimentPhasesHere(experiment: string): number[] {
    const exposed = this.rows<{ phase: number }>(experimentPhasesStatement(experiment));
    // A save offer test counts subscriptions shown its offer, not exposed visitors.
    const shown = this.rows<{ phase: number }>(saveOfferPhasesStatement(experiment));
    const phases = addPhases([exposed, shown].map((rows) => rows.map((row) => row.phase)));
    if (experiment !== SPLIT_EXPERIMENT_ID) return phases;
    const own = this.rows<{ phase: number }>(phasesStatement()).map((row) => row.phase);
    return addPhases([phases, own]);
  }

  /**
   * This shard's first visits by route (route_days) and steps reached by route
   * (route_step_days) from day `from` to day `to`: one request for both.
   */
  async routeVisits(from: string, to: string): Promise<ShardRouteVisits> {
    return {
      visits: this.rows(routeVisitsStatement(from, to)),
      steps: this.rows(routeStepsStatement(from, to)),
    };
  }

  /**
   * This shard's funnel by day, route, source and campaign from day `from` to day `to`
   * (funnel-statements.ts): one request for the counts and the revenue.
   */
  async funnelDays(
    from: string,
    to: string,
  ): Promise<{ days: FunnelDayRow[]; revenue: FunnelRevenueRow[] }> {
    return {
      days: this.rows(funnelDaysStatement(from, to)),
      revenue: this.rows(funnelRevenueStatement(from, to)),
    };
  }

  /** Bytes of the shard's SQLite database, for the storage figures (write-rate.test.ts). */
  async databaseSize(): Promise<number> {
    return this.ctx.storage.sql.databaseSize;
  }

  /**
   * As the alarm does for the split's own rows: every experiment's exposures over
   * VISITOR_ROWS_KEPT_MS old, with their purchases and revenue (one visitor's rows in one
   * experiment go together), a chunk at a time; and the lifecycle event ids as old, whose
   * events could no longer find an exposure. Triggers fire on no delete: the totals stay.
   */
  private deleteOldExperimentRows(before: number): void {
    const sql = this.ctx.storage.sql;
    const old = `SELECT visitor_id, experiment FROM xp_exposures WHERE exposed_at < ?1
      LIMIT ${RETENTION_CHUNK}`;
    let deleted: number;
    do {
      deleted = 0;
      this.ctx.storage.transactionSync(() => {
        sql.exec(
          `DELETE FROM xp_purchases WHERE (visitor_id, experiment) IN (SELECT * FROM (${old}))`,
          before,
        );
        sql.exec(
          `DELETE FROM xp_money WHERE (visitor_id, experiment) IN (SELECT * FROM (${old}))`,
          before,
        );
        deleted = sql.exec(
          `DELETE FROM xp_exposures WHERE (visitor_id, experiment) IN (${old})`,
          before,
        ).rowsWritten;
      });
    } while (deleted >= RETENTION_CHUNK);
    sql.exec('DELETE FROM xp_revenue_events WHERE at < ?1', before);
    // A save offer test's subscriptions, as old as the visitors (a few per day: one statement).
    sql.exec(
      `DELETE FROM xp_save_offer_money WHERE (experiment, subscription_id) IN
        (SELECT experiment, subscription_id FROM xp_save_offers WHERE shown_at < ?1)`,
      before,
    );
    sql.exec('DELETE FROM xp_save_offers WHERE shown_at < ?1', before);
  }

  /** The quiz answers last given over ANSWERS_KEPT_MS ago, a chunk at a time (their counts stay). */
  private deleteOldAnswers(now: number): void {
    const { sql: text, params } = answersPruneStatement(now - ANSWERS_KEPT_MS, RETENTION_CHUNK);
    let deleted: number;
    do {
      deleted = this.ctx.storage.sql.exec(text, ...params).rowsWritten;
    } while (deleted >= RETENTION_CHUNK);
  }

  /**
   * The funnel's visitors past FUNNEL_VISITORS_KEPT_MS, a chunk at a time (their days' counts
   * stay), and its days past FUNNEL_DAYS_KEPT_DAYS.
   */
  private deleteOldFunnelRows(now: number): void {
    const sql = this.ctx.storage.sql;
    let deleted: number;
    do {
      deleted = this.ctx.storage.transactionSync(() =>
        funnelVisitorsPruneStatements(now - FUNNEL_VISITORS_KEPT_MS, RETENTION_CHUNK).reduce(
          (_, { sql: text, params }) => sql.exec(text, ...params).rowsWritten,
          0,
        ),
      );
    } while (deleted >= RETENTION_CHUNK);
    this.run(funnelDaysPruneStatements(now));
  }

  /**
   * Deletes the rows of visitors first exposed over VISITOR_ROWS_KEPT_MS ago, their purchases
   * with them (a purchase's trigger reads the visitor's earlier ones, so they go together), a
   * chunk at a time, then looks again in a week (each look reads the whole shard once: no index on the exposure time,
   * which would cost every visitor about 40 bytes more). The days of first visits by route go
   * after as long, and the days of steps by route with them: a few rows a route and day, so one
   * statement each, by their key's `day`. Exposures never confirmed, and the confirmations, go
   * after a day (confirmation-statements.ts).
   */
  override async alarm(): Promise<void> {
    const before = Date.now() - VISITOR_ROWS_KEPT_MS;
    const sql = this.ctx.storage.sql;
    sql.exec("DELETE FROM route_days WHERE day < date(?1 / 1000, 'unixepoch')", before);
    sql.exec("DELETE FROM route_step_days WHERE day < date(?1 / 1000, 'unixepoch')", before);
    const old = `SELECT visitor_id FROM exposures WHERE exposed_at < ?1 LIMIT ${RETENTION_CHUNK}`;
    let deleted: number;
    do {
      deleted = 0;
      this.ctx.storage.transactionSync(() => {
        sql.exec(
          `DELETE FROM experiment_purchases WHERE visitor_id IN (SELECT visitor_id FROM (${old}))`,
          before,
        );
        deleted = sql.exec(
          `DELETE FROM exposures WHERE visitor_id IN (${old})`,
          before,
        ).rowsWritten;
      });
    } while (deleted >= RETENTION_CHUNK);
    this.deleteOldExperimentRows(before);
    this.deleteOldFunnelRows(Date.now());
    this.deleteOldAnswers(Date.now());
    this.run(pendingPruneStatements(Date.now() - PENDING_KEPT_MS));
    await this.ctx.storage.setAlarm(Date.now() + RETENTION_EVERY_MS);
  }
}
