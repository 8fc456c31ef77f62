import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserFetch, runJourney } from '../../scripts/load/journey';
import type { ExperimentDocument } from '../../shared/config/experiments';
import {
  CONSOLE_API,
  type ConsoleState,
  type PublishRequest,
} from '../../shared/console-api/config';
import {
  CONSOLE_EXPERIMENTS_PATH,
  type ExperimentResultsAnswer,
} from '../../shared/console-api/experiment-results';
import type { VersionsAnswer } from '../../shared/console-api/versions';
import { harmTest } from '../../worker/experiments/ramps/guardrail-tests';
import { compileRamp, rampArm } from '../../worker/experiments/ramps/ramp-arm';
import { guardrailAlpha } from '../../worker/experiments/ramps/ramp-engine';
import { ALERTS_CRON } from '../../worker/scheduled';
import { NORMAL_USER_AGENTS } from '../fixtures/in-app-user-agents';
import { click, consoleFetch, reviewAndPublish, typeInto } from './console-steps';
import { type BrowserSession, startBrowserSession } from './harness';
import { payButton, typeTestCard } from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive, submitEmail, uniqueEmail } from './visitor-steps';

/**
 * A guarded ramp's rollback in Chromium against the built development worker, as on `npm start`: a
 * marketer starts a landing test on a guarded ramp from the console; visitors are drawn into both
 * arms and pay, those in the variant with the test gateway's failing card (4000000000000002,
 * portal/test-gateway/test-cards.ts); the worker's 15-minute cron (its scheduled handler, run
 * through Miniflare) rolls the ramp back; the console says so and why, the alerts webhook (a
 * local fake) gets the reason, the history has the `ramp` version, and a new visitor whose draw
 * is the variant's gets the control.
 *
 * Kept to what the engine needs (engineNeeds, counted with its own test at the ramp's α and
 * planned sample): 100 exposed a arm, the floor below which it judges nothing, and of them 62
 * variant visitors declined against none in the control. Every variant visitor who pays is
 * declined and every control visitor who pays (10 of them) is charged: 100% against 0% of the
 * payers; the others only see the landing. All but one visitor go by HTTP through the islands'
 * own API client and payment state machine (scripts/load/journey.ts); one variant visitor pays
 * in Chromium, to show the visitor's side. Under `npm start`'s rate limits, as a marketer's run is.
 */

const DECLINED_CARD = '4000000000000002';
const NAME = 'AI landing ramp';
const ID = 'ai-landing-ramp';
/** A phone's browser: headless Chromium's own agent is a bot's, never exposed or counted. */
const PHONE = NORMAL_USER_AGENTS['Chrome on Android, reduced user agent'];

/** Control visitors who pay, each charged: enough to show a charge is no decline. */
const CONTROL_PAYERS = 10;

let session: BrowserSession;
let hook: { server: Server; url: string; bodies: string[] };

/** The alerts webhook: a listener on this machine, which development posts to over http. */
async function fakeWebhook(): Promise<typeof hook> {
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      bodies.push(body);
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/hook`, bodies };
}

beforeAll(async () => {
  hook = await fakeWebhook();
  // As `npm start` runs: development's rate limits, under which one test card may be declined
  // 100 times an hour (production's 5 would stop the variant's payers at the sixth).
  session = await startBrowserSession({
    bindings: { ALERTS_HMAC_KEY: 'test-alerts-key', RATE_LIMITS: 'development' },
  });
  // The webhook, published as a console publish would: the console's own field takes https only.
  const state = await consoleFetch<ConsoleState>(session, CONSOLE_API.state);
  const request: PublishRequest = {
    base: state.head?.seq ?? null,
    document: {
      ...state.live,
      experiments: { ...state.live.experiments, alerts: { webhook: hook.url } },
    },
    note: 'alerts to the local webhook',
  };
  await consoleFetch(session, CONSOLE_API.publish, request);
});
afterAll(async () => {
  await session?.stop();
  hook?.server.close();
});

/** The marketer creates the landing test on the Quick ramp, starts it and publishes. */
async function startRampInConsole(page: Page): Promise<void> {
  await page.goto('/console');
  const area = page.getByRole('region', { name: 'Experiments' });
  const form = area.getByRole('form', { name: 'Create an experiment' });
  await form.getByLabel('What to test').selectOption('landing');
  await typeInto(form.getByLabel('Experiment name'), NAME);
  await form.getByLabel('The landing screen variant b shows').selectOption('one_pager_ai');
  await click(form.getByRole('checkbox', { name: 'Start on a guarded ramp' }));
  await form.getByLabel('Fill the steps from a schedule').selectOption('quick');
  expect(await form.getByLabel('Step 1: % of the audience that enters').inputValue()).toBe('10');
  await click(form.getByRole('button', { name: 'Create draft experiment' }));
  const card = area.getByRole('article', { name: new RegExp(NAME) });
  await click(card.getByRole('button', { name: `Start ${NAME}…` }));
  await click(
    page
      .getByRole('dialog', { name: `Start ${NAME}?` })
      .getByRole('button', { name: `Start ${NAME}` }),
  );
  await reviewAndPublish(page, 'ramp the AI landing');
}

/** Fresh visitor ids whose draw puts them in `arm` of the ramp's step now. */
function idsIn(experiment: ExperimentDocument, arm: string, count: number): string[] {
  const ramp = compileRamp(experiment)!;
  const ids: string[] = [];
  while (ids.length < count) {
    const id = crypto.randomUUID();
    if (rampArm(ramp, experiment.seed, id) === arm) ids.push(id);
  }
  return ids;
}

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

/** Each visitor's own address, as Cloudflare would give it (RFC 5737's documentation block). */
const addressOf = (n: number) => `198.51.${100 + Math.floor(n / 250)}.${(n % 250) + 1}`;

/** Runs `visit` for each id, a few at a time. */
async function eachVisitor(
  ids: readonly string[],
  visit: (id: string, n: number) => Promise<void>,
) {
  const queue = [...ids.entries()];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await visit(next[1], next[0]);
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/**
 * Visitors by HTTP, from the landing (their exposure) to a charge with `card` (4242 unless said),
 * as the islands' API client and payment state machine make it; what each was told last.
 */
async function payByHttp(ids: readonly string[], card: string | undefined, from: number) {
  const told: string[] = [];
  await eachVisitor(ids, async (visitorId, index) => {
    const report = await runJourney({
      origin: session.worker.url.origin,
      address: addressOf(from + index),
      presses: 0,
      patienceMs: PATIENCE_MS,
      visitorId,
      ...(card ? { card } : {}),
    });
    expect(report.problem).toBeNull();
    told.push(report.told.at(-1) ?? 'nothing');
  });
  return told;
}

/** Visitors by HTTP who see the landing (exposed) and leave. */
async function landOnly(ids: readonly string[], from: number) {
  await eachVisitor(ids, async (visitorId, index) => {
    const visitor = browserFetch({
      origin: session.worker.url.origin,
      address: addressOf(from + index),
      visitorId,
    });
    const landing = await visitor.fetch('/');
    expect(landing.status).toBe(200);
    await landing.arrayBuffer();
  });
}

/** One variant visitor in Chromium: the AI landing, then the failing card declined. */
async function declinedInChromium(context: BrowserContext, page: Page, visitorId: string) {
  await context.addCookies([{ name: 'userUuid', value: visitorId, url: session.worker.url.href }]);
  await page.goto('/');
  expect(await page.content()).toContain('one_pager_ai');
  await page.goto('/signup?skip_split=true');
  await interactive(page);
  await submitEmail(page, uniqueEmail('ramp-declined'));
  await page.waitForURL((url) => url.pathname === '/checkout_v3_tr', { timeout: PATIENCE_MS });
  await interactive(page);
  await typeTestCard(page, '4000 0000 0000 0002');
  await payButton(page).click();
  await page.waitForURL((url) => url.pathname === '/payment_declined', { timeout: PATIENCE_MS });
  expect(await page.locator('h1').textContent()).toBe('Payment declined');
}

async function results(): Promise<ExperimentResultsAnswer> {
  return consoleFetch(session, `${CONSOLE_EXPERIMENTS_PATH}/${ID}/results`);
}

describe('a guarded ramp started in the console, in Chromium', () => {
  // slow: 62 declined charges roll the ramp back, then the console, the alert and new visitors
  it('rolls back a variant whose every charge is declined: console, alert, history, new visitors', async () => {
    const marketer = await session.newVisitor({ viewport: { width: 1280, height: 900 } });
    await startRampInConsole(marketer.page);
    const live = (await consoleFetch<ConsoleState>(session, CONSOLE_API.state)).live.experiments
      .experiments[ID]!;
    expect(live).toMatchObject({ status: 'running', ramp: { state: { step: 0 } } });
    expect(live.ramp!.steps.map((step) => step.coverage)).toEqual([0.05, 0.25, 0.5]);

    // 100 exposed a arm, the floor below which the engine judges nothing; with 100, 62 declined
    // in the variant against none in the control break the declines guardrail. Every variant
    // visitor who pays is declined, every control visitor who pays (10) is charged; the rest
    // only land.
    const needs = engineNeeds(live);
    expect(needs).toEqual({ exposed: 100, declined: 62 });
    const [chromiumId, ...variantIds] = idsIn(live, 'b', needs.exposed);
    const controlIds = idsIn(live, 'a', needs.exposed);
    const visitor = await session.newVisitor({ userAgent: PHONE });
    await declinedInChromium(visitor.context, visitor.page, chromiumId!);
    await visitor.context.close();
    const payers = needs.declined - 1;
    const declined = await payByHttp(variantIds.slice(0, payers), DECLINED_CARD, 0);
    const paid = await payByHttp(controlIds.slice(0, CONTROL_PAYERS), undefined, payers);
    expect(new Set(declined)).toEqual(new Set(['declined']));
    expect(new Set(paid)).toEqual(new Set(['succeeded']));
    await landOnly(
      [...variantIds.slice(payers), ...controlIds.slice(CONTROL_PAYERS)],
      payers + CONTROL_PAYERS,
    );

    // The worker's own charge answers, counted per arm (the queue batches them within a second).
    await expect
      .poll(
        async () => {
          const arms = (await results()).variants;
          return arms
            .map((arm) => [arm.variant, arm.exposed, arm.guardrails.declines.count])
            .sort();
        },
        { timeout: 30_000 },
      )
      .toEqual([
        ['a', needs.exposed, 0],
        ['b', needs.exposed, needs.declined],
      ]);

    // The 15-minute cron, once.
    await session.worker.scheduled(ALERTS_CRON, Date.now());

    const { versions } = await consoleFetch<VersionsAnswer>(session, CONSOLE_API.versions);
    expect(versions[0]).toMatchObject({ author: 'ramp', source: 'ramp' });
    expect(versions[0]!.note).toMatch(
      new RegExp(`^Ramp of ${ID}: rolled back: broken: declines \\(62\\.00% against 0\\.00%\\)`),
    );
    expect(hook.bodies.join('\n')).toMatch(/rolled back.*declines \(62\.00% against 0\.00%\)/);

    // The console: the ramp rolled back, and why.
    const { page } = marketer;
    await page.goto('/console');
    const area = page.getByRole('region', { name: 'Experiments' });
    await click(area.getByRole('button', { name: `Results of ${NAME}` }));
    const ramp = area.getByRole('region', { name: 'Guarded ramp' });
    await ramp.getByText(/^Rolled back at step 1 of 3/).waitFor();
    await ramp.getByText(/^Reason: broken: declines \(62\.00% against 0\.00%\)/).waitFor();
    expect(await ramp.getByRole('button').count()).toBe(0);
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
    const next = await session.newVisitor({ userAgent: PHONE });
    const [newcomer] = idsIn(live, 'b', 1);
    await next.context.addCookies([
      { name: 'userUuid', value: newcomer!, url: session.worker.url.href },
    ]);
    await next.page.goto('/');
    await interactive(next.page);
    expect(await next.page.content()).not.toContain('one_pager_ai');
    await next.context.close();
  });
});
