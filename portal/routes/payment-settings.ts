import { Hono } from 'hono';
import { logError } from '../../shared/log';
import { requireBearer, type SignedInEnv } from '../auth';
import { emulatedFault } from '../faults';
import { paymentSettingsFrom } from '../payment-settings';

/** GET /users/me/payments-settings (SPEC.md §7; bearer, §6). */
export const paymentSettingsRoutes = new Hono<SignedInEnv>().get(
  '/users/me/payments-settings',
  emulatedFault('payments-settings'),
  requireBearer(),
  (c) => {
    const { settings, invalidGateway } = paymentSettingsFrom(c.env);
    if (invalidGateway !== undefined) {
      // A configuration mistake, not the visitor's: answer the default and say so in the logs.
      logError('portal_invalid_payment_gateway', {
        configured: invalidGateway,
        used: settings.payment_gateway,
      });
    }
    return c.json(settings);
  },
);
