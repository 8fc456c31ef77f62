import { type ExperimentDocument, parseExperiments } from '../../../shared/config/experiments';
import { parseSplit } from '../../../shared/config/split';
import type {
  ExperimentResultsAnswer,
  SegmentDimension,
} from '../../../shared/console-api/experiment-results';
import { SPLIT_EXPERIMENT_ID } from '../../../shared/experiments';
import { logError } from '../../../shared/log';
import type { FunnelConfig } from '../../config/load';
import type { Bindings } from '../../env';
import { experimentFromSplit } from '../config/migrate-split';
import { experimentTriggers } from '../config/triggers';
import { experimentDesign } from '../design/experiment-design';
import { routeVisitsBetween } from '../exposure/route-visits';
import { HOLDOUT_PIN } from '../holdout/holdout';
import { asRead, rampStatus } from '../ramps/ramp-status';
import { routeOfUnit } from '../ramps/route-ramp';
import { experimentStores, readExperimentRows } from '../store/experiment-stores';
import { buildExperimentResults } from './experiment-answer';
import { holdoutResults } from './holdout-results';
import { routeRampResults } from './route-ramp-results';

/**
 * One experiment's results as the console reads them (GET /console/api/experiments/{id}/results)
 * and the alerts watch them: its rows from every shard (experiment-stores.ts readExperimentRows), its design as
 * published for that phase, and its routes' first visits since it began for the reach. Null for
 * an experiment the config does not name. `holdout` is the holdout's (holdout-results.ts).
 */
export async function experimentResults(
  env: Bindings,
  config: FunnelConfig,
  id: string,
  options: { phase?: number; segment?: SegmentDimension; now?: number } = {},
): Promise<ExperimentResultsAnswer | null> {
  const now = options.now ?? Date.now();
  if (id === HOLDOUT_PIN) return holdoutResults(env, config, { now, segment: options.segment });
  const route = routeOfUnit(id);
  if (route !== null)
    return routeRampResults(env, config, route, { now, segment: options.segment });
  const live = experimentOf(config, id);
  if (live === null) return null;
  const livePhase = live.phase ?? 1;
  const phase = options.phase ?? livePhase;
  const stores = experimentStores(env);
  const [{ rows, phases }, recorded] = await Promise.all([
    // The segment rows are read only for the segment asked: most answers show none.
    readExperimentRows(stores, id, phase, options.segment ?? 'none'),
    phase === livePhase ? live : publishedAt(env.CONFIG_DB, id, phase),
  ]);
  // A phase no version names (published around the console and the CLI) is read with today's
  // design: the log says so, as the split's results do.
  if (recorded === null) logError('results_design_assumed', { experiment: id, phase });
  // A roll-out's phase on a ramp is its two bands (ramps/ramp-status.ts asRead).
  const experiment = asRead(recorded ?? live);
  const triggers = experimentTriggers(id, experiment, config);
  const design = experimentDesign(id, experiment, triggers);

  const firstExposure = rows.days.reduce(
    (first, row) => Math.min(first, row.first_exposed_at),
    Number.POSITIVE_INFINITY,
  );
  const since = experiment.startedAt ? Date.parse(experiment.startedAt) : firstExposure;
  const routeVisits = Number.isFinite(since)
    ? await targetedVisits(stores, [...triggers.keys()], since, now)
    : null;

  const answer = buildExperimentResults({
    design,
    rows,
    phase,
    phases,
    configVersion: config.version,
    now,
    routeVisits,
    ...(options.segment === undefined ? {} : { segment: options.segment }),
  });
  // A guarded ramp's state and guardrails, as the cron's engine reads them now (live phase only).
  const ramp = phase === livePhase ? rampStatus(live, answer, now) : null;
  return ramp === null ? answer : { ...answer, ramp };
}

/** The experiment as the config names it; the split is the experiment it became. */
function experimentOf(config: FunnelConfig, id: string): ExperimentDocument | null {
  if (id === SPLIT_EXPERIMENT_ID) return experimentFromSplit(config.split);
  return Object.hasOwn(config.experiments.experiments, id)
    ? config.experiments.experiments[id]!
    : null;
}

/**
 * The experiment as the newest published version of `phase` has it (every version of a phase
 * draws the same shares: worker/experiments/config/phases.ts), or null when no version does.
 */
async function publishedAt(
  db: D1Database,
  id: string,
  phase: number,
): Promise<ExperimentDocument | null> {
  if (id === SPLIT_EXPERIMENT_ID) {
    const row = await db
      .prepare('SELECT split_json FROM config_versions WHERE phase = ?1 ORDER BY seq DESC LIMIT 1')
      .bind(phase)
      .first<{ split_json: string }>();
    const parsed = row === null ? null : parseSplit(row.split_json);
    return parsed?.ok ? experimentFromSplit(parsed.value) : null;
  }
  const row = await db
    .prepare(
      `SELECT experiments_json FROM config_versions
       WHERE json_extract(experiments_json, '$.experiments.' || json_quote(?1) || '.phase') = ?2
       ORDER BY seq DESC LIMIT 1`,
    )
    .bind(id, phase)
    .first<{ experiments_json: string }>();
  if (row === null) return null;
  const parsed = parseExperiments(row.experiments_json);
  return parsed.ok ? (parsed.value.experiments[id] ?? null) : null;
}

/** First visits on `routes` from the UTC day of `since` to that of `now`. */
async function targetedVisits(
  stores: ReturnType<typeof experimentStores>,
  routes: readonly string[],
  since: number,
  now: number,
): Promise<number> {
  const visits = await routeVisitsBetween(stores, since, now);
  return routes.reduce((sum, route) => sum + (visits.visits[route] ?? 0), 0);
}
