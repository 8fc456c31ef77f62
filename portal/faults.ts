import type { MiddlewareHandler } from 'hono';
import type { PortalBindings } from './env';
import { PortalError } from './portal-error';

/**
 * The emulator's failure switch: a row `(call, remaining)` in `emulator_faults` makes the next
 * `remaining` calls of that name answer 500, so the browser's retries (SPEC.md §4: payment
 * settings are tried 2 more times) and the "failure only logged" paths of SPEC.md §7 can be
 * exercised against a real portal. Tests insert rows; developers run
 * `npm run portal -- fail <call> [count]`.
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
] as const;
export type FaultCall = (typeof FAULT_CALLS)[number];

export function isFaultCall(name: string): name is FaultCall {
  return (FAULT_CALLS as readonly string[]).includes(name);
}

/**
 * Uses up one switched-on failure of `call`; true when this call must fail. One statement, so
 * two concurrent calls never both use the last one.
 */
export async function takeFault(db: D1Database, call: FaultCall): Promise<boolean> {
  const row = await db
    .prepare(
      'UPDATE emulator_faults SET remaining = remaining - 1 WHERE call = ? AND remaining > 0 RETURNING remaining',
    )
    .bind(call)
    .first();
  return row !== null;
}

/** Makes the next `count` calls of `call` fail (0 switches it off). */
export async function switchFaultOn(db: D1Database, call: FaultCall, count: number): Promise<void> {
  await db
    .prepare(
      'INSERT INTO emulator_faults (call, remaining) VALUES (?, ?) ON CONFLICT (call) DO UPDATE SET remaining = excluded.remaining',
    )
    .bind(call, count)
    .run();
}

/**
 * Runs first on a route, before authentication and body checks: the emulated failure is the
 * server's, whatever the request.
 */
export function emulatedFault<E extends { Bindings: PortalBindings }>(
  call: FaultCall,
): MiddlewareHandler<E> {
  return async function emulatedFaultMiddleware(c, next) {
    if (await takeFault(c.env.PORTAL_DB, call)) {
      throw new PortalError(500, 'emulated_failure', `Emulated failure of ${call}`);
    }
    await next();
  };
}
