import type { MiddlewareHandler } from 'hono';
import { oneOf } from '../shared/one-of';
import type { PortalBindings } from './env';
import { PortalError } from './portal-error';

/**
 * The emulator's failure switch: a row in `emulator_faults` makes the next `remaining` calls of
 * that name, or every call until `until_ms`, answer 500, so the browser's retries (SPEC.md §4:
 * payment settings are tried 2 more times), the "failure only logged" paths of SPEC.md §7 and
 * the charge under an outage (`npm run load`) can be exercised against a real portal.
 * With `after_work` the call does its work first (a charge is made) and its answer is lost.
 * Tests insert rows; developers run `npm run portal -- fail <call> [count] [--delay ms] [--after]`.
 */

/** The names a row may carry, one per call the portal serves. */
export const FAULT_CALLS = [
  'signup',
  'authorize-social',
  'payments-settings',
  'deeplink-qr-code',
  'deeplink-consume',
  'cf-country',
  'phone-number-info',
  'subscriptions-polling',
  'polling-result',
  'subscriptions',
  // Ours: the worker's close of an attempt whose answer never came (shared/api/attempt-close.ts).
  'attempts-close',
  // The card providers' fakes: a charge sent to that provider (its `payment_provider`, else its
  // route's: polling is Stripe's, the direct call Braintree's), whichever route it came by.
  'charge-stripe',
  'charge-braintree',
] as const;
export type FaultCall = (typeof FAULT_CALLS)[number];

export const isFaultCall = oneOf(FAULT_CALLS);

/**
 * The card providers' scripts as the checkout loads them in development and tests: the test
 * gateway's card fields (worker/dev/test-gateway-routes.ts), in the part of the provider it plays
 * (Stripe's on the polling route, Braintree's on the direct one). Switched on, its fields never
 * get their script, as when Stripe.js or Braintree's client hangs; with a delay, they arrive that
 * late (docs/payments.md, "A failing provider routed around").
 */
export const SCRIPT_FAULT_CALLS = ['script-stripe', 'script-braintree'] as const;
export type ScriptFaultCall = (typeof SCRIPT_FAULT_CALLS)[number];

/**
 * The development kit's stand-ins for the third parties the worker or the page calls
 * (worker/dev/), switched the same way: `geocode` makes the kit's geocoder answer as Google does
 * when it fails; the scripts, above. No route of the emulator serves them.
 */
export const KIT_FAULT_CALLS = ['geocode', ...SCRIPT_FAULT_CALLS] as const;
export type KitFaultCall = (typeof KIT_FAULT_CALLS)[number];

export const isKitFaultCall = oneOf(KIT_FAULT_CALLS);

/** Whether this call of a stand-in must fail, using up one switched-on failure (takeFault). */
export async function kitFaultIsOn(db: D1Database, call: KitFaultCall): Promise<boolean> {
  return (await takeFault(db, call)) !== null;
}

/** How a call fails: before it does anything, or after its work is done. */
export type FaultTiming = 'before' | 'after';

/** The calls a switch may slow down rather than fail outright: the card providers' fakes. */
export const DELAYED_FAULT_CALLS = [
  'charge-stripe',
  'charge-braintree',
  ...SCRIPT_FAULT_CALLS,
] as const satisfies readonly (FaultCall | KitFaultCall)[];

export const isDelayedFaultCall = oneOf(DELAYED_FAULT_CALLS);

/** A delay is a timeout or a late script, not a permanent outage: 2 minutes at most. */
export const MAX_FAULT_DELAY_MS = 120_000;

/**
 * How a switched-on call fails: `timing` (default before its work) and `delayMs` (default 0; the
 * calls of DELAYED_FAULT_CALLS only: they wait that long instead of failing at once).
 */
export interface FaultShape {
  timing?: FaultTiming;
  delayMs?: number;
}

/**
 * Uses up one switched-on failure of a card provider's script: null when it loads as usual,
 * else how late it comes (0: never).
 */
export async function takeScriptFault(
  db: D1Database,
  call: ScriptFaultCall,
): Promise<{ delayMs: number } | null> {
  const fault = await takeTimedFault(db, call);
  return fault === null ? null : { delayMs: fault.delayMs };
}

/**
 * Uses up one switched-on failure of `call` (a counted one, or one within its time window);
 * its timing when this call must fail, else null. One statement, so two concurrent calls never
 * both use the last counted one.
 */
async function takeFault(
  db: D1Database,
  call: FaultCall | KitFaultCall,
  now: number = Date.now(),
): Promise<FaultTiming | null> {
  return (await takeTimedFault(db, call, now))?.timing ?? null;
}

/** takeFault, with how long the call waits first (a timeout; 0 for a plain failure). */
async function takeTimedFault(
  db: D1Database,
  call: FaultCall | KitFaultCall,
  now: number = Date.now(),
): Promise<{ timing: FaultTiming; delayMs: number } | null> {
  const row = await db
    .prepare(
      `UPDATE emulator_faults SET remaining = max(remaining - 1, 0)
       WHERE call = ?1 AND (remaining > 0 OR until_ms > ?2) RETURNING after_work, delay_ms`,
    )
    .bind(call, now)
    .first<{ after_work: number; delay_ms: number }>();
  if (row === null) return null;
  return { timing: row.after_work ? 'after' : 'before', delayMs: row.delay_ms };
}

/**
 * Makes the next `count` calls of `call` fail (0 switches it off), as `shape` says: before or
 * after their work, at once or after a delay (see withProviderFault and takeScriptFault).
 */
export async function switchFaultOn(
  db: D1Database,
  call: FaultCall | KitFaultCall,
  count: number,
  shape: FaultShape = {},
): Promise<void> {
  await db
    .prepare(
      `INSERT INTO emulator_faults (call, remaining, until_ms, after_work, delay_ms)
       VALUES (?, ?, NULL, ?, ?)
       ON CONFLICT (call) DO UPDATE SET remaining = excluded.remaining, until_ms = NULL,
         after_work = excluded.after_work, delay_ms = excluded.delay_ms`,
    )
    .bind(call, count, shape.timing === 'after' ? 1 : 0, shape.delayMs ?? 0)
    .run();
}

/**
 * Makes every call of `call` fail until `untilMs` (epoch ms), before or after its work. With
 * `delayMs` (the card providers' fakes only) it is slow instead: it waits that long before the
 * work and then fails, or does the work and answers that late (a timeout before or after).
 */
export async function switchFaultOnUntil(
  db: D1Database,
  call: FaultCall,
  untilMs: number,
  timing: FaultTiming,
  delayMs = 0,
): Promise<void> {
  await db
    .prepare(
      `INSERT INTO emulator_faults (call, remaining, until_ms, after_work, delay_ms)
       VALUES (?, 0, ?, ?, ?)
       ON CONFLICT (call) DO UPDATE SET remaining = 0, until_ms = excluded.until_ms,
         after_work = excluded.after_work, delay_ms = excluded.delay_ms`,
    )
    .bind(call, untilMs, timing === 'after' ? 1 : 0, delayMs)
    .run();
}

/**
 * Runs first on a route, before authentication and body checks: the emulated failure is the
 * server's, whatever the request. A failure 'after' lets the route do its work, then answers 500.
 */
export function emulatedFault<E extends { Bindings: PortalBindings }>(
  call: FaultCall,
): MiddlewareHandler<E> {
  return async function emulatedFaultMiddleware(c, next) {
    const timing = await takeFault(c.env.PORTAL_DB, call);
    const failure = () => new PortalError(500, 'emulated_failure', `Emulated failure of ${call}`);
    if (timing === 'before') throw failure();
    await next();
    if (timing === 'after') throw failure();
  };
}

/**
 * A charge sent to `provider`'s fake, failed as its switch says: 500 before the charge is made (a
 * 5xx before sending: nothing charged), or after it (charged, and the answer lost). A switch with
 * a delay is a timeout instead: it waits, then fails uncharged (before), or charges and answers
 * late (after).
 */
export async function withProviderFault<T>(
  db: D1Database,
  provider: 'stripe' | 'braintree',
  charge: () => Promise<T>,
): Promise<T> {
  const call = provider === 'stripe' ? 'charge-stripe' : 'charge-braintree';
  const fault = await takeTimedFault(db, call);
  const failure = () => new PortalError(500, 'emulated_failure', `Emulated failure of ${call}`);
  const wait = () => new Promise((done) => setTimeout(done, fault?.delayMs ?? 0));
  if (fault?.timing === 'before') {
    await wait();
    throw failure();
  }
  const charged = await charge();
  if (fault?.timing === 'after') {
    if (fault.delayMs > 0) await wait();
    else throw failure();
  }
  return charged;
}
