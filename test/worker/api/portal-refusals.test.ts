import { beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody } from '../../../shared/api/contract';
import { googleKeySet } from '../../../worker/session/google-keys';
import { sessionCookies } from '../../fixtures/signed-cookies';
import { freshApp, setCookies } from '../fetch-app';
import { fakePortal, pollingStartedBy, postJson, SIGNUP_BODY } from './fake-portal';
import {
  googleClaims,
  jwksFetch,
  keySet,
  makeSigner,
  NOW_SECONDS,
  type TestSigner,
} from './google-token-fixture';
import { captureLogsPerTest } from './log-capture';

/**
 * Whatever the product API says when it refuses a call (SPEC.md §7), the browser reads only the
 * SPEC.md §8 text of that step, or of what the refusal means (§5 email taken, §8 'User action
 * required', a decline); the API's own words reach the log line and nowhere else.
 */

const logs = captureLogsPerTest();

let google: TestSigner;
beforeAll(async () => {
  google = await makeSigner('google-2026-a');
});

/** Words no visitor may read: an internal host, a query, markup, the emulator's own failure. */
const RAW = 'SQLSTATE[HY000] db-7.internal: SELECT * FROM users <b>Emulated failure of signup</b>';

const SESSION = { cookie: await sessionCookies('portal-refusals-token-0123456789') };
const CHARGE = { gateway: 'test', user_data: {} };

interface Call {
  call: string;
  path: string;
  init: () => Promise<RequestInit>;
  /** SPEC.md §8 (or §5) text of the step when the refusal means nothing the funnel acts on. */
  text: string;
}

const CALLS: Call[] = [
  {
    call: 'signup',
    path: '/api/signup',
    init: async () => postJson(SIGNUP_BODY),
    text: 'Failed to create an account',
  },
  {
    call: 'socialSignIn',
    path: '/api/authorize_social_via_access_token',
    init: async () =>
      postJson({ access_token: await google.sign(googleClaims()), driver: 'google' }),
    text: 'Failed to create an account',
  },
  {
    call: 'paymentSettings',
    path: '/api/users/me/payments-settings',
    init: async () => ({ headers: SESSION }),
    text: 'An error has occurred',
  },
  {
    call: 'deeplink',
    path: '/api/users/me/deeplink-qr-code',
    init: async () => ({ headers: SESSION }),
    text: 'An error has occurred',
  },
  {
    call: 'country',
    path: '/api/cf-country',
    init: async () => ({}),
    text: 'An error has occurred',
  },
  {
    call: 'phoneInfo',
    path: '/api/phone-number-info/%2B15551234567',
    init: async () => ({}),
    text: 'Phone number is incorrect',
  },
  {
    call: 'pollingSubscription',
    path: '/api/users/me/subscriptions/polling/monthly_usd',
    init: async () => postJson(CHARGE, SESSION),
    text: 'An error has occurred',
  },
  {
    call: 'directSubscription',
    path: '/api/users/me/subscriptions/monthly_usd',
    init: async () => postJson(CHARGE, SESSION),
    text: 'An error has occurred',
  },
  {
    call: 'pollingResult',
    path: '/api/polling/get-result/poll_1',
    init: async () => ({ headers: await pollingStartedBy('poll_1') }),
    text: 'An error has occurred',
  },
];

/** The worker in front of a portal that answers every call with `answer`. */
function workerAnswering(answer: () => Response) {
  const portal = fakePortal(answer);
  return freshApp({
    portalFetch: portal.portalFetch,
    googleKeys: googleKeySet({ fetch: jwksFetch(keySet(google)).fetch }),
    now: () => NOW_SECONDS * 1000,
  });
}

/** The ways a refusal carries raw words: the §7 shape, near it, or another JSON shape. */
const REFUSALS: { name: string; status: number; body: unknown; code: string }[] = [
  {
    name: '500 in the §7 shape',
    status: 500,
    body: { errors: { messages: [RAW] } },
    code: 'portal_refused',
  },
  {
    name: '503 with a code of its own',
    status: 503,
    body: { errors: { messages: ['Retry later', RAW] }, code: 'rate_limited' },
    code: 'portal_refused',
  },
  {
    name: '422 with the words as text',
    status: 422,
    body: { errors: RAW },
    code: 'portal_refused',
  },
  {
    name: '400 with texts by field',
    status: 400,
    body: { message: RAW, errors: { email: [RAW] } },
    code: 'portal_refused',
  },
  { name: "500 in a framework's shape", status: 500, body: { message: RAW }, code: 'portal_error' },
];

describe.each(CALLS)('$call refused by the product API', ({ call, path, init, text }) => {
  it.each(REFUSALS)(
    '$name: the status is kept, the page reads the step text, the log line the words',
    async ({ status, body, code }) => {
      const res = await workerAnswering(() => Response.json(body, { status }))(path, await init());
      expect(res.status).toBe(status);
      const answered = await res.text();
      for (const fragment of [
        'SQLSTATE',
        'db-7.internal',
        'Emulated failure',
        '<b>',
        'Retry later',
      ]) {
        expect(answered).not.toContain(fragment);
      }
      expect(ApiErrorBody.strict().parse(JSON.parse(answered))).toEqual({
        errors: { messages: [text] },
        code,
      });
      // No session is made by a refusal.
      expect(setCookies(res).get('gf_session') ?? '').toBe('');

      // Ops still read what the API said: on the error line of a 5xx, else the request's line.
      const lines = status >= 500 ? logs.errors() : logs.requests();
      const line = lines.find((entry) => entry.call === call && 'portal_message' in entry);
      expect(line?.portal_message).toContain('SQLSTATE[HY000] db-7.internal');
      if (status >= 500) {
        expect(line).toMatchObject({
          level: 'error',
          error: 'portal_error',
          upstream_status: status,
        });
      }
    },
  );
});

describe('what the funnel acts on keeps working', () => {
  const answering = (status: number, body: unknown) =>
    workerAnswering(() => Response.json(body, { status }));

  it.each(['signup', 'socialSignIn', 'directSubscription'])(
    "%s: an email-taken refusal is SPEC.md §5's 'email exists' text",
    async (name) => {
      const { path, init } = CALLS.find((entry) => entry.call === name)!;
      const res = await answering(422, {
        errors: { messages: [`${RAW}`, 'The email has already been taken.'] },
      })(path, await init());
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({
        errors: { messages: ['The email has already been taken'] },
        code: 'email_taken',
      });
    },
  );

  it("'User action required' keeps its nonce and amount for 3-D Secure, and only those", async () => {
    const res = await answering(422, {
      errors: { messages: ['User action required'] },
      data: { payment_method_nonce: 'nonce-3ds', validation_amount: '6.99', secret: RAW },
    })('/api/users/me/subscriptions/monthly_usd', postJson(CHARGE, SESSION));
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      errors: { messages: ['User action required'] },
      code: 'user_action_required',
      data: { payment_method_nonce: 'nonce-3ds', validation_amount: '6.99' },
    });
  });

  it('a declined direct charge keeps its decline code for the declined page and analytics', async () => {
    const res = await answering(422, {
      errors: { messages: [`Insufficient funds ${RAW}`] },
      decline_code: 'insufficient_funds',
    })('/api/users/me/subscriptions/monthly_usd', postJson(CHARGE, SESSION));
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      errors: { messages: ['Payment declined'] },
      code: 'payment_declined',
      decline_code: 'insufficient_funds',
    });
    expect(logs.requests()).toContainEqual(
      expect.objectContaining({
        call: 'directSubscription',
        portal_message: `Insufficient funds ${RAW}`,
      }),
    );
  });

  it('a decline code in words is recorded as "declined", its words only logged', async () => {
    const res = await answering(402, {
      errors: { messages: ['Declined'] },
      decline_code: RAW,
    })('/api/users/me/subscriptions/monthly_usd', postJson(CHARGE, SESSION));
    expect(await res.json()).toMatchObject({ code: 'payment_declined', decline_code: 'declined' });
  });

  it("a phone lookup's non-200 is 'Phone number is incorrect' (SPEC.md §5)", async () => {
    const res = await answering(400, { errors: { messages: ['Invalid number'] } })(
      '/api/phone-number-info/%2B15551234567',
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      errors: { messages: ['Phone number is incorrect'] },
      code: 'portal_refused',
    });
  });

  it('a long answer is logged truncated, on one line', async () => {
    const long = `first line\n${'x'.repeat(2_000)}`;
    await answering(500, { errors: { messages: [long] } })('/api/cf-country');
    const line = logs.errors().find((entry) => entry.error === 'portal_error');
    const logged = String(line?.portal_message);
    expect(logged.startsWith('first line x')).toBe(true);
    expect(logged.length).toBe(300);
    expect(logged.endsWith('…')).toBe(true);
  });
});
