import type { ApiCall } from '../../shared/api/contract';
import { logError } from '../../shared/log';
import type { Visit } from '../middleware/visit';
import { exchangeWithPortal, type PortalOutcome, portalTimeoutMs } from './portal-exchange';
import { type PortalRequestParts, portalRequest } from './portal-request';
import { type PortalFetch, portalTransport } from './portal-transport';

/** One call as it goes to the product API: what the request carries beyond the visitor's. */
export type PortalCall = Pick<PortalRequestParts, 'path' | 'body' | 'bearer' | 'idempotencyKey'> & {
  /** The call's name in the logs. */
  name: string;
  call: ApiCall;
};

/**
 * Sends one call to the product API the worker is set up with (./portal-transport.ts), as the
 * visitor's request (their country, address and the funnel's origin), within the call's wait,
 * and reads the whole answer. No transport (no PORTAL_URL outside development) is logged and
 * answered as its code. The visit gives the visitor's request and the execution context, which
 * the transport hands the embedded portal.
 */
export async function sendToPortal(
  visit: Visit,
  outgoing: PortalCall,
  portalFetch: PortalFetch | undefined,
): Promise<{ ok: true; outcome: PortalOutcome } | { ok: false; code: 'portal_not_configured' }> {
  const transport = portalTransport(visit.env, portalFetch, visit.executionCtx);
  if (!transport.ok) {
    logError(transport.code, { id: visit.requestId, call: outgoing.name });
    return transport;
  }
  const request = portalRequest({
    baseUrl: transport.baseUrl,
    call: outgoing.call,
    path: outgoing.path,
    body: outgoing.body,
    bearer: outgoing.bearer,
    country: visit.country,
    clientIp: visit.clientIp,
    funnelOrigin: visit.origin,
    idempotencyKey: outgoing.idempotencyKey,
  });
  const timeoutMs = portalTimeoutMs(outgoing.call.timeoutMs, visit.env.PORTAL_TIMEOUT_MS);
  return { ok: true, outcome: await exchangeWithPortal(transport.send, request, timeoutMs) };
}
