import { describe, expect, it } from 'vitest';
import type { ExperimentDocument } from '../../shared/config/experiments';
import { CONSOLE_API, type ConsoleState } from '../../shared/console-api/config';
import type { VersionsAnswer } from '../../shared/console-api/versions';
import { shortfallTest } from '../../worker/experiments/ramps/guardrail-tests';
import { guardrailAlpha } from '../../worker/experiments/ramps/ramp-engine';
import { ALERTS_CRON } from '../../worker/scheduled';
import { consoleFetch } from './console-steps';
import type { BrowserSession } from './harness';
import { PATIENCE_MS } from './patience';
import {
  idsIn,
  landOnly,
  PHONE,
  payByHttp,
  rampSessionForFile,
  results,
  startRampInConsole,
  variantVisitorPays,
} from './ramp-steps';

/**
 * A landing variant whose Pay button throws, on a guarded ramp in Chromium against the built
 * development worker (docs/statistics.md, "Guarded ramps"): the marketer starts the landing test
 * from the console; a variant visitor in Chromium reaches the checkout, and its Pay throws (the
 * checkout's island script is served with a handler that throws, as a broken variant's would);
 * control visitors pay by HTTP through the islands' own API client, variant visitors get nowhere;
 * the worker's 15-minute cron rolls the ramp back on the conversion guardrail, which tests the
 * purchases where the primary metric (a landing test's lookups) is none, and says why. The
 * thrown error reaches the results as the variant's client error.
 */

const NAME = 'Broken pay ramp';
const ID = 'broken-pay-ramp';
/** The fewest exposed per arm the engine judges at all. */
const EXPOSED = 100;

const ramp = rampSessionForFile();
const session = (): BrowserSession => ramp().session;

/**
 * The fewest control buyers, of EXPOSED, against none in the variant, that break the conversion
 * guardrail's purchases test: half the guardrail's α, the primary being lookups.
 */
function buyersNeeded(experiment: ExperimentDocument): number {
  const alpha = guardrailAlpha(experiment.ramp!) / 2;
  const planned = experiment.metrics?.plannedPerArm ?? 2_000;
  const broken = (buyers: number) =>
    shortfallTest(
      { exposed: EXPOSED, events: buyers },
      { exposed: EXPOSED, events: 0 },
      alpha,
      planned,
    ).broken;
  let buyers = 1;
  while (!broken(buyers)) buyers++;
  return buyers;
}

/** The checkout's island as served, with a Pay handler that throws before anything is sent. */
const CHECKOUT_ISLAND = /\/assets\/CheckoutPayment-[\w-]+\.js(\?.*)?$/;
const BROKEN_PAY = `
document.addEventListener('click', (event) => {
  // The checkout's Pay (money-path.ts payButton).
  const pay = event.target instanceof Element ? event.target.closest('#continue-button') : null;
  if (!pay) return;
  event.stopImmediatePropagation();
  event.preventDefault();
  throw new Error('the Pay button broke');
}, true);`;

/** One variant visitor in Chromium: the AI landing, sign-up, the checkout, and a Pay that throws. */
async function brokenPayInChromium(visitorId: string): Promise<void> {
  const { context, page, problems } = await session().newVisitor({ userAgent: PHONE });
  await page.route(CHECKOUT_ISLAND, async (route) => {
    const original = await route.fetch();
    await route.fulfill({ response: original, body: `${await original.text()}\n${BROKEN_PAY}` });
  });
  await variantVisitorPays(
    session(),
    { context, page },
    { visitorId, card: '4242 4242 4242 4242', tag: 'ramp-broken-pay' },
  );
  await expect
    .poll(() => problems.some((problem) => problem.includes('Pay button broke')))
    .toBe(true);
  // Nothing was sent: the visitor is still at the checkout, and leaves.
  expect(new URL(page.url()).pathname).toBe('/checkout_v3_tr');
  await page.goto('/robots.txt');
  await context.close();
}

describe('a guarded ramp whose variant’s Pay throws, in Chromium', () => {
  // slow: a Chromium walk and 200 visitors by HTTP, some paying, before the cron's rollback
  it('is rolled back by the cron on its purchases, and says why', async () => {
    const marketer = await session().newVisitor({ viewport: { width: 1280, height: 900 } });
    await startRampInConsole(marketer.page, NAME);
    await marketer.context.close();
    const live = (await consoleFetch<ConsoleState>(session(), CONSOLE_API.state)).live.experiments
      .experiments[ID]!;
    expect(live).toMatchObject({ status: 'running', metrics: { primary: 'lookup' } });

    const buyers = buyersNeeded(live);
    const [chromiumId, ...variantIds] = idsIn(live, 'b', EXPOSED);
    const controlIds = idsIn(live, 'a', EXPOSED);
    await brokenPayInChromium(chromiumId!);
    const paid = await payByHttp(session(), controlIds.slice(0, buyers), undefined, 0);
    expect(new Set(paid)).toEqual(new Set(['succeeded']));
    await landOnly(session(), [...variantIds, ...controlIds.slice(buyers)], buyers);

    // What the worker saw per arm: exposures and purchases, and the variant's thrown Pay.
    await expect
      .poll(
        async () =>
          (await results(session(), ID)).variants
            .map((arm) => [
              arm.variant,
              arm.exposed,
              arm.metrics.find((metric) => metric.metric === 'purchase')?.count,
              arm.guardrails.clientErrors.count,
            ])
            .sort(),
        { timeout: PATIENCE_MS },
      )
      .toEqual([
        ['a', EXPOSED, buyers, 0],
        ['b', EXPOSED, 0, 1],
      ]);

    // The 15-minute cron, once.
    await session().worker.scheduled(ALERTS_CRON, Date.now());
    const { versions } = await consoleFetch<VersionsAnswer>(session(), CONSOLE_API.versions);
    expect(versions[0]).toMatchObject({ author: 'ramp', source: 'ramp' });
    const rate = `${((100 * buyers) / EXPOSED).toFixed(2).replace('.', '\\.')}%`;
    expect(versions[0]!.note).toMatch(
      new RegExp(
        `^Ramp of ${ID}: rolled back: broken: conversion \\(purchases: 0\\.00% converted against ${rate}\\)`,
      ),
    );
    expect(ramp().hook.bodies.join('\n')).toMatch(/rolled back.*conversion \(purchases: 0\.00%/);
  });
});
