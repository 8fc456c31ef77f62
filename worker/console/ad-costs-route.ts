import { type Handler, Hono } from 'hono';
import {
  type AdCostsAnswer,
  type AdCostsChecked,
  type AdCostsImportedAnswer,
  type AdCostsInvalidAnswer,
  adCostKey,
  adCostsBody,
  adCostsQuery,
  checkAdCosts,
  readAdCostsCsv,
} from '../../shared/console-api/ad-costs';
import type { Currency } from '../../shared/plans/currency';
import { decimalString } from '../../shared/plans/money';
import { deleteAdCost, readAdCosts, writeAdCosts } from '../ad-costs/ad-costs';
import { reportedRevenue } from '../experiments/results/reporting-currency';
import { isJsonRequest, readJsonBody } from '../http/api-json';
import { consoleError } from '../http/console-errors';
import type { RateRule } from '../rate-limits/rate-limiter';
import type { ConsoleEnv } from '../request/envs';
import { writesPerAuthor } from './author-writes';

/**
 * Imports and deletes per person or token: a team uploads a file a day per network, a script
 * calls once a day per network; a loop re-importing without end is stopped here.
 */
const AD_COST_WRITES_PER_AUTHOR: RateRule & { name: string } = {
  name: 'console_ad_cost_writes_per_author',
  limit: 120,
  windowMs: 60 * 60_000,
};

/** The UTC day of `now`, against which an import's days are checked. */
const todayOf = (now: number) => new Date(now).toISOString().slice(0, 10);

/**
 * CONSOLE_API.adCosts (shared/console-api/ad-costs.ts): POST a CSV file or `{ rows }`, GET a range
 * of days, DELETE one row. The console's guard took the body's type and size
 * (worker/request/console-guard.ts); a token needs `traffic` to write (worker/access/token-scopes.ts).
 */
export function adCostsRoutes(options: { now: () => number }) {
  const routes = new Hono<ConsoleEnv>();
  routes.use('*', writesPerAuthor(AD_COST_WRITES_PER_AUTHOR));
  routes.get('/', readCosts);
  routes.post('/', importCosts(options.now));
  routes.delete('/', async (c) => {
    const key = adCostKey.safeParse(c.req.query());
    if (!key.success) return consoleError(c, 400, 'bad_request');
    if (!(await deleteAdCost(c.env.CONFIG_DB, key.data))) {
      return consoleError(c, 404, 'unknown_ad_cost');
    }
    return c.json({ ok: true });
  });
  return routes;
}

/** The rows of the days asked, each also in the reporting currency at the table's fixed rates. */
const readCosts: Handler<ConsoleEnv> = async function readCosts(c) {
  const query = adCostsQuery.safeParse(c.req.query());
  if (!query.success) return consoleError(c, 400, 'bad_request');
  const { from, to } = query.data;
  const rows = await readAdCosts(c.env.CONFIG_DB, from, to);
  // The currency and date every row is reported at, with no amount of its own.
  const reported = reportedRevenue({});
  const answer: AdCostsAnswer = {
    ok: true,
    from,
    to,
    reportingCurrency: reported.currency,
    ratesDate: reported.ratesDate,
    rows: rows.map((row) => {
      const inReporting = reportedRevenue({ [row.currency]: row.amountMinor });
      return {
        ...row,
        // Any ISO 4217 code: decimalString reads its minor digits from Intl.
        amount: decimalString(row.amountMinor, row.currency as Currency),
        reportingMinor: inReporting.unconverted.length > 0 ? null : inReporting.minor,
      };
    }),
  };
  return c.json(answer);
};

/** The import's rows from its body: a CSV file, or the API's JSON. Undefined: neither. */
async function checkedBody(request: Request, today: string): Promise<AdCostsChecked | undefined> {
  if (!isJsonRequest(request)) return readAdCostsCsv(await request.text(), today);
  const body = adCostsBody.safeParse(await readJsonBody(request));
  return body.success ? checkAdCosts(body.data.rows, { today }) : undefined;
}

function importCosts(now: () => number): Handler<ConsoleEnv> {
  return async function importCostsHandler(c) {
    const checked = await checkedBody(c.req.raw, todayOf(now()));
    if (checked === undefined) return consoleError(c, 400, 'bad_request');
    if (!checked.ok) {
      c.get('logFields').error = 'invalid_ad_costs';
      const answer: AdCostsInvalidAnswer = {
        ok: false,
        error: 'invalid_ad_costs',
        errors: checked.errors,
        more: checked.more,
      };
      return c.json(answer, 400);
    }
    const written = await writeAdCosts(
      c.env.CONFIG_DB,
      checked.rows,
      c.get('consoleAuthor'),
      now(),
    );
    c.get('logFields').ad_costs = written.imported;
    return c.json({ ok: true, ...written } satisfies AdCostsImportedAnswer);
  };
}
