import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { ApiErrorBody } from '../../../shared/api/contract';
import type { PortalFetch } from '../../../worker/portal-client/portal-call';
import { ORIGIN } from '../fetch-app';

/** A request as the portal received it. */
export interface SeenRequest {
  method: string;
  /** Path and query, e.g. '/phone-number-info/%2B15551234567'. */
  path: string;
  headers: Headers;
  body: string;
}

/**
 * A portal the test scripts: it records every request it is sent and answers with `answer`.
 * Put in place of the real transport through AppOptions.portalFetch.
 */
export function fakePortal(answer: (request: SeenRequest) => Response | Promise<Response>) {
  const seen: SeenRequest[] = [];
  const portalFetch: PortalFetch = async (request) => {
    const url = new URL(request.url);
    const entry: SeenRequest = {
      method: request.method,
      path: url.pathname + url.search,
      headers: request.headers,
      body: await request.text(),
    };
    seen.push(entry);
    return answer(entry);
  };
  return { seen, portalFetch };
}

/** What the portal answers a successful sign-up (SPEC.md §7). */
export const SIGNED_UP = {
  data: {
    access_token: 'secret-access-token-123',
    deeplink_token: 'dl-token',
    entity: { external_user_id: 'user-1' },
  },
};

/** A plausible portal: a valid answer for each §7 call. */
export function happyPortal(request: SeenRequest): Response {
  const { path } = request;
  if (path === '/signup' || path === '/authorize_social_via_access_token') {
    return Response.json(SIGNED_UP, { status: 201 });
  }
  if (path === '/users/me/payments-settings') {
    return Response.json({
      stripe_publishable_key: null,
      stripe_account_name: null,
      braintree_client_token: null,
      payment_gateway: 'test',
      request_three_d_secure: false,
    });
  }
  if (path === '/cf-country') return Response.json({ country_code: 'DE' });
  if (path.startsWith('/phone-number-info/')) {
    const phone = decodeURIComponent(path.slice('/phone-number-info/'.length));
    return Response.json({
      data: {
        phone,
        valid: true,
        country: 'US',
        type: 'MOBILE',
        carrier: null,
        city: null,
        timezone: 'America/New_York',
        location: null,
      },
    });
  }
  if (path.startsWith('/polling/get-result/')) {
    return Response.json({ data: { result_data: { status: 'succeeded' } } });
  }
  return Response.json({ errors: { messages: ['Not found'] } }, { status: 404 });
}

/** Headers of a fetch from one of our pages. */
const SAME_ORIGIN_JSON = {
  'content-type': 'application/json',
  'sec-fetch-site': 'same-origin',
  origin: ORIGIN,
};

export function postJson(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { ...SAME_ORIGIN_JSON, ...headers },
    body: JSON.stringify(body),
  };
}

export const SIGNUP_BODY = {
  registration_source: 'email',
  email: 'ada@example.com',
  name: '',
  user_uuid: '00000000-0000-4000-8000-000000000000',
  landing_type: 'split_forged',
};

/** Asserts the worker answered a call itself: JSON, never cached, with this status and code. */
export async function expectRefusal(
  res: Response,
  status: number,
  code: string,
  messages: string[] = [],
): Promise<void> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(ApiErrorBody.parse(await res.json())).toEqual({ errors: { messages }, code });
}

/**
 * A polling id as if the worker had answered its POST to `visitorId`'s session (no signed-in
 * user): the memo the owner check reads (worker/purchases/charge-owner.ts). Answers the Cookie
 * header of that session, for tests that poll a fake portal's id without starting the charge.
 */
export async function pollingStartedBy(
  pollingId: string,
  visitorId: string = crypto.randomUUID(),
): Promise<{ cookie: string }> {
  const namespace = env.RATE_LIMITER;
  const memo = { card: null, planId: null, coupon: null, visitorId, userId: null };
  await namespace
    .get(namespace.idFromName(`charged_card:${pollingId}`))
    .remember(JSON.stringify(memo), 60_000);
  return { cookie: `userUuid=${visitorId}` };
}
