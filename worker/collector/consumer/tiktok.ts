import { logError } from '../../../shared/log';
import { isClickId } from '../../attribution/click-ids';
import {
  adNetworkDestination,
  configurationRefused,
  type PurchaseSend,
  present,
} from './ad-network';
import type { Destination } from './destination';
import { failedForNow, type Outcome } from './outcome';
import { type Fetch, isTransientStatus, postJson } from './post-json';

const TIKTOK_EVENTS_URL = 'https://business-api.tiktok.com/open_api/v1.3/event/track/';

/** TikTok answers HTTP 200 with its own code: 0 is success, 40100 a rate limit, 5xxxx theirs. */
function tiktokCodeIsTransient(code: number): boolean {
  return code === 40100 || code >= 50000;
}

/**
 * TikTok's codes for a refusal of the call, not the event: 40001 no permission, 40104 no access
 * token, 40105 an invalid or revoked one (or HTTP 401/403 from a gateway in front). The purchase
 * is kept until an operator fixes the token.
 */
function tiktokRefusedConfiguration(status: number, code: number | null): boolean {
  if (code === null) return status === 401 || status === 403;
  return code === 40001 || code === 40104 || code === 40105;
}

/** Events API 2.0 web event for a purchase (the browser pixel's CompletePayment). */
function tiktokEvent({ message, purchase, externalId }: PurchaseSend) {
  const { event, context } = message;
  // The ttclid of the page that polled the charge (purchase-event.ts), else the one _gf_ttclid
  // kept from an earlier page, visit or device (a resume link): the last click counts.
  const onPage = event.event_properties.tt_click_id;
  const clickId =
    typeof onPage === 'string' && isClickId(onPage) ? onPage : context.ad_cookies.ttclid;
  return {
    event: 'CompletePayment',
    event_time: Math.floor(event.time / 1000),
    // The pixel's event_id: TikTok keeps one of the two when they match.
    event_id: purchase.eventId,
    user: present({
      ttp: context.ad_cookies.ttp,
      ttclid: clickId,
      ip: context.ip,
      user_agent: context.user_agent,
      external_id: externalId,
      // TikTok's `email`: SHA-256 of the trimmed, lower-cased address.
      email: context.buyer_email_sha256,
    }),
    properties: { currency: purchase.currency, value: purchase.value },
    ...(context.page_url !== null ? { page: { url: context.page_url } } : {}),
  };
}

/**
 * TikTok's Events API (TIKTOK_PIXEL_ID, TIKTOK_ACCESS_TOKEN in the Access-Token header, never
 * logged). TIKTOK_TEST_EVENT_CODE sends the events to Events Manager's Test Events instead.
 */
export function tiktokDestination(config: {
  pixelId: string;
  accessToken: string;
  testEventCode: string | null;
  fetch: Fetch;
}): Destination {
  return adNetworkDestination('tiktok', async (send): Promise<Outcome> => {
    const insertId = send.message.event.insert_id;
    const reply = await postJson(
      config.fetch,
      TIKTOK_EVENTS_URL,
      {
        event_source: 'web',
        event_source_id: config.pixelId,
        ...present({ test_event_code: config.testEventCode }),
        data: [tiktokEvent(send)],
      },
      { 'Access-Token': config.accessToken },
    );
    if (!reply.reached) {
      return failedForNow(
        'tiktok_unreachable',
        { insert_id: insertId, detail: reply.detail },
        send.noted,
      );
    }
    const answer = reply.json as { code?: unknown; message?: unknown } | null;
    const code = typeof answer?.code === 'number' ? answer.code : null;
    if (reply.status >= 200 && reply.status < 300 && code === 0) return 'delivered';
    if (tiktokRefusedConfiguration(reply.status, code)) {
      return configurationRefused(
        'tiktok',
        {
          insert_id: insertId,
          status: reply.status,
          code,
          detail: typeof answer?.message === 'string' ? answer.message.slice(0, 300) : reply.text,
        },
        send.noted,
      );
    }
    const transient =
      isTransientStatus(reply.status) || code === null || tiktokCodeIsTransient(code);
    logError(transient ? 'tiktok_unavailable' : 'tiktok_rejected', {
      insert_id: insertId,
      status: reply.status,
      code,
      detail: typeof answer?.message === 'string' ? answer.message.slice(0, 300) : reply.text,
    });
    if (!transient) return 'dropped';
    send.noted?.('tiktok_unavailable');
    return 'retry';
  });
}
