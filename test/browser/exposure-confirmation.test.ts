import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExperimentsDocument } from '../../shared/config/experiments';
import {
  CONSOLE_EXPERIMENTS_PATH,
  type ExperimentResultsAnswer,
} from '../../shared/console-api/experiment-results';
import { aiLandingTest } from '../fixtures/ai-landing-test';
import { type BrowserSession, startBrowserSession } from './harness';
import { PATIENCE_MS } from './patience';
import { interactive } from './visitor-steps';

/**
 * An exposure counts once its page's own script has sent back the page's ticket
 * (islands/exposure-confirmation.ts, worker/collector/exposure-confirmation-route.ts): a real
 * page load in Chromium confirms its visitor's exposure once hydrated; the same page fetched by a
 * script that runs none of it stays unconfirmed.
 */

const DESKTOP_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(async () => {
  await session?.worker.deleteConfig('experiments');
  await session?.stop();
});

/** The experiment's results as the console reads them from the worker. */
async function resultsOf(id: string): Promise<ExperimentResultsAnswer> {
  const response = await fetch(
    new URL(`${CONSOLE_EXPERIMENTS_PATH}/${id}/results`, session.worker.url),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as ExperimentResultsAnswer;
}

const armOf = async (id: string) => {
  const answer = await resultsOf(id);
  const ai = answer.variants.find((variant) => variant.variant === 'ai');
  return { exposed: ai?.exposed ?? 0, unconfirmed: ai?.unconfirmed ?? 0 };
};

describe('an exposure confirmed by its page, in Chromium', () => {
  // slow: a landing fetched and one loaded in Chromium, the results polled until the writes after
  // each answer land
  it('a landing loaded in the browser confirms its exposure; one fetched without script does not', async () => {
    // A fresh id: the counts are the worker's, kept across the files' tests.
    const id = `lp-confirm-${Date.now().toString(36)}`;
    const document: ExperimentsDocument = {
      version: 'confirm',
      experiments: { [id]: { ...aiLandingTest(0), seed: id } },
    };
    await session.worker.putConfig('experiments', document);

    // A script that loads the landing and runs none of it: exposed by the server, never
    // confirmed.
    const fetched = await fetch(new URL('/', session.worker.url), {
      headers: { 'user-agent': DESKTOP_CHROME },
    });
    expect(fetched.status).toBe(200);
    expect(await fetched.text()).toContain('"exposureTicket":"');
    await expect
      .poll(() => armOf(id), { timeout: PATIENCE_MS })
      .toEqual({
        exposed: 0,
        unconfirmed: 1,
      });

    const from = session.worker.logs.length;
    const { context, page, problems } = await session.newVisitor({ userAgent: DESKTOP_CHROME });
    await page.goto('/');
    await interactive(page);
    await expect
      .poll(() => armOf(id), { timeout: PATIENCE_MS })
      .toEqual({
        exposed: 1,
        unconfirmed: 1,
      });
    // The page sent its ticket once, and the worker took it.
    const confirmations = session.worker.logs
      .slice(from)
      .filter((line) => line.path === '/e/exposure' && 'status' in line);
    expect(confirmations.map((line) => [line.status, line.confirmed])).toEqual([[204, 1]]);
    // A reload exposes nobody: its page carries no ticket and sends nothing.
    await page.reload();
    await interactive(page);
    expect(await armOf(id)).toEqual({ exposed: 1, unconfirmed: 1 });
    expect(problems).toEqual([]);
    await context.close();
  });
});
