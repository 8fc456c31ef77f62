import { describe, expect, it } from 'vitest';
import { refusedForGood } from '../../../islands/payments/poll-result';
import { purchase, resumePurchase } from '../../../islands/payments/purchase';
import type { PurchaseOutcome } from '../../../islands/payments/purchase-types';
import { ApiFailure } from '../../../shared/api/request';
import {
  braintreeRequest,
  cardRequest,
  type FakeApiScript,
  final,
  httpFailure,
  networkFailure,
  succeeded,
  world,
} from './fakes';

/**
 * "At most one charge per purchase, and the truth told": once a charge call has been
 * sent, a failure that says nothing about it (any kind, at any step) keeps the attempt and its
 * key, asks again, and ends 'confirming' at the deadline, never 'failed'; when the product API
 * answers again, the same attempt completes with exactly one charge.
 */

const errorBody = (code: string) => ({ errors: { messages: ['Internal error'] }, code });

/** Every way a charge call can fail without saying whether the card was charged. */
const SILENT_FAILURES: Record<string, () => unknown> = {
  'no answer (offline, refused, dropped)': networkFailure,
  "a 500 carrying the portal's own code": () => httpFailure(500, errorBody('emulator_fault')),
  'a 500 without a body': () => httpFailure(500, null),
  'the worker: portal unavailable (502)': () => httpFailure(502, errorBody('portal_unavailable')),
  'the worker: portal timeout (504)': () => httpFailure(504, errorBody('portal_timeout')),
  'the worker: portal answered garbage (502)': () =>
    httpFailure(502, errorBody('portal_bad_response')),
  'the worker failed itself (500)': () => httpFailure(500, errorBody('internal_error')),
  'a 503': () => httpFailure(503, errorBody('portal_not_configured')),
  'the worker could keep the purchase nowhere (503)': () =>
    httpFailure(503, errorBody('purchase_not_kept')),
  'a 2xx that is not JSON': () => new ApiFailure('parse', 200, null),
  'a 2xx outside the contract': () => new ApiFailure('shape', 200, { data: {} }),
  'a 409: the same key still in flight': () => httpFailure(409, errorBody('idempotency_busy')),
  'a bug in the page': () => new TypeError("Cannot read properties of undefined (reading 'x')"),
};

const requiresAction = final({
  status: 'requires_action',
  payment_intent_secret: 'pi_3ds_secret',
  payment_intent_id: 'pi_3ds',
});

const userActionRequired = () =>
  httpFailure(422, {
    errors: { messages: ['User action required'] },
    data: { payment_method_nonce: 'nonce_to_verify', validation_amount: 6.99 },
  });

const charged = (id: string) => ({
  data: { subscription_id: id, event_id: 'evt', price_with_discount: 6.99 },
});

/**
 * The steps a charge goes through, each scripted so that `fail()` strikes at that step only, and
 * after the portal took the call in hand: the worst case, where the card may have been charged.
 */
interface Step {
  request: typeof cardRequest;
  script(fail: () => void): FakeApiScript;
}

const STEPS: Record<string, Step> = {
  'the subscription POST': {
    request: cardRequest,
    script: (fail) => ({
      start: async () => {
        fail();
        return { data: { polling_result_id: 'poll_1' } };
      },
    }),
  },
  'a poll of the result': {
    request: cardRequest,
    script: (fail) => ({
      poll: async () => {
        fail();
        return final(succeeded());
      },
    }),
  },
  'the POST after 3-D Secure': {
    request: cardRequest,
    script: (fail) => ({
      start: async (call) => {
        if (call.key.endsWith(':3ds')) fail();
        return { data: { polling_result_id: call.key.endsWith(':3ds') ? 'poll_2' : 'poll_1' } };
      },
      poll: async (id) => (id === 'poll_1' ? requiresAction : final(succeeded())),
    }),
  },
  'a poll after 3-D Secure': {
    request: cardRequest,
    script: (fail) => ({
      poll: async (id) => {
        if (id === 'poll_1') return requiresAction;
        fail();
        return final(succeeded());
      },
    }),
  },
  'the direct POST (Braintree)': {
    request: braintreeRequest,
    script: (fail) => ({
      direct: async () => {
        fail();
        return charged('sub_1');
      },
    }),
  },
  'the direct POST after verification': {
    request: braintreeRequest,
    script: (fail) => ({
      direct: async (call) => {
        if (!call.key.endsWith(':3ds')) throw userActionRequired();
        fail();
        return charged('sub_1');
      },
    }),
  },
  'an upsell POST (card on file)': {
    request: (overrides) => cardRequest({ method: { kind: 'on-file' }, ...overrides }),
    script: (fail) => ({
      start: async () => {
        fail();
        return { data: { polling_result_id: 'poll_1' } };
      },
    }),
  },
};

/** Distinct charges the portal made: one per attempt key, its 3-D Secure repeat included. */
function chargesOf(posts: { key: string }[]): number {
  return new Set(posts.map((post) => post.key.replace(/:3ds$/, ''))).size;
}

describe('a charge call that says nothing keeps the attempt', () => {
  for (const [stepName, step] of Object.entries(STEPS)) {
    describe(stepName, () => {
      it.each(Object.entries(SILENT_FAILURES))(
        '%s: confirming, then one charge',
        async (_, failure) => {
          let failing = true;
          const { deps, portal, attempts } = world({
            script: step.script(() => {
              if (failing) throw failure();
            }),
          });
          const outcomes: PurchaseOutcome[] = [await purchase(step.request(), deps)];
          expect(outcomes[0]).toMatchObject({ kind: 'confirming' });
          const kept = attempts.storage.attempt;
          expect(kept).not.toBeNull();

          // Another press while it is unconfirmed follows the same attempt, never a new one.
          outcomes.push(await purchase(step.request({ planId: 'quarterly_usd' }), deps));
          expect(attempts.storage.attempt?.key).toBe(kept?.key);

          failing = false;
          outcomes.push((await resumePurchase(deps)) as PurchaseOutcome);
          expect(outcomes.at(-1)).toMatchObject({ kind: 'succeeded' });
          expect(outcomes.filter((outcome) => outcome.kind === 'failed')).toEqual([]);
          expect(chargesOf(portal.posts)).toBe(1);
          expect(portal.posts.every((post) => post.planId === 'monthly_7d_usd')).toBe(true);
          expect(attempts.storage.attempt).toBeNull();
        },
      );
    });
  }
});

describe('what ends an attempt', () => {
  it('a 4xx from the product API is its final word: failed, attempt cleared, nothing asked again', async () => {
    const { deps, portal, attempts } = world({
      script: {
        poll: async () => {
          throw httpFailure(404, { errors: { messages: ['This polling result is not known.'] } });
        },
      },
    });
    expect(await purchase(cardRequest(), deps)).toEqual({
      kind: 'failed',
      text: { key: 'payment_failed' },
    });
    expect(portal.polls).toHaveLength(1);
    expect(attempts.storage.attempt).toBeNull();
  });

  it('the worker refusing the first POST of a new attempt ends it: nothing was ever forwarded', async () => {
    const { deps, portal, attempts } = world({
      script: {
        start: async () => {
          throw httpFailure(429, errorBody('payment_rate_limited'));
        },
      },
    });
    expect(await purchase(cardRequest(), deps)).toEqual({
      kind: 'failed',
      text: { key: 'payment_rate_limited' },
    });
    expect(portal.posts).toHaveLength(1);
    expect(attempts.storage.attempt).toBeNull();
  });

  it('the worker refusing a POST that may have been sent before says nothing: still confirming', async () => {
    let refusing = false;
    const { deps, portal, attempts } = world({
      script: {
        start: async (_call, index) => {
          if (index === 0) throw networkFailure();
          if (refusing) throw httpFailure(401, errorBody('not_signed_in'));
          return { data: { polling_result_id: 'poll_1' } };
        },
      },
    });
    // The first send got no answer and the session then lapsed: every repeat is refused.
    const first = purchase(cardRequest(), deps);
    refusing = true;
    expect(await first).toEqual({ kind: 'confirming', pollingId: null });
    expect(attempts.storage.attempt).not.toBeNull();
    refusing = false;
    expect(await resumePurchase(deps)).toMatchObject({ kind: 'succeeded' });
    expect(chargesOf(portal.posts)).toBe(1);
  });

  it('a poll the worker refuses is asked again: the charge was sent', async () => {
    const { deps, portal } = world({
      script: {
        poll: async (_id, n) => {
          if (n < 2) throw httpFailure(400, errorBody('invalid_request'));
          return final(succeeded());
        },
      },
    });
    expect(await purchase(cardRequest(), deps)).toMatchObject({ kind: 'succeeded' });
    expect(portal.polls).toHaveLength(3);
  });

  it('refusedForGood: only a 4xx answer, and not 408, 409 or 425', () => {
    expect(refusedForGood(httpFailure(402, null))).toBe(true);
    expect(refusedForGood(httpFailure(422, null))).toBe(true);
    expect(refusedForGood(httpFailure(429, null))).toBe(true);
    for (const status of [408, 409, 425, 500, 502, 503, 504]) {
      expect(refusedForGood(httpFailure(status, null))).toBe(false);
    }
    expect(refusedForGood(networkFailure())).toBe(false);
    expect(refusedForGood(new ApiFailure('shape', 200, {}))).toBe(false);
    expect(refusedForGood(new Error('bug'))).toBe(false);
  });
});
