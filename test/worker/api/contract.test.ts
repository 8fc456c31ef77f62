import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import {
  ApiErrorBody,
  BrowserSignupResponse,
  CountryResponse,
  DeeplinkResponse,
  DirectSubscriptionResponse,
  PaymentSettingsResponse,
  PhoneInfoResponse,
  PollingResultResponse,
  PollingStartResponse,
} from '../../../shared/api/contract';
import { sessionCookies } from '../../fixtures/signed-cookies';
import { freshApp, ORIGIN, setCookies } from '../fetch-app';
import {
  failNext,
  migratePortalBeforeEach,
  userCount,
  workerWithEmbeddedPortal,
} from './embedded-portal-fixture';
import { postJson } from './fake-portal';
import { captureLogsPerTest } from './log-capture';

captureLogsPerTest();
migratePortalBeforeEach();

const VISITOR = '3f0c4a8e-2b1d-4c5e-9f6a-7b8c9d0e1f2a';

function signupBody(email: string) {
  return { registration_source: 'email', email, name: '', user_uuid: VISITOR, landing_type: 'x' };
}

/** Every response body of the worker, to prove the access token never appears in one. */
async function bodyText(res: Response): Promise<string> {
  return res.clone().text();
}

/**
 * Signs up through the worker; answers the Cookie header of the visitor and the session it set
 * (a charge's result is read by the session that started it).
 */
async function signedIn(fetchApp: ReturnType<typeof workerWithEmbeddedPortal>['fetchApp']) {
  const visitor = `userUuid=${crypto.randomUUID()}`;
  const res = await fetchApp(
    '/api/signup',
    postJson(signupBody(`${crypto.randomUUID()}@example.test`), { cookie: visitor }),
  );
  expect(res.status).toBe(200);
  const set = setCookies(res);
  return {
    cookie: `${visitor}; gf_session=${set.get('gf_session')}; gf_user=${set.get('gf_user')}; gf_session_owner=${set.get('gf_session_owner')}`,
  };
}

describe('POST /api/signup against the embedded portal', () => {
  it('makes the account in D1 under the visitor and answers it without the token', async () => {
    const { fetchApp } = workerWithEmbeddedPortal();
    const res = await fetchApp(
      '/api/signup',
      postJson(signupBody('Ada@Example.com'), { cookie: `userUuid=${VISITOR}` }),
    );
    expect(res.status).toBe(200);
    const text = await bodyText(res);
    const body = BrowserSignupResponse.strict().parse(JSON.parse(text));
    const token = setCookies(res).get('gf_session');
    expect(token).toBeTruthy();
    expect(text).not.toContain(token);
    expect(res.headers.getSetCookie().find((c) => c.startsWith('gf_session='))).toMatch(
      /; Path=\/api; HttpOnly; Secure; SameSite=Lax$/,
    );
    const user = await env.PORTAL_DB.prepare(
      'SELECT email, name, user_uuid, landing_type, registration_source FROM users WHERE id = ?',
    )
      .bind(body.data.entity.external_user_id)
      .first();
    expect(user).toEqual({
      email: 'Ada@Example.com',
      // SPEC.md §5: the name falls back to the email.
      name: 'Ada@Example.com',
      user_uuid: VISITOR,
      landing_type: 'split_default',
      registration_source: 'email',
    });
  });

  it('a taken email answers 422 with the SPEC.md §5 text the page maps to "email exists"', async () => {
    const { fetchApp } = workerWithEmbeddedPortal();
    expect((await fetchApp('/api/signup', postJson(signupBody('ada@example.com')))).status).toBe(
      200,
    );
    const res = await fetchApp('/api/signup', postJson(signupBody('ADA@example.com')));
    expect(res.status).toBe(422);
    expect(setCookies(res).has('gf_session')).toBe(false);
    expect(ApiErrorBody.parse(await res.json())).toEqual({
      errors: { messages: ['The email has already been taken'] },
      code: 'email_taken',
    });
    expect(await userCount()).toBe(1);
  });

  it("a failing portal answers its 500 in the §7 error shape, with §8's text, not its own", async () => {
    const { fetchApp } = workerWithEmbeddedPortal();
    await failNext('signup');
    const res = await fetchApp('/api/signup', postJson(signupBody('ada@example.com')));
    expect(res.status).toBe(500);
    expect(ApiErrorBody.parse(await res.json())).toEqual({
      errors: { messages: ['Failed to create an account'] },
      code: 'portal_refused',
    });
    expect(await userCount()).toBe(0);
  });
});

describe('the signed-in calls against the embedded portal', () => {
  it('GET /api/users/me/payments-settings answers the settings with the session cookie', async () => {
    const { fetchApp } = workerWithEmbeddedPortal();
    const session = await signedIn(fetchApp);
    const res = await fetchApp('/api/users/me/payments-settings', { headers: session });
    expect(res.status).toBe(200);
    expect(PaymentSettingsResponse.parse(await res.json()).payment_gateway).toBe('test');
  });

  it('an unknown session token answers the portal 401, a missing one not_signed_in', async () => {
    const { fetchApp, seen } = workerWithEmbeddedPortal();
    const unknown = await fetchApp('/api/users/me/payments-settings', {
      headers: { cookie: await sessionCookies('not-a-token') },
    });
    expect(unknown.status).toBe(401);
    expect(ApiErrorBody.parse(await unknown.json()).errors.messages).toEqual([
      'An error has occurred',
    ]);
    // The portal no longer knows the token: the browser is told to drop it.
    expect(unknown.headers.getSetCookie().join('\n')).toMatch(/^gf_session=;.*Max-Age=0/m);
    const missing = await fetchApp('/api/users/me/payments-settings');
    expect(missing.status).toBe(401);
    expect(ApiErrorBody.parse(await missing.json()).code).toBe('not_signed_in');
    expect(seen).toHaveLength(1);
  });

  it('payment settings failing twice then answering, as the island retries (SPEC.md §4)', async () => {
    const { fetchApp } = workerWithEmbeddedPortal();
    const session = await signedIn(fetchApp);
    await failNext('payments-settings', 2);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push(
        (await fetchApp('/api/users/me/payments-settings', { headers: session })).status,
      );
    }
    expect(statuses).toEqual([500, 500, 200]);
  });

  it('GET /api/users/me/deeplink-qr-code answers a deeplink on the funnel origin and its QR code', async () => {
    const { fetchApp } = workerWithEmbeddedPortal();
    const session = await signedIn(fetchApp);
    const res = await fetchApp('/api/users/me/deeplink-qr-code', { headers: session });
    expect(res.status).toBe(200);
    const { data } = DeeplinkResponse.parse(await res.json());
    expect(data.short_deeplink.startsWith(`${ORIGIN}/`)).toBe(true);
    expect(data.qr_code).toMatch(/^data:image\/svg\+xml/);
  });

  it('a subscription by polling: start, 202 while pending, then the final result', async () => {
    const { fetchApp, seen } = workerWithEmbeddedPortal({ PORTAL_POLLING_DELAY_MS: '60000' });
    const session = await signedIn(fetchApp);
    const start = await fetchApp(
      '/api/users/me/subscriptions/polling/monthly_usd',
      postJson(
        { gateway: 'test', payment_method_nonce: 'pm_card_visa', user_data: { price: 39.99 } },
        session,
      ),
    );
    expect(start.status).toBe(200);
    const pollingId = PollingStartResponse.parse(await start.json()).data.polling_result_id;
    const pending = await fetchApp(`/api/polling/get-result/${pollingId}`, { headers: session });
    expect(pending.status).toBe(202);
    PollingResultResponse.parse(await pending.json());
    // SPEC.md §6: the polling result is asked for without the bearer token.
    const polled = seen.find((request) => request.path.startsWith('/polling/get-result/'));
    expect(polled?.headers.has('authorization')).toBe(false);
  });

  it('the polling result turns final once its moment has come', async () => {
    const { fetchApp } = workerWithEmbeddedPortal({ PORTAL_POLLING_DELAY_MS: '0' });
    const session = await signedIn(fetchApp);
    const start = await fetchApp(
      '/api/users/me/subscriptions/polling/monthly_usd',
      postJson(
        { gateway: 'test', payment_method_nonce: 'pm_card_visa', user_data: { price: '39.99' } },
        session,
      ),
    );
    const pollingId = PollingStartResponse.parse(await start.json()).data.polling_result_id;
    const res = await fetchApp(`/api/polling/get-result/${pollingId}`, { headers: session });
    expect(res.status).toBe(200);
    const result = PollingResultResponse.parse(await res.json()).data.result_data;
    expect(result).toMatchObject({ status: 'succeeded', price_with_discount: 39.99 });
  });

  it('POST /api/users/me/subscriptions/{planId} charges once per Idempotency-Key', async () => {
    const { fetchApp } = workerWithEmbeddedPortal();
    const session = await signedIn(fetchApp);
    const charge = () =>
      fetchApp(
        '/api/users/me/subscriptions/monthly_usd',
        postJson(
          {
            gateway: 'braintree',
            payment_method_nonce: 'pm_card_visa',
            user_data: { price: 39.99 },
          },
          { ...session, 'idempotency-key': 'k-1' },
        ),
      );
    const first = DirectSubscriptionResponse.parse(await (await charge()).json());
    const again = DirectSubscriptionResponse.parse(await (await charge()).json());
    expect(first.data.subscription_id).toBeTruthy();
    expect(again.data.subscription_id).toBe(first.data.subscription_id);
  });
});

describe('the open calls against the embedded portal', () => {
  it('without PORTAL_URL or a test transport, the worker answers from the emulator itself', async () => {
    const res = await freshApp()('/api/cf-country', { headers: { 'cf-ipcountry': 'FR' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ country_code: 'FR' });
  });

  it('GET /api/cf-country answers the country the edge saw, or null', async () => {
    const { fetchApp } = workerWithEmbeddedPortal();
    const known = await fetchApp('/api/cf-country', { headers: { 'cf-ipcountry': 'de' } });
    expect(CountryResponse.parse(await known.json())).toEqual({ country_code: 'DE' });
    const unknown = await fetchApp('/api/cf-country');
    expect(CountryResponse.parse(await unknown.json())).toEqual({ country_code: null });
  });

  it('GET /api/phone-number-info/{phone} answers what is known of a valid number', async () => {
    const { fetchApp } = workerWithEmbeddedPortal();
    const res = await fetchApp('/api/phone-number-info/%2B14155552671');
    expect(res.status).toBe(200);
    const { data } = PhoneInfoResponse.parse(await res.json());
    expect(data).toMatchObject({ phone: '+14155552671', valid: true, country: 'US' });
  });

  it('a number the phone library calls invalid answers 400 "Phone number is incorrect"', async () => {
    const { fetchApp } = workerWithEmbeddedPortal();
    const res = await fetchApp('/api/phone-number-info/%2B10000000000');
    expect(res.status).toBe(400);
    expect(ApiErrorBody.parse(await res.json()).errors.messages).toEqual([
      'Phone number is incorrect',
    ]);
  });

  it('a failing lookup answers 500 (SPEC.md §7: 500 on other errors)', async () => {
    const { fetchApp } = workerWithEmbeddedPortal();
    await failNext('phone-number-info');
    const res = await fetchApp('/api/phone-number-info/%2B14155552671');
    expect(res.status).toBe(500);
    ApiErrorBody.parse(await res.json());
  });
});
