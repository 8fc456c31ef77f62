import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { Hono } from 'hono';
import { afterEach, beforeEach, vi } from 'vitest';
import {
  LIFECYCLE_PATH,
  LIFECYCLE_SIGNATURE_HEADER,
  type LifecycleEventBody,
} from '../../../shared/api/lifecycle';
import { rememberBuyers } from '../../../worker/collector/consumer/ledger-destination';
import type { RevenueEvent } from '../../../worker/experiments/store/revenue-events';
import type { ApplyRevenueEvents } from '../../../worker/lifecycle/apply';
import type { Buyer } from '../../../worker/lifecycle/ledger';
import { lifecycleRoutes } from '../../../worker/lifecycle/route';
import { signatureHeaderFor } from '../../../worker/lifecycle/signature';
import { requestLog } from '../../../worker/middleware/request-log';
import { DEVELOPMENT_LIFECYCLE_KEY } from '../../../worker/portal-client/lifecycle-key';
import type { AppEnv } from '../../../worker/request/envs';
import { ORIGIN } from '../fetch-app';

/** The endpoint's clock in these tests: 2026-11-22T08:00:00Z. */
export const NOW = Date.UTC(2026, 10, 22, 8, 0, 0);
export const NOW_SECONDS = NOW / 1000;

/**
 * A subscription id and its buyer no other test uses (the ledger is not emptied between tests),
 * whose verified purchase paid 39.99 USD; `overrides` win.
 */
export function aBuyer(overrides: Partial<Buyer> = {}): Buyer {
  return {
    subscriptionId: `sub_${crypto.randomUUID()}`,
    visitorId: crypto.randomUUID(),
    paidMinor: 3999,
    currency: 'USD',
    ...overrides,
  };
}

/** A renewal of `subscriptionId` at 39.99 USD, with a fresh event id; `overrides` win. */
export function anEvent(
  subscriptionId: string,
  overrides: Partial<LifecycleEventBody> & Record<string, unknown> = {},
): LifecycleEventBody {
  return {
    id: `evt_${crypto.randomUUID()}`,
    type: 'renewal',
    subscription_id: subscriptionId,
    amount: 39.99,
    currency: 'USD',
    occurred_at: '2026-11-22T07:59:30Z',
    ...overrides,
  };
}

/** Tells the ledger who bought these subscriptions, as the queue consumer does. */
export function remember(...buyers: Buyer[]): Promise<void> {
  return rememberBuyers(env, buyers, { now: () => NOW, apply: refuseApply });
}

const refuseApply: ApplyRevenueEvents = async () => {
  throw new Error('nothing was held for these subscriptions');
};

/**
 * The lifecycle route as worker/app.tsx mounts it, behind the request log, with `apply` recording
 * what would reach the experiments (or failing, as a test says), on this run's real ledger.
 */
export function lifecycleApp(
  options: {
    apply?: ApplyRevenueEvents;
    now?: () => number;
    bindings?: Partial<Cloudflare.Env>;
  } = {},
) {
  const applied: RevenueEvent[] = [];
  const apply: ApplyRevenueEvents =
    options.apply ??
    (async (_env, events) => {
      applied.push(...events);
    });
  const app = new Hono<AppEnv>()
    .use(requestLog())
    .route(LIFECYCLE_PATH, lifecycleRoutes({ now: options.now ?? (() => NOW), apply }));
  const appEnv = { ...env, ...options.bindings };

  async function request(init: RequestInit): Promise<Response> {
    const ctx = createExecutionContext();
    const response = await app.fetch(new Request(`${ORIGIN}${LIFECYCLE_PATH}`, init), appEnv, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  }

  /** POSTs `body` as it is, with `signature` as the header's value (none when undefined). */
  function post(body: string, signature?: string): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (signature !== undefined) headers[LIFECYCLE_SIGNATURE_HEADER] = signature;
    return request({ method: 'POST', headers, body });
  }

  return {
    applied,
    request,
    post,
    send: (event: unknown, signing?: Signing) => send(post, event, signing),
  };
}

export interface Signing {
  /** Unix seconds; NOW_SECONDS unless given. */
  t?: number;
  /** The secrets it is signed with; the development key unless given. */
  keys?: string | string[];
}

/** The header the product API would send for `body`. */
export function signed(body: string, signing: Signing = {}): Promise<string> {
  return signatureHeaderFor(
    signing.keys ?? DEVELOPMENT_LIFECYCLE_KEY,
    signing.t ?? NOW_SECONDS,
    body,
  );
}

/** Signs `event` (JSON, or a string as it is) and POSTs it; the answer's status and JSON. */
async function send(
  post: (body: string, signature?: string) => Promise<Response>,
  event: unknown,
  signing: Signing = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const body = typeof event === 'string' ? event : JSON.stringify(event);
  const response = await post(body, await signed(body, signing));
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    headers: response.headers,
  };
}

/** The worker's log lines of each test, parsed, and silenced. */
export function capturedLogs() {
  let log: ReturnType<typeof vi.spyOn> | undefined;
  let warn: ReturnType<typeof vi.spyOn> | undefined;
  let error: ReturnType<typeof vi.spyOn> | undefined;
  beforeEach(() => {
    log = vi.spyOn(console, 'log').mockImplementation(() => {});
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    error = vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());
  const parsed = (spy: { mock: { calls: unknown[][] } } | undefined) =>
    (spy?.mock.calls ?? []).map(([text]) => JSON.parse(String(text)) as Record<string, unknown>);
  return { lines: () => parsed(log), warnings: () => parsed(warn), errors: () => parsed(error) };
}
