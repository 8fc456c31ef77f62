import { describe, expect, it } from 'vitest';
import type { ExperimentDocument } from '../../shared/config/experiments';
import { CONSOLE_API, type ConsoleState } from '../../shared/console-api/config';
import type { VersionsAnswer } from '../../shared/console-api/versions';
import { shortfallTest } from '../../worker/experiments/ramps/guardrail-tests';
import { guardrailAlpha } from '../../worker/experiments/ramps/ramp-engine';
import { ALERTS_CRON } from '../../worker/scheduled';
import { consoleFetch } from './console-steps';
import type { BrowserSession } from './harness';
import {
  type HttpVisitor,
  httpVisitor,
  land,
  pageTracker,
  signUpAndCheckout,
} from './http-visitors';
import { PATIENCE_MS } from './patience';
import { idsIn, landOnly, payByHttp, rampSessionForFile, results, startRamp } from './ramp-steps';
import { uniqueEmail } from './visitor-steps';

/**
 * A landing variant whose Pay button throws, on a guarded ramp against the built development
 * worker (docs/statistics.md, "Guarded ramps"): the landing test is started on the Quick ramp
 * with the document the console's create form and its Start make (ramp-steps.ts startRamp,
 * their own functions); a variant visitor reaches the
 * checkout, and its Pay throws before anything is sent, which the page's script reports as a
 * `script_error`; control visitors pay, variant visitors get nowhere; the worker's 15-minute
 * cron rolls the ramp back on the conversion guardrail, which tests the purchases where the
 * primary metric (a landing test's lookups) is none, and says why. The thrown error reaches the
 * results as the variant's client error.
 *
 * No Chromium: every visitor goes by HTTP (http-visitors.ts), the requests their browsers send,
 * the thrown Pay's report posted by the analytics tracker's own code
 * (islands/analytics/tracker-core.ts). That a real page reports a throw of its own script so is
 * chunk-load-failure.test.ts's, in Chromium; that the worker counts it against the visitor's arm
 * is test/worker/experiments/visitor-errors.test.ts's.
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

/**
 * The broken variant's visitor: the AI landing, a sign-up, the checkout, and the page's report of
 * its Pay handler's throw (islands/analytics/script-errors.ts), sent by the page's tracker with
 * the checkout's own properties; then they leave.
 */
async function brokenPay(visitor: HttpVisitor): Promise<void> {
  expect(await land(visitor)).toContain('one_pager_ai');
  const checkout = await signUpAndCheckout(visitor, uniqueEmail('ramp-broken-pay'));
  // As the page's tracker starts (islands/analytics/tracker.ts), posting through the visitor's
  // fetch.
  const { tracker, answered } = pageTracker(visitor, {
    html: checkout.html,
    path: '/checkout_v3_tr',
    userId: checkout.userId,
  });
  tracker.track('script_error', { kind: 'error', message: 'Uncaught Error: the Pay button broke' });
  await tracker.flush();
  expect(answered).toEqual([200]);
}

describe('a guarded ramp whose variant’s Pay throws', () => {
  // slow: 200 visitors by HTTP, some paying, before the cron's rollback
  it('is rolled back by the cron on its purchases, and says why', async () => {
    expect(await startRamp(session(), NAME)).toBe(ID);
    const live = (await consoleFetch<ConsoleState>(session(), CONSOLE_API.state)).live.experiments
      .experiments[ID]!;
    expect(live).toMatchObject({ status: 'running', metrics: { primary: 'lookup' } });
    expect(live.ramp!.steps.map((step) => step.coverage)).toEqual([0.05, 0.25, 0.5]);

    const buyers = buyersNeeded(live);
    const [brokenId, ...variantIds] = idsIn(live, 'b', EXPOSED);
    const controlIds = idsIn(live, 'a', EXPOSED);
    await brokenPay(httpVisitor(session(), 0, { visitorId: brokenId }));
    const paid = await payByHttp(session(), controlIds.slice(0, buyers), undefined, 1);
    expect(new Set(paid)).toEqual(new Set(['succeeded']));
    await landOnly(session(), [...variantIds, ...controlIds.slice(buyers)], buyers + 1);

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
