import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Session } from 'chdb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { lifecycleEventOf } from '../../portal/lifecycle-event';
import { keepLifecycleEvent } from '../../portal/lifecycle-record';
import { payDue } from '../../portal/pay-due';
import { refundSubscription, type SubscriberRow } from '../../portal/store/subscriber-actions';
import { listPayments } from '../../portal/store/subscription-payments';
import { applyMigrations } from '../../scripts/d1-migrations';
import { openLocalPlatform, PROJECT_ROOT } from '../../scripts/local-platform';
import type { LifecycleEventBody, LifecycleEventType } from '../../shared/api/lifecycle';
import { isPlanId, type PlanId, planById } from '../../shared/plans/catalogue';
import { archiveLine } from '../../worker/collector/archive-line';
import { archiveWrites, putArchiveObject } from '../../worker/collector/event-archive';
import type { QueuedEvent } from '../../worker/collector/queued-event';
import { readLifecycleEvent } from '../../worker/lifecycle/event-body';
import { moneyEventOf, moneyInsertId } from '../../worker/lifecycle/money-event';
import { purchaseEventOf } from '../../worker/purchases/purchase-event';
import {
  analyticsSqlBlocks,
  copyArchiveDay,
  duckDbReconciliation,
  inCents,
  listingTotals,
  oneBlock,
  type Row,
  statementsOf,
} from '../reconciliation';
import { TSX } from './script-process';

/**
 * docs/analytics.md's reconciliation, run as the page has it (DuckDB and ClickHouse), over the
 * archive the worker writes for subscriptions the embedded portal charged, renewed, recovered
 * twice through pay-due with one link's key, refunded, charged back and canceled: per
 * subscription and day, charges, refunds and net equal the portal's own listing of payments to
 * the cent. Then `npm run portal -- subscriptions` prints each one's state as it is.
 */

const run = promisify(execFile);
const KEY = 'test-lifecycle-secret';
/** Everything arrives on the 22nd: some of it happened on the 21st (a delivery retried). */
const RECEIVED_DAY = '2026-11-22';
const at = (iso: string) => new Date(iso).toISOString();

let persistTo = '';
let dir = '';
let db: D1Database;
let dispose: () => Promise<void>;
const messages: QueuedEvent[] = [];
const ids: Record<string, string> = {};

let sequence = 0;
/** A charged (or declined) subscription of `planId`, created at `created`. */
async function subscription(planId: PlanId, created: string, status = 'active'): Promise<string> {
  const id = `sub_rec_${sequence++}`;
  const plan = planById(planId);
  const user = `usr_${id}`;
  await db.batch([
    db
      .prepare(
        `INSERT INTO users (id, email, email_key, name, user_uuid, landing_type,
           registration_source, created_at) VALUES (?, ?, ?, 'Ann', ?, 'lp', 'email', ?)`,
      )
      .bind(user, `${id}@example.com`, `${id}@example.com`, crypto.randomUUID(), created),
    db
      .prepare(
        `INSERT INTO subscriptions (id, user_id, plan_id, gateway, status, price_with_discount,
           event_id, created_at, currency) VALUES (?, ?, ?, 'stripe', ?, ?, ?, ?, ?)`,
      )
      .bind(id, user, planId, status, plan.periodPrice / 100, `evt_${id}`, created, plan.currency),
  ]);
  if (status === 'active') archivePurchase(id, planId, created);
  return id;
}

/** The worker's server-verified purchase of it, as record-purchase.ts queues it. */
function archivePurchase(subscriptionId: string, planId: PlanId, created: string) {
  const plan = planById(planId);
  const event = purchaseEventOf(
    {
      subscriptionId,
      amount: plan.periodPrice / 100,
      currency: plan.currency,
      planId,
      eventId: `evt_${subscriptionId}`,
    } as Parameters<typeof purchaseEventOf>[0],
    {
      visitorId: `visitor-${subscriptionId}`,
      userId: null,
      variant: 'a',
      flow: 'default',
      configVersion: 'v1',
      route: null,
      trafficSource: null,
      pageUrl: null,
      language: 'en',
      theme: 'geozilla',
      at: Date.parse(created),
    },
    `srv_${crypto.randomUUID()}`,
  );
  messages.push({ v: 1, source: 'server', event, context: contextAt(Date.parse(created)) });
}

function contextAt(time: number): QueuedEvent['context'] {
  return {
    received_at: Math.max(time, Date.parse(`${RECEIVED_DAY}T00:00:00Z`)) + 5_000,
    ip: null,
    user_agent: null,
    country: null,
    page_url: null,
    consent: 'pending',
    ad_cookies: { fbc: null, fbp: null, ttp: null, ttclid: null },
  };
}

/** What the worker queues for a lifecycle body the portal sent, as its hook reads it. */
async function archiveMoney(body: LifecycleEventBody, recovered = false) {
  const reading = readLifecycleEvent(JSON.stringify(body), Date.parse(body.occurred_at));
  if (!reading.ok) throw new Error(reading.detail);
  const event = { ...reading.event, visitorId: `visitor-${body.subscription_id}`, recovered };
  messages.push({
    v: 1,
    source: 'server',
    event: moneyEventOf(event, await moneyInsertId(KEY, body.id)),
    context: contextAt(event.at),
  });
}

/** A lifecycle event the portal keeps and sends, as `npm run portal -- <type>` does. */
async function lifecycle(id: string, type: LifecycleEventType, occurred: string, amount?: number) {
  const stored = await db.prepare('SELECT * FROM subscriptions WHERE id = ?').bind(id).first<Row>();
  const built = lifecycleEventOf(
    {
      id,
      planId: String(stored?.plan_id),
      status: 'active',
      priceWithDiscount: Number(stored?.price_with_discount),
    },
    type,
    { id: `evt_${crypto.randomUUID()}`, amount: amount ?? null, occurredAt: occurred },
  );
  if (!built.ok) throw new Error(built.error);
  const kept = await keepLifecycleEvent(
    db,
    { id, planId: String(stored?.plan_id), coupon: null },
    built.body,
  );
  if (!kept.ok) throw new Error(kept.error);
  await archiveMoney(kept.body, kept.body.attempt_count === 2);
}

/** The subscriber pays the due through the recovery link's page, with the link's one key. */
async function payThroughLink(id: string, when: string) {
  vi.setSystemTime(new Date(when));
  const row = await db
    .prepare(
      `SELECT id, user_id AS userId, plan_id AS planId, status, price_with_discount AS priceWithDiscount,
         coupon, payment_method AS paymentMethod, created_at AS createdAt, canceled_at AS canceledAt,
         refunded_at AS refundedAt FROM subscriptions WHERE id = ?`,
    )
    .bind(id)
    .first<SubscriberRow>();
  if (!row) throw new Error(`no subscription ${id}`);
  const outcome = await payDue(
    db,
    row,
    { payment_method_nonce: 'fake-valid-nonce' } as Parameters<typeof payDue>[2],
    'payDue:link-1',
  );
  if (outcome.kind !== 'paid') throw new Error('not paid');
  const { payment } = outcome;
  const body = lifecycleEventOf(
    { id, planId: row.planId, status: 'active', priceWithDiscount: null },
    'renewal',
    {
      id: payment.id,
      amount: payment.amountMinor,
      occurredAt: payment.occurredAt,
      attempt: payment.attempt,
      cardBrand: payment.cardBrand,
    },
  );
  if (!body.ok) throw new Error(body.error);
  await archiveMoney(body.body, true);
}

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  persistTo = await mkdtemp(join(tmpdir(), 'money-reconciliation-state-'));
  dir = await mkdtemp(join(tmpdir(), 'money-reconciliation-'));
  const platform = await openLocalPlatform<{ PORTAL_DB: D1Database; EVENTS_ARCHIVE: R2Bucket }>(
    persistTo,
  );
  db = platform.env.PORTAL_DB;
  dispose = platform.dispose;
  await applyMigrations(db, join(PROJECT_ROOT, 'portal', 'migrations'));

  // 6.99 € and two recoveries of the renewal price, both through pay-due with one link's key.
  ids.recovered = await subscription('monthly_7d_intro_eur', at('2026-11-21T09:00:00Z'));
  await lifecycle(ids.recovered, 'renewal_failed', at('2026-11-21T21:00:00Z'));
  await payThroughLink(ids.recovered, '2026-11-21T22:00:00Z');
  await lifecycle(ids.recovered, 'renewal_failed', at('2026-11-22T06:00:00Z'));
  await payThroughLink(ids.recovered, '2026-11-22T07:00:00Z');
  // Renewed, partly refunded by the product API, then charged back.
  ids.chargedBack = await subscription('monthly_usd', at('2026-11-21T10:00:00Z'));
  await lifecycle(ids.chargedBack, 'renewal', at('2026-11-21T23:30:00Z'));
  await lifecycle(ids.chargedBack, 'refund', at('2026-11-22T08:00:00Z'), 1000);
  await lifecycle(ids.chargedBack, 'chargeback', at('2026-11-22T09:00:00Z'), 2999);
  // The money-back guarantee claimed: the first charge back, and ended.
  ids.refunded = await subscription('quarterly_eur', at('2026-11-22T01:00:00Z'));
  const plan = planById('quarterly_eur');
  const refund = {
    id: `evt_${crypto.randomUUID()}`,
    subscriptionId: ids.refunded,
    kind: 'refund' as const,
    amountMinor: plan.periodPrice,
    currency: plan.currency,
    attempt: null,
    cardBrand: null,
    occurredAt: at('2026-11-22T03:00:00Z'),
  };
  expect(await refundSubscription(db, ids.refunded, refund)).toBe(true);
  expect(await refundSubscription(db, ids.refunded, { ...refund, id: 'evt_again' })).toBe(false);
  await archiveMoney({
    id: refund.id,
    type: 'refund',
    subscription_id: ids.refunded,
    amount: plan.periodPrice / 100,
    currency: plan.currency,
    occurred_at: refund.occurredAt,
  });
  ids.canceled = await subscription('monthly_eur', at('2026-11-22T02:00:00Z'));
  await lifecycle(ids.canceled, 'cancellation', at('2026-11-22T04:00:00Z'));
  ids.pastDue = await subscription('monthly_eur', at('2026-11-21T02:00:00Z'));
  await lifecycle(ids.pastDue, 'renewal_failed', at('2026-11-22T04:00:00Z'));
  ids.declined = await subscription('monthly_eur', at('2026-11-22T05:00:00Z'), 'declined');
  vi.setSystemTime(new Date('2026-11-22T12:00:00Z'));
  ids.trialing = await subscription('monthly_7d_intro_usd', at('2026-11-22T10:00:00Z'));
  ids.active = await subscription('monthly_usd', at('2026-11-22T11:00:00Z'));

  // Written by the archive's own path; every third event a second time, as a redelivery does.
  const bucket = platform.env.EVENTS_ARCHIVE;
  let token = 0;
  for (const [index, message] of messages.entries()) {
    const copies = index % 3 === 0 ? 2 : 1;
    for (let copy = 0; copy < copies; copy++) {
      const writes = archiveWrites([archiveLine(message)], message.context.received_at + copy, () =>
        (token++).toString(16).padStart(8, '0'),
      );
      for (const write of writes) await putArchiveObject(bucket, write);
    }
  }
  await copyArchiveDay(bucket, RECEIVED_DAY, dir);
}, 120_000);

afterAll(async () => {
  vi.useRealTimers();
  await dispose?.();
  await rm(dir, { recursive: true, force: true });
  await rm(persistTo, { recursive: true, force: true });
});

const S3_SOURCE =
  /s3\(\s*'https:\/\/<account>\.r2\.cloudflarestorage\.com\/geofunnel-events\/(events\/[^']+)',\s*'<key id>', '<secret>', /;

async function clickHouseReconciliation(): Promise<Row[]> {
  const blocks = await analyticsSqlBlocks();
  const view = oneBlock(blocks, (block) => block.includes('FROM s3('));
  const query = oneBlock(blocks, (block) => block.startsWith('-- Reconciliation (ClickHouse'));
  const local = view.replace(S3_SOURCE, (_, path: string) => `file('${dir}/${path}', `);
  const session = new Session();
  try {
    for (const statement of statementsOf(local)) session.query(statement, 'JSONEachRow');
    return session
      .query(query, 'JSONEachRow')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Row);
  } finally {
    session.cleanup();
  }
}

describe("the reconciliation of docs/analytics.md against the embedded product API's listing", () => {
  it('keeps every payment: the first charge and both recoveries paid with one link', async () => {
    const payments = await listPayments(db, ids.recovered as string);
    expect(
      payments.map((payment) => [payment.kind, payment.amount_minor, payment.attempt]),
    ).toEqual([
      ['charge', planById('monthly_7d_intro_eur').periodPrice, 1],
      ['recovery', 3999, 2],
      ['recovery', 3999, 2],
    ]);
  });

  it('DuckDB: charges, refunds and net per subscription and day equal the listing to the cent', async () => {
    const expected = listingTotals(await listPayments(db));
    expect(expected.map((row) => row.day)).toContain('2026-11-21');
    expect(inCents(await duckDbReconciliation(dir))).toEqual(expected);
  });

  it('ClickHouse: the same rows, to the cent', { timeout: 60_000 }, async () => {
    const expected = listingTotals(await listPayments(db));
    expect(inCents(await clickHouseReconciliation())).toEqual(expected);
  });
});

describe('npm run portal -- subscriptions', () => {
  // slow: the CLI as a process of its own (tsx), opening the portal's D1 through wrangler
  it('prints each state as it is', { timeout: 60_000 }, async () => {
    await dispose();
    dispose = async () => {};
    const { stdout } = await run(
      TSX,
      ['scripts/portal.ts', 'subscriptions', '--persist-to', persistTo],
      { cwd: PROJECT_ROOT, env: { ...process.env, NODE_OPTIONS: '' } },
    );
    const state = (id: string | undefined) =>
      stdout
        .split('\n')
        .find((line) => line.startsWith(`${id} `))
        ?.split(/\s{2,}/)[4];
    expect(state(ids.recovered)).toBe('active');
    expect(state(ids.chargedBack)).toBe('charged_back');
    expect(state(ids.refunded)).toBe('refunded');
    expect(state(ids.canceled)).toBe('canceled');
    expect(state(ids.pastDue)).toBe('past_due');
    expect(state(ids.declined)).toBe('declined');
    expect(state(ids.active)).toBe('active');
    expect(stdout).toContain('86.97 EUR');
    expect(isPlanId('monthly_7d_intro_usd')).toBe(true);
  });
});
