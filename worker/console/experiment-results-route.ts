import { Hono } from 'hono';
import {
  isSegmentDimension,
  type SegmentDimension,
} from '../../shared/console-api/experiment-results';
import { describeError, logError } from '../../shared/log';
import { experimentResults } from '../experiments/answer/experiment-results';
import { resultsCsv, segmentCsv } from '../experiments/answer/results-csv';
import { isResultsId } from '../experiments/ramps/route-ramp';
import { consoleError } from '../http/console-errors';
import type { ConsoleEnv } from '../request/envs';

/**
 * GET /console/api/experiments/{id}/results (CONSOLE_EXPERIMENTS_PATH), mounted in the console's
 * app behind its Access check and its `Cache-Control: no-store`: one experiment's results in its
 * live phase, `?phase=N` an earlier one, `?segment=country` with a segment's view, `?format=csv`
 * the same numbers as a CSV download.
 */

/** A phase as written in a query: a positive whole number, no sign, no leading zero. */
const PHASE = /^[1-9][0-9]{0,8}$/;

interface ResultsQuery {
  phase: number | undefined;
  segment: SegmentDimension | undefined;
  format: 'json' | 'csv';
}

/** The query, or null when it is not one this route answers. */
function parseQuery(query: Record<string, string>): ResultsQuery | null {
  const { phase, segment, format, ...rest } = query;
  if (Object.keys(rest).length > 0) return null;
  if (phase !== undefined && !PHASE.test(phase)) return null;
  if (segment !== undefined && !isSegmentDimension(segment)) return null;
  if (format !== undefined && format !== 'json' && format !== 'csv') return null;
  return {
    phase: phase === undefined ? undefined : Number(phase),
    segment,
    format: format === 'csv' ? 'csv' : 'json',
  };
}

export function experimentResultsRoutes(options: { now: () => number }) {
  const routes = new Hono<ConsoleEnv>();

  routes.onError((error, c) => {
    logError('results_failed', { path: c.req.path, detail: describeError(error) });
    return consoleError(c, 503, 'config_store_failed');
  });

  routes.get('/:id/results', async (c) => {
    const id = c.req.param('id');
    if (!isResultsId(id)) return consoleError(c, 404, 'unknown_experiment');
    const query = parseQuery(c.req.query());
    if (query === null) return consoleError(c, 400, 'bad_request');
    const answer = await experimentResults(c.env, c.get('config'), id, {
      ...(query.phase === undefined ? {} : { phase: query.phase }),
      ...(query.segment === undefined ? {} : { segment: query.segment }),
      now: options.now(),
    });
    if (answer === null) return consoleError(c, 404, 'unknown_experiment');
    if (query.format === 'csv') {
      c.header('Content-Type', 'text/csv; charset=utf-8');
      // A quiz segment's colon is no character of a file's name everywhere.
      const segment = answer.segment ? `-${answer.segment.dimension.replace(':', '-')}` : '';
      const name = `results-${id}-phase-${answer.phase}${segment}`;
      c.header('Content-Disposition', `attachment; filename="${name}.csv"`);
      return c.body(answer.segment ? segmentCsv(answer.phase, answer.segment) : resultsCsv(answer));
    }
    return c.json(answer);
  });

  return routes;
}
