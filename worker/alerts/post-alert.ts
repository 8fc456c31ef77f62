import { describeError } from '../../shared/log';
import { type WebhookRules, webhookAddressProblem } from '../http/webhook-address';
import { signatureHeaderFor } from '../lifecycle/signature';
import type { Delivery } from './alert-store';
import { retryAfterMs } from './retry-schedule';

/**
 * One post of one alert to its webhook, signed as the product API signs its lifecycle events
 * (worker/lifecycle/signature.ts, Stripe's scheme), so a receiver can tell our alerts from
 * anyone else's posts:
 *
 *   Geofunnel-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(ALERTS_HMAC_KEY, "<t>.<body>")>
 *   Geofunnel-Alert-Id: <the alert's key>   (the same on every attempt: a receiver may dedupe on it)
 *
 * Slack checks no signature of its own; the header is for a relay or a tool that does.
 */

const ALERT_SIGNATURE_HEADER = 'Geofunnel-Signature';
const ALERT_ID_HEADER = 'Geofunnel-Alert-Id';

/** A webhook slower than this is taken as not answering, and asked again later. */
const POST_TIMEOUT_MS = 10_000;

/** What the webhook made of the post. */
export type PostOutcome =
  | { result: 'sent'; status: number }
  /** Not answered, 5xx or 429: worth asking again. */
  | { result: 'retry'; status: number | null; error: string; retryAfterMs: number | null }
  /** 4xx, a redirect, or an address we refuse: asking again would get the same. */
  | { result: 'rejected'; status: number | null; error: string };

/**
 * The start of an error answer, for the log: Slack says why in a word (`invalid_payload`,
 * `no_service`).
 */
async function answerText(response: Response): Promise<string> {
  try {
    return (await response.text()).slice(0, 200);
  } catch {
    return '';
  }
}

export async function postAlert(
  delivery: Delivery,
  secret: string,
  rules: WebhookRules,
): Promise<PostOutcome> {
  const refused = webhookAddressProblem(delivery.webhook, rules);
  if (refused !== null) return { result: 'rejected', status: null, error: `webhook ${refused}` };
  // The moment of posting, not the run's scheduled time: a receiver holds `t` to its own clock.
  const timestamp = Math.floor(Date.now() / 1000);
  let response: Response;
  try {
    response = await fetch(delivery.webhook, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [ALERT_SIGNATURE_HEADER]: await signatureHeaderFor(secret, timestamp, delivery.body),
        [ALERT_ID_HEADER]: delivery.key,
      },
      body: delivery.body,
      // A redirect could lead the post to a host the address check never saw.
      redirect: 'manual',
      signal: AbortSignal.timeout(POST_TIMEOUT_MS),
    });
  } catch (error) {
    return { result: 'retry', status: null, error: describeError(error), retryAfterMs: null };
  }
  const { status } = response;
  if (status >= 200 && status < 300) {
    await response.body?.cancel();
    return { result: 'sent', status };
  }
  const said = await answerText(response);
  if (status === 429 || status >= 500)
    return {
      result: 'retry',
      status,
      error: said,
      retryAfterMs: retryAfterMs(response.headers.get('retry-after'), Date.now()),
    };
  return {
    result: 'rejected',
    status,
    error:
      status >= 300 && status < 400
        ? `redirected to ${response.headers.get('location') ?? '?'}`
        : said,
  };
}
