import { Hono } from 'hono';
import { PollingIdPathParam, type PollingResultResponse } from '../../shared/api/contract';
import type { PortalBindings } from '../env';
import { emulatedFault } from '../faults';
import { PortalError } from '../portal-error';
import { findPollingResult } from '../store/polling-results';

/**
 * GET /polling/get-result/{pollingId} (SPEC.md §7; no bearer, §6): 202 until the charge started
 * by POST /users/me/subscriptions/polling/{planId} is final, then its result.
 */
export const pollingResultRoutes = new Hono<{ Bindings: PortalBindings }>().get(
  '/polling/get-result/:pollingId',
  emulatedFault('polling-result'),
  async (c) => {
    const pollingId = c.req.param('pollingId');
    const stored = PollingIdPathParam.safeParse(pollingId).success
      ? await findPollingResult(c.env.PORTAL_DB, pollingId)
      : null;
    if (!stored) throw new PortalError(404, 'not_found', 'This polling result is not known.');
    if (Date.now() < Date.parse(stored.readyAt)) {
      // SPEC.md §7: the client repeats the call while the status is 202.
      const pending: PollingResultResponse = { data: { result_data: null } };
      return c.json(pending, 202);
    }
    return c.json({ data: { result_data: stored.result } });
  },
);
