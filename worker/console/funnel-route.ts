import { Hono } from 'hono';
import { funnelReportQuery } from '../../shared/console-api/request-schemas';
import { describeError, logError } from '../../shared/log';
import { readAdCosts } from '../ad-costs/ad-costs';
import { funnelCsv, funnelReport, readFunnelParts } from '../experiments/answer/funnel-report';
import { experimentStores } from '../experiments/store/experiment-stores';
import { consoleError } from '../http/console-errors';
import type { ConsoleEnv } from '../request/envs';

/**
 * GET /console/api/funnel (CONSOLE_FUNNEL_PATH), mounted in the console's app behind its Access
 * check and its `Cache-Control: no-store`: the funnel by route, source and campaign over the
 * days asked, with the imported ad costs set against each campaign (FunnelReportAnswer), or the
 * same as a CSV download (`format=csv`).
 */
export function funnelRoutes() {
  const routes = new Hono<ConsoleEnv>();

  // As the results: a failed store is the contract's 503 config_store_failed, and the log line
  // says which read failed.
  routes.onError((error, c) => {
    logError('funnel_report_failed', { path: c.req.path, detail: describeError(error) });
    return consoleError(c, 503, 'config_store_failed');
  });

  routes.get('/', async (c) => {
    const parsed = funnelReportQuery.safeParse(c.req.query());
    if (!parsed.success) return consoleError(c, 400, 'bad_request');
    const { from, to, route = null, format, table } = parsed.data;
    const [parts, spent] = await Promise.all([
      readFunnelParts(experimentStores(c.env), from, to),
      readAdCosts(c.env.CONFIG_DB, from, to),
    ]);
    const report = funnelReport(parts, spent, { from, to, route });
    if (format === 'csv') {
      c.header('Content-Type', 'text/csv; charset=utf-8');
      c.header('Content-Disposition', `attachment; filename="funnel-${table}-${from}-${to}.csv"`);
      return c.body(funnelCsv(report, table));
    }
    return c.json(report);
  });

  return routes;
}
