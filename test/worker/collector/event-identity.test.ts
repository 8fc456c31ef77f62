import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CollectedEvent } from '../../../shared/analytics/batch';
import { cookielessDeviceId } from '../../../worker/collector/event-identity';
import { EVENT_USER_COOKIE } from '../../../worker/request/signed-in-user';
import { signCookie } from '../../../worker/signing';
import { sessionCookies, signedValue } from '../../fixtures/signed-cookies';
import { fakePortal, happyPortal, postJson, SIGNUP_BODY } from '../api/fake-portal';
import { captureLogsPerTest } from '../api/log-capture';
import { freshApp, ORIGIN, setCookies } from '../fetch-app';
import { anEvent, NOW, VISITOR } from './fixtures';
import { recordingQueue } from './recording-queue';

/**
 * The ids `POST /e` stores are the request's: the visitor's uuid cookie and the signed-in
 * session's user, never what the body claims (event-identity.ts, worker/request/signed-in-user.ts).
 */

const logs = captureLogsPerTest();

const OTHER_VISITOR = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

/** The collector's copy of the session's user, signed for `visitor` as the worker signs it. */
function signedEventUser(userId: string, visitor: string = VISITOR): Promise<string> {
  return signedValue(EVENT_USER_COOKIE, visitor, userId);
}

function collector() {
  const queue = recordingQueue();
  const fetchApp = freshApp({ now: () => NOW }, { EVENTS_QUEUE: queue.queue });
  const post = (events: CollectedEvent[], cookie: string) =>
    fetchApp('/e', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'sec-fetch-site': 'same-origin',
        origin: ORIGIN,
        cookie,
      },
      body: JSON.stringify({ events }),
    });
  return { queue, post, fetchApp };
}

const stored = (queue: ReturnType<typeof recordingQueue>) =>
  queue.events.map(({ event }) => ({ device_id: event.device_id, user_id: event.user_id }));

const mismatchWarnings = () =>
  logs.warnings().filter((line) => line.warning === 'event_identity_mismatch');

describe("an event posted under another visitor's and another user's ids", () => {
  it("is stored with the cookie's visitor and the session's user, and the mismatch is counted", async () => {
    const { queue, post } = collector();
    const cookie = `userUuid=${VISITOR}; ${EVENT_USER_COOKIE}=${await signedEventUser('user-1')}`;
    // The tracking user data's uuid (SPEC.md §3) rides in the properties: forged too.
    const forged = anEvent({
      device_id: OTHER_VISITOR,
      user_id: 'user-victim',
      event_properties: { screen_name: 'one_pager', uuid: OTHER_VISITOR, fbp: 'fb.1.2.3' },
    });

    const res = await post([forged, anEvent({ user_id: 'user-1' })], cookie);

    expect(await res.json()).toEqual({ accepted: 2, duplicates: 0 });
    expect(stored(queue)).toEqual([
      { device_id: VISITOR, user_id: 'user-1' },
      { device_id: VISITOR, user_id: 'user-1' },
    ]);
    expect(queue.events[0]?.event.event_properties).toEqual({
      screen_name: 'one_pager',
      uuid: VISITOR,
      fbp: 'fb.1.2.3',
    });
    expect(queue.events[1]?.event.event_properties).not.toHaveProperty('uuid');
    expect(queue.sent[0]?.context.visitor_id).toBe(VISITOR);
    // What mismatched and how often, never the ids themselves.
    expect(mismatchWarnings()).toEqual([expect.objectContaining({ device_id: 1, user_id: 1 })]);
    const text = JSON.stringify(logs.warnings());
    expect(text).not.toContain(OTHER_VISITOR);
    expect(text).not.toContain('user-victim');
  });

  it('is stored without a user when the session cookie is missing, names another user than it was signed for, or was signed for another visitor', async () => {
    const { queue, post } = collector();
    const signedForMe = await signedEventUser('user-1');
    const swapped = `user-victim.${signedForMe.split('.').at(-1)}`;
    const underAnotherKey = await signCookie(
      'not-our-key',
      EVENT_USER_COOKIE,
      VISITOR,
      'user-victim',
    );
    // The victim's own cookie, copied into the forger's browser: signed for the victim's uuid.
    const copied = await signedEventUser('user-victim', OTHER_VISITOR);

    for (const sessionCookie of [
      '',
      `${EVENT_USER_COOKIE}=${swapped}`,
      `${EVENT_USER_COOKIE}=${underAnotherKey}`,
      `${EVENT_USER_COOKIE}=user-victim`,
      `${EVENT_USER_COOKIE}=${copied}`,
    ]) {
      await post([anEvent({ user_id: 'user-victim' })], `userUuid=${VISITOR}; ${sessionCookie}`);
    }

    expect(stored(queue)).toEqual(Array(5).fill({ device_id: VISITOR, user_id: null }));
    expect(mismatchWarnings()).toHaveLength(5);
    expect(mismatchWarnings()[0]).toMatchObject({ device_id: 0, user_id: 1 });
  });

  it('an honest batch is stored as sent and counts no mismatch, an upper-case uuid included', async () => {
    const { queue, post } = collector();
    const events = [anEvent({ device_id: VISITOR.toUpperCase() }), anEvent()];
    await post(events, `userUuid=${VISITOR}`);
    expect(stored(queue)).toEqual(Array(2).fill({ device_id: VISITOR, user_id: null }));
    expect(mismatchWarnings()).toEqual([]);
  });

  it('an event from before the sign-up, sent after it, keeps its null user', async () => {
    const { queue, post } = collector();
    const cookie = `userUuid=${VISITOR}; ${EVENT_USER_COOKIE}=${await signedEventUser('user-1')}`;
    await post([anEvent({ user_id: null }), anEvent({ user_id: 'user-1' })], cookie);
    expect(stored(queue)).toEqual([
      { device_id: VISITOR, user_id: null },
      { device_id: VISITOR, user_id: 'user-1' },
    ]);
    expect(mismatchWarnings()).toEqual([]);
  });
});

describe('a batch without a visitor cookie (a browser that refuses cookies)', () => {
  it("is stored under a device id derived from the body's, never the body's, and sets no cookie", async () => {
    const { queue, post } = collector();
    const res = await post(
      [
        anEvent({ device_id: OTHER_VISITOR, user_id: 'user-victim' }),
        anEvent({ device_id: OTHER_VISITOR }),
      ],
      '',
    );

    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([]);
    const derived = await cookielessDeviceId(OTHER_VISITOR);
    expect(derived).not.toBe(OTHER_VISITOR);
    // A version-8 uuid: never a visitor's (their cookie holds a v4).
    expect(derived).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(stored(queue)).toEqual(Array(2).fill({ device_id: derived, user_id: null }));
    // No visitor to tell the experiments' outcomes about.
    expect(queue.sent[0]?.context.visitor_id).toBeUndefined();
    expect(mismatchWarnings()).toEqual([expect.objectContaining({ device_id: 0, user_id: 1 })]);
  });
});

describe('the session user the collector reads', () => {
  it('is given to /e alone, signed, by the sign-up, and is the one the events are stored with', async () => {
    const portal = fakePortal(happyPortal);
    const queue = recordingQueue();
    const fetchApp = freshApp(
      { now: () => NOW, portalFetch: portal.portalFetch },
      { EVENTS_QUEUE: queue.queue },
    );
    const signup = await fetchApp(
      '/api/signup',
      postJson(SIGNUP_BODY, { cookie: `userUuid=${VISITOR}` }),
    );
    expect(signup.status).toBe(201);
    const header = signup.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith(`${EVENT_USER_COOKIE}=`));
    expect(header).toMatch(/; Path=\/e; HttpOnly; Secure; SameSite=Lax$/);
    const value = setCookies(signup).get(EVENT_USER_COOKIE);

    await fetchApp('/e', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'sec-fetch-site': 'same-origin',
        origin: ORIGIN,
        cookie: `userUuid=${VISITOR}; ${EVENT_USER_COOKIE}=${value}`,
      },
      body: JSON.stringify({ events: [anEvent({ user_id: 'user-forged' })] }),
    });

    expect(stored(queue)).toEqual([{ device_id: VISITOR, user_id: 'user-1' }]);
  });
});

describe('when the portal no longer knows the session', () => {
  it('/e is told to forget its user too', async () => {
    const portal = fakePortal(() =>
      Response.json({ errors: { messages: ['Unauthenticated.'] } }, { status: 401 }),
    );
    const res = await freshApp({ portalFetch: portal.portalFetch })(
      '/api/users/me/payments-settings',
      { headers: { cookie: await sessionCookies('expired-token', { visitorId: VISITOR }) } },
    );
    expect(res.status).toBe(401);
    const cleared = res.headers.getSetCookie().find((c) => c.startsWith(`${EVENT_USER_COOKIE}=`));
    expect(cleared).toMatch(/^gf_event_user=;.*Max-Age=0.*Path=\/e/);
  });
});

describe('whatever ids a body claims (property)', () => {
  it("the stored ones are always the cookie's and the session's (or no user)", async () => {
    const { queue, post } = collector();
    const claimedId = fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 64 }));
    const claimedUser = fc.option(fc.string({ minLength: 1, maxLength: 128 }));
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ device_id: claimedId, user_id: claimedUser, uuid: fc.option(claimedId) }),
          {
            minLength: 1,
            maxLength: 5,
          },
        ),
        fc.uuid({ version: 4 }),
        fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/)),
        async (claims, visitor, sessionUser) => {
          queue.events.length = 0;
          const session =
            sessionUser === null
              ? ''
              : `; ${EVENT_USER_COOKIE}=${await signedEventUser(sessionUser, visitor)}`;
          const res = await post(
            claims.map(({ uuid, ...ids }) =>
              anEvent({
                ...ids,
                event_properties: { screen_name: 'one_pager', ...(uuid === null ? {} : { uuid }) },
              }),
            ),
            `userUuid=${visitor}${session}`,
          );
          expect(res.status).toBe(200);
          const own = visitor.toLowerCase();
          // A null claims nobody and stays null; any other is the session's.
          expect(stored(queue)).toEqual(
            claims.map((claim) => ({
              device_id: own,
              user_id: claim.user_id === null ? null : sessionUser,
            })),
          );
          for (const [i, { event }] of queue.events.entries()) {
            if (claims[i]?.uuid !== null) expect(event.event_properties.uuid).toBe(own);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
