import { describe, expect, it } from 'vitest';
import type { ExperimentDocument } from '../../shared/config/experiments';
import { CONSOLE_API, type ConsoleState } from '../../shared/console-api/config';
import type { VersionsAnswer } from '../../shared/console-api/versions';
import { harmTest } from '../../worker/experiments/ramps/guardrail-tests';
import { guardrailAlpha } from '../../worker/experiments/ramps/ramp-engine';
import { click, consoleFetch, openArea } from './console-steps';
import type { BrowserSession } from './harness';
import { httpVisitor, land } from './http-visitors';
import { PATIENCE_MS } from './patience';
import { idsIn, landOnly, payByHttp, rampSessionForFile, results, startRamp } from './ramp-steps';

/**
 * A guarded ramp's rollback in Chromium against the built development worker, as on `npm start`: a
 * marketer's landing test on a guarded ramp, started as the console's create form and Start
 * publish it (ramp-steps.ts startRamp; the clicks to that draft are
 * test/unit/console/experiments-ui.test.tsx's, a publish from the Experiments page
 * console-experiments.test.ts's); visitors are drawn into both
 * arms and pay, those in the variant with the test gateway's failing card (4000000000000002,
 * portal/test-gateway/test-cards.ts); the worker's 15-minute check, run from the console's
 * Alerts page (Check the guardrails now, as the cron runs it), rolls the ramp back; the console
 * says so and why (the experiment's page and its card), the alerts webhook (a local fake) gets
 * the reason, the history has the `ramp` version, and a new visitor whose draw is the variant's
 * gets the control. The Overview says it in the card's words from the same ramp state
 * (console/kit/ramp-line.ts; test/unit/console/console-ui.test.tsx); the rollback's alert is in
 * the console's inbox, new (test/worker/alerts/ramp-rollback.test.ts), drawn there, counted in the
 * header's menu and acknowledged by keyboard (test/unit/console/alerts-ui.test.tsx,
 * test/worker/alerts/inbox.test.ts).
 *
 * Kept to what the engine needs (engineNeeds, counted with its own test at the ramp's α and
 * planned sample): 100 exposed a arm, the floor below which it judges nothing, and of them 63
 * variant visitors declined against none in the control. Every variant visitor who pays is
 * declined and the one control visitor who pays is charged: 100% against 0% of the payers; the
 * others only see the landing. The visitors go by HTTP (http-visitors.ts), the requests their
 * browsers send: the worker counts a decline from the charge answer it relayed, never from a page,
 * and what a declined visitor sees is checkout.test.ts's. Chromium is the marketer's: one console
 * page load, from the check to the rolled-back experiment's page. Under `npm start`'s rate limits,
 * as a marketer's run is.
 */

const DECLINED_CARD = '4000000000000002';
const NAME = 'AI landing ramp';
const ID = 'ai-landing-ramp';

/**
 * Control visitors who pay, each charged: real payers on both arms, and a charge counted as no
 * decline. The declines guardrail needs none (guardrail-tests.ts harmTest: its floor is 100
 * exposed a arm and 10 events in both arms, here the variant's 63 declines).
 */
const CONTROL_PAYERS = 1;

const rampRun = rampSessionForFile();
const session = (): BrowserSession => rampRun().session;

/**
 * What the engine needs to roll back on declines, at the ramp's α and planned sample: the fewest
 * exposed per arm it judges at all (`exposed`), and with that many, the fewest variant visitors
 * declined against none of the control's (`declined`), each counted with the engine's own test.
 */
function engineNeeds(experiment: ExperimentDocument): { exposed: number; declined: number } {
  const alpha = guardrailAlpha(experiment.ramp!);
  const planned = experiment.metrics?.plannedPerArm ?? 2_000;
  const broken = (exposed: number, declined: number) =>
    harmTest({ exposed, events: 0 }, { exposed, events: declined }, alpha, planned).broken;
  let exposed = 1;
  while (!broken(exposed, exposed)) exposed++;
  let declined = 1;
  while (!broken(exposed, declined)) declined++;
  return { exposed, declined };
}

describe('a guarded ramp started in the console, in Chromium', () => {
  // slow: 200 visitors by HTTP, 63 of them declined, roll the ramp back; then the console walk
  it('rolls back a variant whose every charge is declined: console, alert, history, new visitors', async () => {
    expect(await startRamp(session(), NAME)).toBe(ID);
    const live = (await consoleFetch<ConsoleState>(session(), CONSOLE_API.state)).live.experiments
      .experiments[ID]!;
    expect(live).toMatchObject({ status: 'running', ramp: { state: { step: 0 } } });
    expect(live.ramp!.steps.map((step) => step.coverage)).toEqual([0.05, 0.25, 0.5]);

    // 100 exposed a arm, the floor below which the engine judges nothing; with 100, 63 declined
    // in the variant against none in the control break the declines guardrail. Every variant
    // visitor who pays is declined, the control visitor who pays is charged; the rest only land.
    const needs = engineNeeds(live);
    expect(needs).toEqual({ exposed: 100, declined: 63 });
    const variantIds = idsIn(live, 'b', needs.exposed);
    const controlIds = idsIn(live, 'a', needs.exposed);
    const payers = needs.declined;
    const declined = await payByHttp(session(), variantIds.slice(0, payers), DECLINED_CARD, 0);
    const paid = await payByHttp(session(), controlIds.slice(0, CONTROL_PAYERS), undefined, payers);
    expect(new Set(declined)).toEqual(new Set(['declined']));
    expect(new Set(paid)).toEqual(new Set(['succeeded']));
    await landOnly(
      session(),
      [...variantIds.slice(payers), ...controlIds.slice(CONTROL_PAYERS)],
      payers + CONTROL_PAYERS,
    );

    // The worker's own charge answers, counted per arm (the queue batches them within a second).
    await expect
      .poll(
        async () => {
          const arms = (await results(session(), ID)).variants;
          return arms
            .map((arm) => [arm.variant, arm.exposed, arm.guardrails.declines.count])
            .sort();
        },
        { timeout: PATIENCE_MS },
      )
      .toEqual([
        ['a', needs.exposed, 0],
        ['b', needs.exposed, needs.declined],
      ]);

    // The 15-minute check, run from the console's Alerts page, opened at its address, as a
    // marketer rehearsing it does (the cron runs the same check: worker/alerts/check-run.ts).
    const marketer = await session().newVisitor({ viewport: { width: 1280, height: 900 } });
    const { page } = marketer;
    await page.goto('/console/alerts');
    const alertsArea = await openArea(page, 'Alerts');
    await click(alertsArea.getByRole('button', { name: 'Check the guardrails now' }));
    await alertsArea
      .getByText(/^Checked just now: 1 guarded ramp moved, \d+ new alerts?, /)
      .waitFor();

    const { versions } = await consoleFetch<VersionsAnswer>(session(), CONSOLE_API.versions);
    expect(versions[0]).toMatchObject({ author: 'ramp', source: 'ramp' });
    expect(versions[0]!.note).toMatch(
      new RegExp(`^Ramp of ${ID}: rolled back: broken: declines \\(63\\.00% against 0\\.00%\\)`),
    );
    expect(rampRun().hook.bodies.join('\n')).toMatch(
      /rolled back.*declines \(63\.00% against 0\.00%\)/,
    );

    // The console, read again by the check once a ramp moved (console/alerts/stores/alerts.ts):
    // the ramp rolled back, and why, on the experiment's page its Results opens.
    const area = await openArea(page, 'Experiments');
    await click(area.getByRole('button', { name: `Results of ${NAME}` }));
    await page.waitForURL((url) => url.pathname === `/console/experiments/${ID}`);
    const ramp = area.getByRole('region', { name: 'Guarded ramp' });
    await ramp.getByText(/^Rolled back at step 1 of 3/).waitFor();
    await ramp.getByText(/^Reason: broken: declines \(63\.00% against 0\.00%\)/).waitFor();
    expect(await ramp.getByRole('button').count()).toBe(0);
    // One status everywhere: the card says the same, from the ramp's state.
    const said = /^Guarded ramp rolled back by guardrail: declines \(63\.00% against 0\.00%\)/;
    const card = area.getByRole('article', { name: new RegExp(`^${NAME}`) });
    await card.getByText(said).waitFor();
    expect(await card.locator('.badge').textContent()).toBe('rolled back');
    // On a phone the guardrails' table scrolls in its box; its caption wraps there, all of it
    // readable, and the page itself does not scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    const caption = ramp.locator('caption');
    const box = ramp.locator('.table-scroll');
    await expect
      .poll(async () => {
        const [inner, outer] = [await caption.boundingBox(), await box.boundingBox()];
        return inner && outer && inner.x + inner.width <= outer.x + outer.width + 0.5;
      })
      .toBe(true);
    expect(await box.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBe(0);
    await marketer.context.close();

    // A new visitor whose draw is the variant's gets the control's landing.
    const [newcomer] = idsIn(live, 'b', 1);
    const landing = await land(httpVisitor(session(), 2 * needs.exposed, { visitorId: newcomer }));
    expect(landing).not.toContain('one_pager_ai');
  });
});
