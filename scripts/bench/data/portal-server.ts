import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Miniflare } from 'miniflare';
import { createPortal } from '../../../portal/app';
import type { PortalBindings } from '../../../portal/env';
import { newLifecycleEvent } from '../../../portal/lifecycle-record';
import { findSubscription } from '../../../portal/store/subscriptions';
import { prefixedId } from '../../../portal/tokens';
import type { LifecycleEventType } from '../../../shared/api/lifecycle';
import { applyMigrations } from '../../d1-migrations';
import { BENCH_LIFECYCLE_KEY } from './money-events';

/**
 * The product API for the data benchmark: the embedded portal (portal/, the contract-faithful
 * emulator of SPEC.md §7) served over HTTP from this Node process, for the production worker's
 * PORTAL_URL. Its database lives in a Miniflare of its own, so nothing it stores or reads is
 * counted against the funnel's stores: in production the product API is another service.
 * Its payment settings name Stripe, whose payment methods it charges as successful.
 */
export interface PortalServer {
  url: string;
  /** Every subscription the portal holds, the paying visitors' main plans and upsells. */
  subscriptionIds(): Promise<string[]>;
  /**
   * The lifecycle event of `type` the product API would send of a subscription, kept on the
   * portal's books first as `npm run portal -- renew` keeps it (scripts/portal.ts), as the body to
   * sign; null when the subscription cannot have it (a one-time guide does not renew).
   */
  lifecycleBody(subscriptionId: string, type: LifecycleEventType): Promise<string | null>;
  stop(): Promise<void>;
}

export async function startPortalServer(): Promise<PortalServer> {
  const storage = new Miniflare({
    modules: true,
    script: 'export default { fetch: () => new Response(null, { status: 404 }) };',
    d1Databases: { PORTAL_DB: 'bench-portal' },
    compatibilityDate: '2026-04-20',
  });
  const db = (await storage.getD1Database('PORTAL_DB')) as unknown as D1Database;
  await applyMigrations(db, 'portal/migrations');
  const env: PortalBindings = {
    PORTAL_DB: db,
    PORTAL_PAYMENT_GATEWAY: 'stripe',
    PORTAL_STRIPE_PUBLISHABLE_KEY: 'pk_test_data_bench',
    PORTAL_STRIPE_ACCOUNT_NAME: 'Data bench',
    // A charge's result is final at the first poll: the bench counts the funnel's work, not waits.
    PORTAL_POLLING_DELAY_MS: '0',
    // The subscriber's page's calls come signed with the lifecycle hook's key, as in production.
    LIFECYCLE_HMAC_KEY: BENCH_LIFECYCLE_KEY,
  };
  const portal = createPortal();
  // Miniflare's proxy to the database lost an answer ("false == true") when the worker's call to
  // the portal and the benchmark's own read of its books overlapped: one at a time, the portal's
  // few calls a run make no difference to what the worker is measured doing.
  let last: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(use: () => Promise<T>): Promise<T> => {
    const turn = last.then(use, use);
    last = turn.catch(() => {});
    return turn;
  };
  const server = createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') headers.set(name, value);
      }
      const request = new Request(new URL(req.url ?? '/', 'http://portal'), {
        method: req.method ?? 'GET',
        headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
      });
      const response = await oneAtATime(async () => portal.fetch(request, env));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: { messages: [String(error)] } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    subscriptionIds: () =>
      oneAtATime(async () => {
        const { results } = await db
          .prepare('SELECT id FROM subscriptions ORDER BY created_at, id')
          .all<{ id: string }>();
        return results.map(({ id }) => id);
      }),
    lifecycleBody: (subscriptionId, type) =>
      oneAtATime(async () => {
        const subscription = await findSubscription(db, subscriptionId);
        if (subscription === null) return null;
        const kept = await newLifecycleEvent(db, subscription, type, {
          id: prefixedId('evt'),
          amount: null,
          occurredAt: new Date().toISOString(),
        });
        return kept.ok ? JSON.stringify(kept.body) : null;
      }),
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await storage.dispose();
    },
  };
}
