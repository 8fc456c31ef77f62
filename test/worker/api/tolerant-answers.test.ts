import { beforeEach, describe, expect, it } from 'vitest';
import type { PortalFetch } from '../../../worker/portal-client/portal-call';
import { sessionCookies } from '../../fixtures/signed-cookies';
import { freshApp, setCookies } from '../fetch-app';
import { expectRefusal, pollingStartedBy, postJson, SIGNUP_BODY } from './fake-portal';
import { captureLogsPerTest } from './log-capture';

/**
 * The product API as a real one may answer where SPEC.md §7 leaves the shape open: the worker
 * takes what the step can use, hands the page the contract's shape, and tells ops in one
 * `portal_shape` warning per field, never with the field's value. Only an answer without what
 * the step needs is a 502. Every field's rule: test/unit/api/portal-answers.test.ts.
 */

const logs = captureLogsPerTest();

/** A portal that answers every call with `body` and `status`. */
function answering(body: unknown, status = 200): PortalFetch {
  return async () => Response.json(body, { status });
}

/** Signed in, as bearer calls need: the session cookie is the worker's, its token any text. */
const SIGNED_IN = { headers: { cookie: await sessionCookies('at_1') } };

function shapeWarnings() {
  return logs
    .warnings()
    .filter((line) => line.warning === 'portal_shape')
    .map(({ call, field, found, level }) => ({ call, field, found, level }));
}

describe('answers in other forms than ours', () => {
  it('payment settings without a gateway and with 3-D Secure as "1": the card provider, 3DS on', async () => {
    const secretKey = 'pk_live_51Secret';
    const res = await freshApp({
      portalFetch: answering({
        stripe_publishable_key: secretKey,
        request_three_d_secure: '1',
        merchant_country: 'US',
      }),
    })('/api/users/me/payments-settings', SIGNED_IN);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      stripe_publishable_key: secretKey,
      stripe_account_name: null,
      braintree_client_token: null,
      payment_gateway: null,
      request_three_d_secure: true,
      // The worker's own: the provider this checkout pays with (docs/payments.md).
      payment_provider: 'stripe',
    });
    expect(shapeWarnings()).toEqual([
      { call: 'paymentSettings', field: 'stripe_account_name', found: 'missing', level: 'warn' },
      { call: 'paymentSettings', field: 'braintree_client_token', found: 'missing', level: 'warn' },
      { call: 'paymentSettings', field: 'payment_gateway', found: 'missing', level: 'warn' },
      { call: 'paymentSettings', field: 'request_three_d_secure', found: 'string', level: 'warn' },
    ]);
    // Where and what kind, never the value: the key is nowhere in the warnings.
    expect(JSON.stringify(logs.warnings())).not.toContain(secretKey);
    // A field taken in another form is no error: no line an error alert would count.
    expect(logs.errors().filter((line) => line.call === 'paymentSettings')).toEqual([]);
  });

  it('an unknown gateway is the card provider too, and says so', async () => {
    const res = await freshApp({
      portalFetch: answering({ payment_gateway: 'adyen', request_three_d_secure: 0 }),
    })('/api/users/me/payments-settings', SIGNED_IN);
    expect(((await res.json()) as { payment_gateway: unknown }).payment_gateway).toBeNull();
    expect(shapeWarnings()).toContainEqual(
      expect.objectContaining({ field: 'payment_gateway', found: 'string (unusable)' }),
    );
  });

  it('a PNG or linked QR code passes; one that is no image becomes null, drawn by the page', async () => {
    const link = 'https://gz.example/l/abc?token=t';
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const pass = await freshApp({
      portalFetch: answering({ data: { short_deeplink: link, qr_code: png } }),
    })('/api/users/me/deeplink-qr-code', SIGNED_IN);
    expect(await pass.json()).toEqual({ data: { short_deeplink: link, qr_code: png } });

    const garbage = await freshApp({
      portalFetch: answering({ data: { short_deeplink: link, qr_code: '<svg onload=alert(1)>' } }),
    })('/api/users/me/deeplink-qr-code', SIGNED_IN);
    expect(garbage.status).toBe(200);
    expect(await garbage.json()).toEqual({ data: { short_deeplink: link, qr_code: null } });
    expect(shapeWarnings()).toEqual([
      {
        call: 'deeplink',
        field: 'data.qr_code',
        found: 'string (another image type)',
        level: 'warn',
      },
      { call: 'deeplink', field: 'data.qr_code', found: 'string (unusable)', level: 'warn' },
    ]);
  });

  it('phone info with only a country: the looked-up number and what there is', async () => {
    const res = await freshApp({
      portalFetch: answering({ data: { country: 'us', carrier: null, score: 0.9 } }),
    })('/api/phone-number-info/%2B12025550123');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: {
        phone: '+12025550123',
        valid: true,
        country: 'US',
        type: null,
        carrier: null,
        city: null,
        timezone: null,
        location: null,
      },
    });
    expect(shapeWarnings().map(({ field, found }) => `${field}: ${found}`)).toEqual([
      'data.phone: missing',
      'data.valid: missing',
      'data.country: string (letter case)',
      'data.type: missing',
      'data.city: missing',
      'data.timezone: missing',
      'data.location: missing',
    ]);
  });

  it('a sign-up with a numeric user id and no deeplink token signs the visitor in', async () => {
    const res = await freshApp({
      portalFetch: answering(
        { data: { access_token: 'at_9', entity: { external_user_id: 4021 } } },
        201,
      ),
    })('/api/signup', postJson(SIGNUP_BODY));
    expect(res.status).toBe(201);
    expect(setCookies(res).get('gf_session')).toBe('at_9');
    const text = await res.text();
    expect(text).not.toContain('at_9');
    expect(JSON.parse(text)).toEqual({
      data: { deeplink_token: '', entity: { external_user_id: '4021' } },
    });
  });

  it('a numeric polling id is the text the next call carries', async () => {
    const res = await freshApp({ portalFetch: answering({ data: { polling_result_id: 901 } }) })(
      '/api/users/me/subscriptions/polling/monthly_usd',
      postJson({ gateway: 'test', payment_method_nonce: 'n', user_data: {} }, SIGNED_IN.headers),
    );
    expect(await res.json()).toEqual({ data: { polling_result_id: '901' } });
  });

  it('the card a charge names reaches the page only as a name and four digits', async () => {
    const poller = crypto.randomUUID();
    await pollingStartedBy('poll_card', poller);
    const result = (card: Record<string, unknown>) =>
      freshApp({
        portalFetch: answering({
          data: { result_data: { status: 'succeeded', subscription_id: 'sub_1', ...card } },
        }),
      })('/api/polling/get-result/poll_card', { headers: { cookie: `userUuid=${poller}` } });
    const named = async (card: Record<string, unknown>) => {
      const body = (await (await result(card)).json()) as {
        data: { result_data: Record<string, unknown> };
      };
      const { card_brand, card_last4, wallet } = body.data.result_data;
      return { card_brand, card_last4, wallet };
    };
    expect(await named({ card_brand: 'Visa', card_last4: '4111111111114242' })).toEqual({
      card_brand: 'visa',
      card_last4: '4242',
      wallet: null,
    });
    // Markup, a number that lost its zeros, or nothing at all: the page names no card.
    expect(
      await named({ card_brand: '<img src=x onerror=alert(1)>', card_last4: 42, wallet: 7 }),
    ).toEqual({ card_brand: null, card_last4: null, wallet: null });
    expect(await named({})).toEqual({ card_brand: null, card_last4: null, wallet: null });
    expect(JSON.stringify(logs.warnings())).not.toContain('onerror');
  });

  it("a framework's validation refusal is read: the email taken is recognised", async () => {
    const res = await freshApp({
      portalFetch: answering(
        {
          message: 'The given data was invalid.',
          errors: { email: ['The email has already been taken.'] },
        },
        422,
      ),
    })('/api/signup', postJson(SIGNUP_BODY));
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      errors: { messages: ['The email has already been taken'] },
      code: 'email_taken',
    });
    expect(shapeWarnings()).toEqual([
      { call: 'signup', field: 'errors', found: 'object (texts by field)', level: 'warn' },
    ]);
  });
});

describe('answers without what the step needs: 502, with the field named for ops', () => {
  const post = postJson(SIGNUP_BODY);
  // The session that started poll_1 (the worker reads a result only for it).
  const poller = crypto.randomUUID();
  beforeEach(() => pollingStartedBy('poll_1', poller));
  it.each([
    [
      'a sign-up without its token',
      '/api/signup',
      post,
      { data: { entity: {} } },
      'data.access_token',
    ],
    [
      'a deeplink without its link',
      '/api/users/me/deeplink-qr-code',
      SIGNED_IN,
      { data: { qr_code: 'data:image/svg+xml,<svg/>' } },
      'data.short_deeplink',
    ],
    [
      'a deeplink to a script',
      '/api/users/me/deeplink-qr-code',
      SIGNED_IN,
      { data: { short_deeplink: 'javascript:alert(1)' } },
      'data.short_deeplink',
    ],
    [
      'a lookup without its data',
      '/api/phone-number-info/%2B12025550123',
      {},
      { country: 'US' },
      'data',
    ],
    [
      'a final result without its status',
      '/api/polling/get-result/poll_1',
      { headers: { cookie: `userUuid=${poller}` } },
      { data: { result_data: { subscription_id: 's' } } },
      'data.result_data.status',
    ],
    [
      'settings that are a list',
      '/api/users/me/payments-settings',
      SIGNED_IN,
      ['stripe'],
      '(body)',
    ],
  ])('%s', async (_, path, init, body, missing) => {
    const res = await freshApp({ portalFetch: answering(body) })(path, init);
    await expectRefusal(res, 502, 'portal_bad_response');
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'portal_bad_response', missing }),
    );
    expect(setCookies(res).has('gf_session')).toBe(false);
  });
});
