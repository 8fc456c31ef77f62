import type { CollectedEvent } from '../../shared/analytics/batch';
import { SMOKE_RECEIPTS_PATH, type SmokeReceipts } from '../../shared/analytics/smoke';
import { COLLECTOR_PATH } from '../../shared/analytics/tracking';
import { API_PATHS } from '../../shared/api/paths';
import { CONSOLE_API } from '../../shared/console-api/config';
import { purchaseCheck } from './purchase';
import { type SmokeVisitor, smokeVisitor } from './visitor';

/**
 * `npm run smoke -- --url <origin>`: what an operator checks right after a deploy (docs/operate.md,
 * "After a deploy"), as one visitor's browser and the console would: the landing, a call through
 * to the product API, a beacon, a purchase in the payment providers' test mode, and then that the
 * beacon's event and the purchase reached the event archive, which only a working events queue,
 * consumer and bucket get them to. Every request carries the smoke's agent, so the worker leaves
 * the run out of the results and Amplitude (shared/analytics/smoke.ts); the console is only asked
 * whether it lets a stranger in.
 */

/** One check's verdict: what it saw, in a line. */
export interface SmokeResult {
  name: string;
  ok: boolean;
  detail: string;
}

export interface SmokeTarget {
  origin: string;
  /**
   * Whether the target is npm start's development worker, where the console opens without
   * Cloudflare Access by design; anywhere else the console must refuse a stranger.
   */
  development: boolean;
  fetch?: typeof fetch;
  /** The plan the purchase buys (--plan); the default flow's main plan unless said. */
  planId?: string;
  /** How long the archive check waits for the run's events (default ARCHIVE_WAIT_MS). */
  archiveWaitMs?: number;
  /** Between two looks at the archive, and two polls of the charge (default 1 s). */
  pollDelayMs?: number;
}

/**
 * A message waits up to 5 s for its batch (wrangler.toml max_batch_timeout), a failed delivery
 * is retried after 30 s: a minute covers a batch and one retry.
 */
const ARCHIVE_WAIT_MS = 60_000;
const POLL_DELAY_MS = 1_000;

/** What the checks of one run share: its browser, and what it sent that must reach the archive. */
interface SmokeRun {
  target: Required<Omit<SmokeTarget, 'planId'>> & Pick<SmokeTarget, 'planId'>;
  visitor: SmokeVisitor;
  /** insert_id → what it is, for each event the run expects in the archive. */
  expected: Map<string, string>;
  /** The purchase's subscription, when one was charged: its event's id is the worker's own. */
  subscriptionId: string | null;
}

type Check = (run: SmokeRun) => Promise<SmokeResult>;

/** The error code an answer's JSON names (`{error: "code"}` or `{error: {code}}`), else ''. */
async function errorCodeOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
  const error = body?.error;
  if (typeof error === 'string') return ` ${error}`;
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? ` ${code}` : '';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const landing: Check = async ({ visitor }) => {
  const name = 'landing: GET /';
  const response = await visitor.open('/');
  const html = await response.text();
  const problems = [
    response.status === 200 ? null : `answered ${response.status}`,
    (response.headers.get('content-type') ?? '').startsWith('text/html') ? null : 'not HTML',
    response.headers.get('content-security-policy') ? null : 'no Content-Security-Policy',
    html.includes('<main') && html.includes('data-island=') ? null : 'no screen in the page',
  ].filter((problem) => problem !== null);
  return problems.length === 0
    ? { name, ok: true, detail: `200, ${html.length} bytes of HTML with its islands` }
    : { name, ok: false, detail: problems.join('; ') };
};

const productApi: Check = async ({ visitor }) => {
  const name = `product API: GET /api${API_PATHS.country}`;
  const response = await visitor.call(`/api${API_PATHS.country}`);
  if (response.status !== 200) {
    return {
      name,
      ok: false,
      detail: `answered ${response.status}${await errorCodeOf(response)}: the worker cannot reach the product API, or refuses the call`,
    };
  }
  const body = (await response.json().catch(() => null)) as { country_code?: unknown } | null;
  return body !== null && 'country_code' in body
    ? {
        name,
        ok: true,
        detail: `200 through the product API (country ${String(body.country_code)})`,
      }
    : { name, ok: false, detail: '200 without country_code: not the product API answering' };
};

/** The beacon's one event: a page load of the screen `smoke`, now, under a fresh id. */
function smokeEvent(): CollectedEvent {
  const at = Date.now();
  return {
    event_type: 'screen__load',
    insert_id: `smoke-${crypto.randomUUID()}`,
    time: at,
    session_id: at,
    device_id: 'geofunnel-smoke',
    user_id: null,
    event_properties: { screen_name: 'smoke' },
  };
}

const collector: Check = async ({ visitor, expected }) => {
  const name = `collector: POST ${COLLECTOR_PATH}`;
  const event = smokeEvent();
  const response = await visitor.call(COLLECTOR_PATH, { events: [event] });
  const body = (await response.json().catch(() => null)) as { accepted?: unknown } | null;
  if (response.status === 200 && body?.accepted === 1) {
    expected.set(event.insert_id, 'the beacon');
    return { name, ok: true, detail: '200: its one event taken and queued' };
  }
  return {
    name,
    ok: false,
    detail:
      response.status === 200
        ? `200 without taking the event (${JSON.stringify(body)})`
        : `answered ${response.status}${await errorCodeOf(response)}: beacons are lost (EVENTS_QUEUE, the rate limiter, or the route)`,
  };
};

const purchase: Check = async (run) => {
  const outcome = await purchaseCheck(run.visitor, {
    planId: run.target.planId,
    pollDelayMs: run.target.pollDelayMs,
  });
  run.subscriptionId = outcome.subscriptionId;
  return outcome.result;
};

/** What of the run's events the archive holds yet, by what each is; the purchase by its type. */
function missingFrom(run: SmokeRun, receipts: SmokeReceipts): string[] {
  const archived = new Set(receipts.archived.map((receipt) => receipt.insert_id));
  const missing = [...run.expected].filter(([id]) => !archived.has(id)).map(([, what]) => what);
  const purchased = receipts.archived.some((receipt) => receipt.event_type.endsWith('_completed'));
  if (run.subscriptionId !== null && !purchased) missing.push('the purchase');
  return missing;
}

const archive: Check = async (run) => {
  const name = `archive: GET ${SMOKE_RECEIPTS_PATH}`;
  if (run.expected.size === 0 && run.subscriptionId === null) {
    return { name, ok: false, detail: 'nothing to look for: no event of the run was taken' };
  }
  const deadline = Date.now() + run.target.archiveWaitMs;
  let missing: string[] = [];
  do {
    const response = await run.visitor.call(SMOKE_RECEIPTS_PATH);
    if (response.status !== 200) {
      return {
        name,
        ok: false,
        detail: `answered ${response.status}${await errorCodeOf(response)}`,
      };
    }
    missing = missingFrom(run, (await response.json()) as SmokeReceipts);
    if (missing.length === 0) {
      const what = run.subscriptionId === null ? 'the beacon' : 'the beacon and the purchase';
      return { name, ok: true, detail: `${what} in the event archive` };
    }
    await sleep(run.target.pollDelayMs);
  } while (Date.now() < deadline);
  return {
    name,
    ok: false,
    detail: `${missing.join(' and ')} not in the event archive after ${run.target.archiveWaitMs / 1000} s: the events queue, its consumer or the EVENTS_ARCHIVE bucket is broken (wrangler tail, docs/operate.md)`,
  };
};

/** A stranger's request: the console's own page asking, with none of the run's cookies. */
const consoleAccess: Check = async ({ target }) => {
  const name = `console: GET ${CONSOLE_API.state} without signing in`;
  const response = await smokeVisitor(target.origin, target.fetch).call(CONSOLE_API.state);
  const code = await errorCodeOf(response.clone());
  if (response.status === 401) {
    return { name, ok: true, detail: `401${code}: only Cloudflare Access lets anyone in` };
  }
  if (response.status === 200) {
    return target.development
      ? { name, ok: true, detail: '200: open, as npm start leaves it (nobody signs in locally)' }
      : {
          name,
          ok: false,
          detail:
            '200: the console answers without Cloudflare Access: anyone can publish (is ENVIRONMENT development?)',
        };
  }
  return {
    name,
    ok: false,
    detail: `answered ${response.status}${code}: set ACCESS_TEAM_DOMAIN and ACCESS_AUD (docs/operate.md)`,
  };
};

const CHECKS: readonly Check[] = [landing, productApi, collector, purchase, archive, consoleAccess];

/** Every check against the target, in order; a request that fails outright is that check's. */
export async function runSmoke(target: SmokeTarget): Promise<SmokeResult[]> {
  const full = {
    fetch: globalThis.fetch,
    archiveWaitMs: ARCHIVE_WAIT_MS,
    pollDelayMs: POLL_DELAY_MS,
    ...target,
  };
  const run: SmokeRun = {
    target: full,
    visitor: smokeVisitor(full.origin, full.fetch),
    expected: new Map(),
    subscriptionId: null,
  };
  const results: SmokeResult[] = [];
  for (const check of CHECKS) {
    try {
      results.push(await check(run));
    } catch (error) {
      results.push({
        name: check.name,
        ok: false,
        detail: `no answer: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }
  return results;
}

/** The results as the command prints them: one line each, ✓ or ✗. */
export function formatSmoke(results: readonly SmokeResult[]): string {
  return results
    .map((result) => `${result.ok ? '✓' : '✗'} ${result.name}: ${result.detail}`)
    .join('\n');
}
