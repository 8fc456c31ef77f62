import { describe, expect, it } from 'vitest';
import { PhoneInfoResponse } from '../../../shared/api/contract';
import {
  FAULT_ANSWERS,
  PORTAL_OWN_WORDS,
  type PortalFault,
  type WorkerAnswer,
} from '../../fixtures/portal-fault-answers';
import { freshApp, setCookies } from '../fetch-app';
import { fakePortal, happyPortal, postJson, type SeenRequest, SIGNUP_BODY } from './fake-portal';

/**
 * A portal that is down, slow, failing or answering garbage yields the worker's answer the
 * islands turn into the SPEC.md §8 text of the call (test/fixtures/portal-fault-answers.ts),
 * never a hang or the portal's own words; once the portal is back, the same call succeeds.
 */

/** The worker gives up on the portal after this long (PORTAL_TIMEOUT_MS)... */
const TIMEOUT_MS = 100;
/** ...and the slow portal answers only after this. */
const SLOW_MS = 10_000;

/** How the portal answers under each fault. */
const FAULTY: Record<PortalFault, (request: SeenRequest) => Promise<Response>> = {
  down: async () => {
    throw new TypeError('fetch failed: connection refused');
  },
  slow: (request) =>
    new Promise((resolve) => setTimeout(() => resolve(happyPortal(request)), SLOW_MS)),
  error_500: async () => Response.json({ message: 'Server Error' }, { status: 500 }),
  error_500_words: async () =>
    Response.json({ errors: { messages: [PORTAL_OWN_WORDS] } }, { status: 500 }),
  not_json: async () =>
    new Response('<!doctype html><title>Maintenance</title>', {
      headers: { 'content-type': 'text/html' },
    }),
  wrong_shape: async () => Response.json({ result: 'ok', items: [] }),
};

/** A worker whose portal fails with `fault` until `heal()`. */
function workerWithFaultyPortal(fault: PortalFault) {
  let healthy = false;
  const portal = fakePortal((request) => (healthy ? happyPortal(request) : FAULTY[fault](request)));
  const fetchApp = freshApp(
    { portalFetch: portal.portalFetch },
    { PORTAL_TIMEOUT_MS: String(TIMEOUT_MS) },
  );
  return {
    fetchApp,
    heal() {
      healthy = true;
    },
  };
}

async function expectAnswer(res: Response, answer: WorkerAnswer): Promise<void> {
  expect(res.status).toBe(answer.status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  // The whole body: the portal's own words (PORTAL_OWN_WORDS) reach no one.
  expect(await res.json()).toEqual(answer.body);
}

describe.each(FAULT_ANSWERS)('portal $fault', ({ fault, lookup, signup }) => {
  it(`the phone lookup answers ${lookup.status} ${lookup.body.code}, then the data once the portal is back`, async () => {
    const { fetchApp, heal } = workerWithFaultyPortal(fault);
    const path = '/api/phone-number-info/%2B447400123456';
    const started = Date.now();
    await expectAnswer(await fetchApp(path), lookup);
    // Never a hang: a slow portal is cut off at the worker's timeout.
    expect(Date.now() - started).toBeLessThan(SLOW_MS);

    heal();
    const res = await fetchApp(path);
    expect(res.status).toBe(200);
    expect(PhoneInfoResponse.parse(await res.json()).data.phone).toBe('+447400123456');
  });

  it(`the email sign-up answers ${signup.status} ${signup.body.code} and no session, then the account`, async () => {
    const { fetchApp, heal } = workerWithFaultyPortal(fault);
    const request = () => postJson(SIGNUP_BODY, { cookie: `userUuid=${crypto.randomUUID()}` });
    const failed = await fetchApp('/api/signup', request());
    await expectAnswer(failed, signup);
    expect(setCookies(failed).has('gf_session')).toBe(false);

    heal();
    const res = await fetchApp('/api/signup', request());
    expect(res.ok).toBe(true);
    expect(setCookies(res).get('gf_session')).toBeTruthy();
  });
});
