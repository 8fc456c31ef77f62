import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
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
import { compileRamp, rampArm } from '../../worker/experiments/ramps/ramp-arm';
import { quickRampStarted } from '../fixtures/quick-ramp-start';
import { consoleFetch } from './console-steps';
import { type BrowserSession, startBrowserSession } from './harness';
import { buy, eachVisitor, httpVisitor, land } from './http-visitors';
import { uniqueEmail } from './visitor-steps';

/**
 * A guarded ramp's life in Chromium against the built development worker, as on `npm start`
 * (console-ramp.test.ts, console-ramp-broken-pay.test.ts): the session with an alerts webhook,
 * the marketer's start as the console publishes it, and visitors drawn into an arm who land or
 * pay by HTTP (http-visitors.ts).
 */

export interface RampSession {
  session: BrowserSession;
  hook: { server: Server; url: string; bodies: string[] };
  stop(): Promise<void>;
}

/** The alerts webhook: a listener on this machine, which development posts to over http. */
async function fakeWebhook(): Promise<RampSession['hook']> {
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

/**
 * A browser session whose worker alerts the local webhook, as `npm start` runs: development's
 * rate limits, under which one test card may be declined 100 times an hour.
 */
async function startRampSession(): Promise<RampSession> {
  const hook = await fakeWebhook();
  const session = await startBrowserSession({
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
  return {
    session,
    hook,
    async stop() {
      await session.stop();
      hook.server.close();
    },
  };
}

/**
 * The file's ramp session, started before its tests and stopped after them: call it at the top
 * of the file, and the answer in the tests.
 */
export function rampSessionForFile(): () => RampSession {
  let ramp: RampSession | undefined;
  beforeAll(async () => {
    ramp = await startRampSession();
  });
  afterAll(() => ramp?.stop());
  return () => {
    if (!ramp) throw new Error('the ramp session has not started');
    return ramp;
  };
}

/**
 * The marketer's start of a landing test named `name` on the Quick ramp, published as the
 * console sends it: the draft its create form and Start make (quickRampStarted, the form's own
 * functions; clicked to the same draft in test/unit/console/experiments-ui.test.tsx, and a test
 * created, started and published in Chromium by console-experiments.test.ts). Its id.
 */
export async function startRamp(session: BrowserSession, name: string): Promise<string> {
  const state = await consoleFetch<ConsoleState>(session, CONSOLE_API.state);
  const { id, document } = quickRampStarted(state.live, name);
  const request: PublishRequest = {
    base: state.head?.seq ?? null,
    document,
    note: `ramp ${name}`,
  };
  await consoleFetch(session, CONSOLE_API.publish, request);
  return id;
}

/** Fresh visitor ids whose draw puts them in `arm` of the ramp's step now. */
export function idsIn(experiment: ExperimentDocument, arm: string, count: number): string[] {
  const ramp = compileRamp(experiment)!;
  const ids: string[] = [];
  while (ids.length < count) {
    const id = crypto.randomUUID();
    if (rampArm(ramp, experiment.seed, id) === arm) ids.push(id);
  }
  return ids;
}

/**
 * Visitors drawn as `ids` by HTTP (http-visitors.ts), each from the landing (their exposure) to a
 * charge with `card` (4242 unless said); what each was told last. `from` numbers their addresses
 * after those of visitors before them.
 */
export async function payByHttp(
  session: BrowserSession,
  ids: readonly string[],
  card: string | undefined,
  from: number,
): Promise<string[]> {
  const told: string[] = [];
  await eachVisitor(ids, async (visitorId, n) => {
    const visitor = httpVisitor(session, from + n, { visitorId });
    await land(visitor);
    told.push((await buy(visitor, { email: uniqueEmail('ramp'), card })).told);
  });
  return told;
}

/** Visitors by HTTP who see the landing (exposed, its script confirming it) and leave. */
export async function landOnly(session: BrowserSession, ids: readonly string[], from: number) {
  await eachVisitor(ids, async (visitorId, n) => {
    await land(httpVisitor(session, from + n, { visitorId }));
  });
}

export function results(session: BrowserSession, id: string): Promise<ExperimentResultsAnswer> {
  return consoleFetch(session, `${CONSOLE_EXPERIMENTS_PATH}/${id}/results`);
}
