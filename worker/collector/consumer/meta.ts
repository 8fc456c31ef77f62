import { logError } from '../../../shared/log';
import { adNetworkDestination, type PurchaseSend, present } from './ad-network';
import type { Destination } from './destination';
import type { Outcome } from './outcome';
import { type Fetch, isTransientStatus, postJson } from './post-json';

const META_GRAPH_VERSION = 'v21.0';

/**
 * Graph API error codes that mean "later": unknown/service errors (1, 2), rate limits (4, 17,
 * 32, 613) and the application limit (341). Everything else in a 4xx is about the event.
 */
const META_TRANSIENT_CODES = new Set([1, 2, 4, 17, 32, 341, 613]);

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
  pixelId: string;
  accessToken: string;
  testEventCode: string | null;
  fetch: Fetch;
}): Destination {
  const url = `https://graph.facebook.com/${META_GRAPH_VERSION}/${encodeURIComponent(config.pixelId)}/events`;
  return adNetworkDestination('meta', async (send): Promise<Outcome> => {
    const insertId = send.message.event.insert_id;
    const reply = await postJson(config.fetch, url, {
      data: [metaServerEvent(send)],
      access_token: config.accessToken,
      ...present({ test_event_code: config.testEventCode }),
    });
    if (!reply.reached) {
      logError('meta_unreachable', { insert_id: insertId, detail: reply.detail });
      return 'retry';
    }
    if (reply.status >= 200 && reply.status < 300) return 'delivered';
    const error: GraphError = (reply.json as { error?: GraphError } | null)?.error ?? {};
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
    return transient ? 'retry' : 'dropped';
  });
}
