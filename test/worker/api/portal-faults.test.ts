import { describe, expect, it } from 'vitest';
import { type PortalFetch, portalTimeoutMs } from '../../../worker/portal-client/portal-call';
import { freshApp, setCookies } from '../fetch-app';
import { expectRefusal, fakePortal, pollingStartedBy, postJson, SIGNUP_BODY } from './fake-portal';
import { captureLogsPerTest } from './log-capture';

const logs = captureLogsPerTest();

/** Short enough to keep the suite fast, long enough for a healthy in-process answer. */
const TIMEOUT_MS = 100;

function appWith(portalFetch: PortalFetch) {
  return freshApp({ portalFetch }, { PORTAL_TIMEOUT_MS: String(TIMEOUT_MS) });
}

const lookup = (portalFetch: PortalFetch) =>
  appWith(portalFetch)('/api/phone-number-info/%2B15551234567');

const never = () => new Promise<Response>(() => {});

describe('a portal that gives no usable answer', () => {
  it('down (the fetch throws): 502 portal_unavailable, logged with the call', async () => {
    const res = await lookup(async () => {
      throw new TypeError('fetch failed: connection refused');
    });
    await expectRefusal(res, 502, 'portal_unavailable');
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({
        error: 'portal_unavailable',
        call: 'phoneInfo',
        upstream_status: null,
        detail: 'TypeError: fetch failed: connection refused',
      }),
    );
  });

  it('slow past the timeout: 504 portal_timeout, and the request finishes', async () => {
    let aborted = false;
    const started = Date.now();
    const res = await lookup((request) => {
      request.signal.addEventListener('abort', () => {
        aborted = true;
      });
      return never();
    });
    await expectRefusal(res, 504, 'portal_timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(aborted).toBe(true);
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'portal_timeout', call: 'phoneInfo' }),
    );
  });

  it('headers in time but a body that stalls: 504 portal_timeout', async () => {
    const res = await lookup(async () => {
      const stalled = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"data":'));
        },
      });
      return new Response(stalled, { headers: { 'content-type': 'application/json' } });
    });
    await expectRefusal(res, 504, 'portal_timeout');
  });

  it.each([
    ['a 200 that is not JSON', () => new Response('<html>ok</html>', { status: 200 })],
    ['a 200 with an empty body', () => new Response(null, { status: 200 })],
    ['a 200 without the data a lookup needs', () => Response.json({ phone: '+15551234567' })],
    ['a 200 whose data is not an object', () => Response.json({ data: 'located' })],
    ['a 500 HTML page', () => new Response('<h1>Internal Server Error</h1>', { status: 500 })],
    [
      'a redirect',
      () => new Response(null, { status: 302, headers: { location: 'https://x.test/' } }),
    ],
  ])('%s: 502 portal_bad_response', async (_, answer) => {
    const res = await lookup(async () => answer());
    await expectRefusal(res, 502, 'portal_bad_response');
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'portal_bad_response', call: 'phoneInfo' }),
    );
    expect(logs.requests()).toContainEqual(
      expect.objectContaining({ call: 'phoneInfo', error: 'portal_bad_response', status: 502 }),
    );
  });

  it("a 500 with JSON of another shape keeps its status with code portal_error and the call's text", async () => {
    const res = await lookup(async () =>
      Response.json({ message: 'Server Error' }, { status: 500 }),
    );
    await expectRefusal(res, 500, 'portal_error', ['Phone number is incorrect']);
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({
        error: 'portal_error',
        call: 'phoneInfo',
        upstream_status: 500,
        portal_message: '{"message":"Server Error"}',
      }),
    );
  });

  it('a sign-up answer without its token makes no session and tells the page so', async () => {
    const res = await appWith(async () =>
      Response.json({ data: { deeplink_token: 'd', entity: { external_user_id: 'u' } } }),
    )('/api/signup', postJson(SIGNUP_BODY));
    await expectRefusal(res, 502, 'portal_bad_response');
    expect(setCookies(res).has('gf_session')).toBe(false);
  });
});

describe('a portal that answers with the §7 error shape', () => {
  it.each([
    [422, ['The email has already been taken.'], 'email_taken', 'The email has already been taken'],
    [500, ['Something went wrong'], 'portal_refused', 'Failed to create an account'],
  ])(
    '%i keeps its status, its words become the SPEC.md text (%s)',
    async (status, messages, code, text) => {
      const portal = fakePortal(() => Response.json({ errors: { messages } }, { status }));
      const res = await appWith(portal.portalFetch)('/api/signup', postJson(SIGNUP_BODY));
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ errors: { messages: [text] }, code });
      expect(setCookies(res).has('gf_session')).toBe(false);
    },
  );

  it("the request's log line names the portal's code, or portal_refused without one", async () => {
    await lookup(async () =>
      Response.json({ errors: { messages: ['x'] }, code: 'phone_incorrect' }, { status: 400 }),
    );
    await lookup(async () => Response.json({ errors: { messages: ['x'] } }, { status: 400 }));
    expect(logs.requests().map((line) => [line.call, line.error, line.portal_status])).toEqual([
      ['phoneInfo', 'phone_incorrect', 400],
      ['phoneInfo', 'portal_refused', 400],
    ]);
  });

  it("a 5xx in the portal's own words is an error line an alert can count, with those words", async () => {
    const res = await appWith(async () =>
      Response.json(
        { errors: { messages: ['Internal'] }, code: 'emulator_fault' },
        { status: 500 },
      ),
    )('/api/polling/get-result/poll_1', { headers: await pollingStartedBy('poll_1') });
    expect(res.status).toBe(500);
    const portalErrors = () => logs.errors().filter((line) => line.error === 'portal_error');
    expect(portalErrors()).toEqual([
      expect.objectContaining({
        level: 'error',
        error: 'portal_error',
        call: 'pollingResult',
        upstream_status: 500,
        portal_code: 'emulator_fault',
        portal_message: 'Internal',
      }),
    ]);
    // A 4xx is the portal answering about the request, not an outage: no error line.
    await lookup(async () => Response.json({ errors: { messages: ['x'] } }, { status: 400 }));
    expect(portalErrors()).toHaveLength(1);
  });

  it("a 400 phone lookup is SPEC.md §5's 'Phone number is incorrect', whatever its words", async () => {
    for (const words of ['Phone number is incorrect', 'libphonenumber: NOT_A_NUMBER']) {
      const res = await lookup(async () =>
        Response.json({ errors: { messages: [words] } }, { status: 400 }),
      );
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        errors: { messages: ['Phone number is incorrect'] },
        code: 'portal_refused',
      });
    }
  });

  it('drops fields the contract does not name', async () => {
    const res = await lookup(async () =>
      Response.json(
        { errors: { messages: ['No'], trace: 'at db.ts:12' }, debug: 1 },
        { status: 409 },
      ),
    );
    expect(await res.json()).toEqual({
      errors: { messages: ['Phone number is incorrect'] },
      code: 'portal_refused',
    });
  });
});

it('a 202 "not final yet" polling answer keeps its status (SPEC.md §7: polled while 202)', async () => {
  const res = await appWith(async () =>
    Response.json({ data: { result_data: null } }, { status: 202 }),
  )('/api/polling/get-result/poll-1', { headers: await pollingStartedBy('poll-1') });
  expect(res.status).toBe(202);
  expect(await res.json()).toEqual({ data: { result_data: null } });
});

describe('portalTimeoutMs', () => {
  it("uses the call's own timeout unless PORTAL_TIMEOUT_MS is a positive number", () => {
    expect(portalTimeoutMs(8_000, undefined)).toBe(8_000);
    expect(portalTimeoutMs(8_000, '')).toBe(8_000);
    expect(portalTimeoutMs(8_000, 'soon')).toBe(8_000);
    expect(portalTimeoutMs(8_000, '0')).toBe(8_000);
    expect(portalTimeoutMs(8_000, '250')).toBe(250);
  });
});
