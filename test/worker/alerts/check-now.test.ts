import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import {
  type AlertsAnswer,
  CONSOLE_ALERTS_PATH,
  CONSOLE_GUARDRAILS_CHECK_PATH,
} from '../../../shared/console-api/alerts';
import { CONSOLE_API, type ConsoleState } from '../../../shared/console-api/config';
import { GUARDRAIL_CHECKS_PER_AUTHOR } from '../../../worker/console/guardrails-route';
import { priceExperiment } from '../../fixtures/experiment-results-answer';
import { freshApp } from '../fetch-app';
import { consolePost, webhookAndLogs } from './alerts-fixtures';

/**
 * "Check the guardrails now" (/console/api/guardrails/check): the 15-minute check run on demand,
 * as the cron runs it, where a marketer rehearses a ramp's rollback (development and staging;
 * production's refusal is in ../console/production-access.test.ts), only from the console's
 * page, a few times a minute per person.
 */

const hook = webhookAndLogs();
const DAY = 24 * 60 * 60 * 1000;

/** The console in `environment`, as `email`. */
function consoleIn(environment: string) {
  const fetchApp = freshApp({}, { ENVIRONMENT: environment });
  return {
    check: (email: string, headers: Record<string, string> = {}) =>
      consolePost(fetchApp, CONSOLE_GUARDRAILS_CHECK_PATH, email, {}, headers),
    get: async <T>(path: string) => (await fetchApp(path)).json() as Promise<T>,
  };
}

describe('checking the guardrails now', () => {
  it('runs the check in development: a test that exposed no one in two days is raised, once', async () => {
    const startedAt = new Date(Date.now() - 2 * DAY).toISOString();
    await env.FUNNEL_CONFIG.put(
      'experiments',
      JSON.stringify({
        version: 'silent',
        experiments: {
          'pw-us': priceExperiment({
            audience: { routes: ['default'] },
            phase: 1,
            startedAt,
            variants: {
              control: { weight: 1, change: {} },
              cheap: { weight: 1, change: { plans: ['monthly_3d_intro'] } },
            },
          }),
        },
      }),
    );
    const development = consoleIn('development');
    const state = await development.get<ConsoleState>(CONSOLE_API.state);
    expect(state.rehearsal).toBe(true);
    const first = await development.check('ada@example.com');
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ rampMoves: 0, raised: 1, sent: 0 });
    expect(hook.coded('guardrails_checked')).toEqual([
      expect.objectContaining({ author: 'ada@example.com', moved: 0, claimed: 1 }),
    ]);
    const again = await development.check('ada@example.com');
    expect(await again.json()).toEqual({ rampMoves: 0, raised: 0, sent: 0 });
    const inbox = await development.get<AlertsAnswer>(CONSOLE_ALERTS_PATH);
    expect(inbox.alerts.map((alert) => [alert.kind, alert.experiment])).toEqual([
      ['no_exposures', 'pw-us'],
    ]);
  });

  it('refuses another site, and a burst past its limit', async () => {
    const development = consoleIn('development');
    const crossSite = await development.check('mallory@example.com', {
      'Sec-Fetch-Site': 'cross-site',
    });
    expect(crossSite.status).toBe(403);
    const statuses: number[] = [];
    for (let n = 0; n <= GUARDRAIL_CHECKS_PER_AUTHOR.limit; n++) {
      statuses.push((await development.check('bob@example.com')).status);
    }
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
