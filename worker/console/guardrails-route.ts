import type { Handler } from 'hono';
import type { GuardrailsCheckAnswer } from '../../shared/console-api/alerts';
import { logLine } from '../../shared/log';
import { runCheck } from '../alerts/check-run';
import { experimentResultsReader } from '../alerts/results-reader';
import { createConfigSource } from '../config/load';
import { rehearsesGuardrails } from '../environment';
import { consoleError } from '../http/console-errors';
import { refusedFor } from '../pictures/limits';
import type { RateRule } from '../rate-limits/rate-limiter';
import type { ConsoleEnv } from '../request/envs';

/**
 * Checks on demand per author: a marketer rehearsing a rollback presses it a few times a
 * minute at most; a runaway script would have every experiment's results read each time.
 */
export const GUARDRAIL_CHECKS_PER_AUTHOR: RateRule & { name: string } = {
  name: 'console_guardrail_check_per_author',
  limit: 6,
  windowMs: 60_000,
};

/** The live config as the cron reads it, without the pages' cache. */
const configSource = createConfigSource();

/**
 * POST /console/api/guardrails/check (CONSOLE_GUARDRAILS_CHECK_PATH): the 15-minute check run
 * now (worker/alerts/check-run.ts), as the cron runs it: the guarded ramps' moves, then the
 * alerts, each claimed once however often it is pressed. Development and staging only: 404
 * unknown_route in production, where only the cron runs it; 429 past GUARDRAIL_CHECKS_PER_AUTHOR.
 */
export function checkGuardrailsNow(now: () => number): Handler<ConsoleEnv> {
  return async function checkGuardrailsNowHandler(c) {
    if (!rehearsesGuardrails(c.env)) return consoleError(c, 404, 'unknown_route');
    const author = c.get('consoleAuthor');
    const wait = await refusedFor(c.env.RATE_LIMITER, GUARDRAIL_CHECKS_PER_AUTHOR, author);
    if (wait !== null) {
      c.header('Retry-After', String(wait));
      return consoleError(c, 429, 'rate_limited');
    }
    const config = await configSource.load(c.env.FUNNEL_CONFIG, 0);
    const run = { now: now(), readResults: experimentResultsReader(c.env) };
    const { ramps, alerts } = await runCheck(c.env, config, run);
    logLine({ event: 'guardrails_checked', author, moved: ramps?.moved ?? null, ...alerts });
    return c.json({
      rampMoves: ramps?.moved ?? null,
      // The ramps' alerts (a rollback's, a hold's) are claimed by their own run.
      raised: alerts.claimed + (ramps?.alerts ?? 0),
      sent: alerts.sent,
    } satisfies GuardrailsCheckAnswer);
  };
}
