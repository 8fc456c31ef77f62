import type { ApiCall } from '../../shared/api/contract';

export interface PortalRequestParts {
  baseUrl: string;
  call: ApiCall;
  /** The call's path with its parameters filled in. */
  path: string;
  /** The checked body of a POST, else null. */
  body: unknown;
  /** The signed-in visitor's access token, for bearer calls only (SPEC.md §6). */
  bearer: string | null;
  /** The visitor's country as the edge knows it, for /cf-country. */
  country: string | null;
  /** CF-Connecting-IP, so the portal sees the visitor rather than the worker. */
  clientIp: string | undefined;
  /** The funnel's own origin: the emulator builds its short deeplinks on it. */
  funnelOrigin: string;
  /** The page's Idempotency-Key of a POST, else null. */
  idempotencyKey: string | null;
}

/** The request the portal receives for one `/api` call: only the headers it needs. */
export function portalRequest(parts: PortalRequestParts): Request {
  const headers = new Headers({
    accept: 'application/json',
    'x-funnel-origin': parts.funnelOrigin,
  });
  if (parts.bearer !== null) headers.set('authorization', `Bearer ${parts.bearer}`);
  if (parts.country !== null) headers.set('cf-ipcountry', parts.country);
  if (parts.clientIp) headers.set('x-forwarded-for', parts.clientIp);
  if (parts.idempotencyKey !== null) headers.set('idempotency-key', parts.idempotencyKey);
  const hasBody = parts.call.method === 'POST';
  if (hasBody) headers.set('content-type', 'application/json');
  return new Request(parts.baseUrl + parts.path, {
    method: parts.call.method,
    headers,
    body: hasBody ? JSON.stringify(parts.body ?? {}) : undefined,
    // A redirect is not a §7 answer; following it could carry the bearer token elsewhere.
    redirect: 'manual',
  });
}
