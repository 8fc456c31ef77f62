import { Hono } from 'hono';
import { parseSplit, type SplitDocument } from '../../shared/config/split';
import type { ResultsAnswer } from '../../shared/console-api/results';
import { describeError, logError } from '../../shared/log';
import { resultsCsv } from '../experiments/answer/results-csv';
import { experimentDays } from '../experiments/results/experiment-days';
import { assumedDesign, buildResults, designOf } from '../experiments/results/split-answer';
import { experimentTotals } from '../experiments/results/totals';
import { experimentStores, readResults } from '../experiments/store/experiment-stores';
import { consoleError } from '../http/console-errors';
import type { ConsoleEnv } from '../request/envs';

/**
 * GET /console/api/results (CONSOLE_RESULTS_PATH), mounted at `/api/results` in the console's
 * app, behind its Access check and its `Cache-Control: no-store`: the results of the live
 * phase, `?phase=N` an earlier one, `?format=csv` the same numbers as a CSV download.
 */

/** A phase as written in a query: a positive whole number, no sign, no leading zero. */
const PHASE = /^[1-9][0-9]{0,8}$/;

interface ResultsQuery {
  phase: number | undefined;
  format: 'json' | 'csv';
}

/** The query, or null when it is not one this route answers. */
function parseQuery(phase: string | undefined, format: string | undefined): ResultsQuery | null {
  if (phase !== undefined && !PHASE.test(phase)) return null;
  if (format !== undefined && format !== 'json' && format !== 'csv') return null;
  return { phase: phase === undefined ? undefined : Number(phase), format: format ?? 'json' };
}

/**
 * The split of the newest published version of `phase` in the config history (every version of
 * a phase draws the same shares; worker/experiments/config/phases.ts), or null when none is of that
 * phase. It reads only the version's split, not the whole row worker/config/versions.ts reads.
 */
async function splitOfPhase(db: D1Database, phase: number): Promise<SplitDocument | null> {
  const row = await db
    .prepare('SELECT split_json FROM config_versions WHERE phase = ?1 ORDER BY seq DESC LIMIT 1')
    .bind(phase)
    .first<{ split_json: string }>();
  if (row === null) return null;
  const parsed = parseSplit(row.split_json);
  return parsed.ok ? parsed.value : null;
}

export function resultsRoutes() {
  const routes = new Hono<ConsoleEnv>();

  // The console answers a failed store 503 config_store_failed, the one code its contract has
  // for it; the log line says it was the results that failed.
  routes.onError((error, c) => {
    logError('results_failed', { path: c.req.path, detail: describeError(error) });
    return consoleError(c, 503, 'config_store_failed');
  });

  routes.get('/', async (c) => {
    const query = parseQuery(c.req.query('phase'), c.req.query('format'));
    if (query === null) return consoleError(c, 400, 'bad_request');
    const { split: live, version } = c.get('config');
    const livePhase = live.phase ?? 1;
    const phase = query.phase ?? livePhase;
    const [{ rows, phases }, recorded] = await Promise.all([
      readResults(experimentStores(c.env), phase),
      phase === livePhase ? live : splitOfPhase(c.env.CONFIG_DB, phase),
    ]);
    const totals = experimentTotals(phase, rows);
    const days = experimentDays(rows);
    const seen = totals.arms.filter((arm) => arm.exposed > 0).map((arm) => arm.variant);
    const design = recorded === null ? assumedDesign(live, seen) : designOf(recorded);
    // The answer has no field saying the shares were assumed: the log line and docs/statistics.md do.
    const fields = c.get('logFields');
    if (recorded === null && fields) fields.results_shares = 'assumed_equal';
    const answer: ResultsAnswer = buildResults({
      phase,
      phases,
      configVersion: version,
      design,
      totals,
      days,
    });

    if (query.format === 'csv') {
      c.header('Content-Type', 'text/csv; charset=utf-8');
      c.header('Content-Disposition', `attachment; filename="results-phase-${phase}.csv"`);
      return c.body(resultsCsv(answer));
    }
    return c.json(answer);
  });

  return routes;
}
