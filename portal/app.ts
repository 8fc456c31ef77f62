import { Hono } from 'hono';
import { logError } from '../shared/log';
import type { PortalBindings } from './env';
import { PortalError } from './portal-error';
import { contractRequestRoutes } from './routes/contract-requests';
import { countryRoutes } from './routes/country';
import { deeplinkRoutes } from './routes/deeplink';
import { googleSignInRoutes } from './routes/google-sign-in';
import { linkRequestRoutes } from './routes/link-requests';
import { paymentSettingsRoutes } from './routes/payment-settings';
import { phoneRoutes } from './routes/phone';
import { pollingResultRoutes } from './routes/polling-result';
import { reminderRoutes } from './routes/reminders';
import { signupRoutes } from './routes/signup';
import { subscriberRoutes } from './routes/subscriber';
import { subscriptionRoutes } from './routes/subscriptions';

/**
 * The embedded portal: an EMULATOR of the product API of SPEC.md §7 for development and tests,
 * on D1. Same paths, shapes (shared/api/contract.ts) and status codes as the product API, so the
 * funnel runs fully offline; production sets PORTAL_URL to the real product API instead.
 *
 * The worker calls it in-process: `createPortal().fetch(request, env)`.
 */
export function createPortal(): Hono<{ Bindings: PortalBindings }> {
  const portal = new Hono<{ Bindings: PortalBindings }>();

  portal.route('/', signupRoutes);
  portal.route('/', googleSignInRoutes);
  portal.route('/', paymentSettingsRoutes);
  portal.route('/', deeplinkRoutes);
  portal.route('/', countryRoutes);
  portal.route('/', phoneRoutes);
  portal.route('/', subscriptionRoutes);
  portal.route('/', pollingResultRoutes);
  portal.route('/', subscriberRoutes);
  portal.route('/', reminderRoutes);
  portal.route('/', contractRequestRoutes);
  portal.route('/', linkRequestRoutes);

  portal.notFound((c) => {
    const error = new PortalError(404, 'not_found', `No such call: ${c.req.method} ${c.req.path}`);
    return c.json(error.toBody(), error.status);
  });

  // Every failure answers the ApiErrorBody shape; SPEC.md §7: 500 on errors of no known kind.
  portal.onError((error, c) => {
    if (error instanceof PortalError) return c.json(error.toBody(), error.status);
    logError('portal_internal_error', {
      method: c.req.method,
      path: c.req.path,
      message: error instanceof Error ? error.message : String(error),
    });
    return c.json(new PortalError(500, 'internal', 'Internal server error.').toBody(), 500);
  });

  return portal;
}
