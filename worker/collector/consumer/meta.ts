import { logError } from '../../../shared/log';
import {
  adNetworkDestination,
  configurationRefused,
  type PurchaseSend,
  present,
} from './ad-network';
import type { Destination } from './destination';
import { failedForNow, type Outcome } from './outcome';
import { type Fetch, isTransientStatus, postJson } from './post-json';

/**
 * The Marketing API version the Conversions API is called with, unless META_GRAPH_VERSION says
 * otherwise. Meta's version table lists v27.0 (released 2026-11-04) as current, its expiry not
 * yet set; versions live about a year after the next one comes out. Check
 * https://developers.facebook.com/documentation/ads-commerce/marketing-api/marketing-api-changelog/versions
 * before it expires: an expired one is answered with (#2635) (see configuration codes below).
 */
const DEFAULT_META_GRAPH_VERSION = 'v27.0';
const GRAPH_VERSION = /^v\d{1,3}\.\d$/;

/** META_GRAPH_VERSION when it is a version (`v27.0`), else the default, said once per batch. */
export function metaGraphVersion(configured: string | null): string {
  if (configured === null) return DEFAULT_META_GRAPH_VERSION;
  if (GRAPH_VERSION.test(configured)) return configured;
  logError('meta_graph_version_invalid', {
    found: configured.slice(0, 20),
    used: DEFAULT_META_GRAPH_VERSION,
  });
  return DEFAULT_META_GRAPH_VERSION;
}

/**
 * Graph API error codes that mean "later": unknown/service errors (1, 2), rate limits (4, 17,
 * 32, 613) and the application limit (341). Everything else in a 4xx is about the event.
 */
const META_TRANSIENT_CODES = new Set([1, 2, 4, 17, 32, 341, 613]);

/**
 * Refusals of our configuration, not of the event (Graph API error handling,
 * https://developers.facebook.com/docs/graph-api/guides/error-handling): 190 the access token
 * expired or was revoked, 102 the session, 10 and 200–299 a permission, 2635 a deprecated API
 * version. Read as such, they keep the purchase until the token or version is fixed.
 */
function isConfigurationError(status: number, error: GraphError): boolean {
  const { code } = error;
  if (code === undefined) return status === 401 || status === 403;
  return (
    code === 190 || code === 102 || code === 10 || code === 2635 || (code >= 200 && code <= 299)
  );
}

/** Conversions API server event for a purchase (the browser pixel's 'Purchase'). */
function metaServerEvent({ message, purchase, externalId }: PurchaseSend) {
  const { event, context } = message;
  return {
    event_name: 'Purchase',
    event_time: Math.floor(event.time / 1000),
    // The pixel's eventID: Meta keeps one of the two when event_name and event_id match.
    event_id: purchase.eventId,
    action_source: 'website',
    ...present({ event_source_url: context.page_url }),
    user_data: {
      ...present({
        client_ip_address: context.ip,
        client_user_agent: context.user_agent,
        fbc: context.ad_cookies.fbc,
        fbp: context.ad_cookies.fbp,
      }),
      external_id: [externalId],
      // Meta's `em`: SHA-256 of the trimmed, lower-cased email (customer information parameters).
      ...(context.buyer_email_sha256 ? { em: [context.buyer_email_sha256] } : {}),
    },
    custom_data: { currency: purchase.currency, value: purchase.value },
  };
}

interface GraphError {
  code?: number;
  error_subcode?: number;
  is_transient?: boolean;
  message?: string;
  fbtrace_id?: string;
}

/**
 * Meta's Conversions API (META_PIXEL_ID, META_ACCESS_TOKEN; the token rides in the body and is
 * never logged). META_TEST_EVENT_CODE sends the events to Events Manager's Test Events instead.
 */
export function metaDestination(config: {
  /** The Graph API version, `v27.0` (see metaGraphVersion). */
  version: string;
  pixelId: string;
  accessToken: string;
  testEventCode: string | null;
  fetch: Fetch;
}): Destination {
  const url = `https://graph.facebook.com/${config.version}/${encodeURIComponent(config.pixelId)}/events`;
  return adNetworkDestination('meta', async (send): Promise<Outcome> => {
    const insertId = send.message.event.insert_id;
    const reply = await postJson(config.fetch, url, {
      data: [metaServerEvent(send)],
      access_token: config.accessToken,
      ...present({ test_event_code: config.testEventCode }),
    });
    if (!reply.reached) {
      return failedForNow(
        'meta_unreachable',
        { insert_id: insertId, detail: reply.detail },
        send.noted,
      );
    }
    if (reply.status >= 200 && reply.status < 300) return 'delivered';
    const error: GraphError = (reply.json as { error?: GraphError } | null)?.error ?? {};
    if (isConfigurationError(reply.status, error)) {
      return configurationRefused(
        'meta',
        {
          insert_id: insertId,
          status: reply.status,
          code: error.code,
          subcode: error.error_subcode,
          version: config.version,
          detail: error.message?.slice(0, 300) ?? reply.text,
          fbtrace_id: error.fbtrace_id,
        },
        send.noted,
      );
    }
    const transient =
      isTransientStatus(reply.status) ||
      error.is_transient === true ||
      (error.code !== undefined && META_TRANSIENT_CODES.has(error.code));
    logError(transient ? 'meta_unavailable' : 'meta_rejected', {
      insert_id: insertId,
      status: reply.status,
      code: error.code,
      subcode: error.error_subcode,
      detail: error.message?.slice(0, 300) ?? reply.text,
      fbtrace_id: error.fbtrace_id,
    });
    if (!transient) return 'dropped';
    send.noted?.('meta_unavailable');
    return 'retry';
  });
}
