import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PollingResultAnswer } from '../../../islands/api/client';
import { ProviderError } from '../../../islands/payments/provider';
import type { PurchaseDeps } from '../../../islands/payments/purchase';
import { purchase, resumePurchase } from '../../../islands/payments/purchase';
import type { PurchaseOutcome } from '../../../islands/payments/purchase-types';
import {
  cardRequest,
  final,
  memoryAttempts,
  pending,
  type Storage,
  succeeded,
  world,
} from './fakes';

/**
 * The races behind "no double charge, whatever they click or reload", with every provider
 * call, API call and pause resolving in an order fast-check's scheduler picks.
 */

type Scheduler = fc.Scheduler;

/** Deps whose every effect resolves when the scheduler says; after `isAlive()` turns false, never (the page is gone). */
function scheduled(
  deps: PurchaseDeps,
  s: Scheduler,
  isAlive: () => boolean = () => true,
): PurchaseDeps {
  const gone = new Promise<never>(() => {});
  const wrap =
    <A extends unknown[], R>(label: string, call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (!isAlive()) return gone;
      const result = await s.schedule(call(...args), label);
      return isAlive() ? result : gone;
    };
  const { api, provider } = deps;
  return {
    ...deps,
    api: {
      startPollingSubscription: wrap('POST polling', api.startPollingSubscription.bind(api)),
      getPollingResult: wrap('GET result', api.getPollingResult.bind(api)),
      createDirectSubscription: wrap('POST direct', api.createDirectSubscription.bind(api)),
    },
    provider: {
      ...provider,
      createPaymentMethod: wrap('createPaymentMethod', provider.createPaymentMethod.bind(provider)),
      confirmCardPayment: wrap('confirmCardPayment', provider.confirmCardPayment.bind(provider)),
    },
    sleep: wrap('sleep', deps.sleep),
  };
}

/** The result turns final on the third poll of each polling id. */
const pollThenSucceed = async (_id: string, n: number): Promise<PollingResultAnswer> =>
  n < 2 ? pending : final(succeeded());

/** Pay pressed, then pressed again at a moment the scheduler picks. */
function twoPresses(s: Scheduler, deps: PurchaseDeps) {
  let firstDone = false;
  const first = purchase(cardRequest(), deps).then((outcome) => {
    firstDone = true;
    return outcome;
  });
  let secondWhileFirstRan = false;
  const second = s.schedule(Promise.resolve(), 'second press').then(() => {
    secondWhileFirstRan = !firstDone;
    return purchase(cardRequest(), deps);
  });
  const both = Promise.all([first, second]);
  return {
    outcomes: s.waitFor(both).then(() => both),
    /** False when the second press came after the first purchase had ended. */
    secondWhileFirstRan: () => secondWhileFirstRan,
  };
}

const SUCCESS = expect.objectContaining({ kind: 'succeeded', subscriptionId: 'sub_1' });

describe('races under fast-check’s scheduler', () => {
  it('a second Pay press while a purchase runs joins it: one POST, one outcome', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const { deps: plain, portal, attempts } = world({ script: { poll: pollThenSucceed } });
        const presses = twoPresses(s, scheduled(plain, s));
        const outcomes = await presses.outcomes;
        expect(outcomes[0]).toEqual(SUCCESS);
        if (presses.secondWhileFirstRan()) {
          expect(outcomes[1]).toBe(outcomes[0]);
          expect(portal.posts).toHaveLength(1);
        } else {
          // Pressed after the first purchase ended: that is a new purchase with a key of its own.
          expect(portal.posts).toHaveLength(2);
          expect(portal.posts[1]?.key).not.toBe(portal.posts[0]?.key);
        }
        expect(attempts.storage.attempt).toBeNull();
      }),
      { numRuns: 150 },
    );
  });

  it('a reload at any moment resumes the same attempt: at most one charge, never a second POST once polling', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const storage: Storage = { attempt: null };
        const before = world({ script: { poll: pollThenSucceed }, storage });
        let alive = true;
        let outcomeBefore: PurchaseOutcome | null = null;
        const firstRun = purchase(
          cardRequest(),
          scheduled(before.deps, s, () => alive),
        ).then((outcome) => {
          outcomeBefore = outcome;
        });
        let stored: Storage['attempt'] = null;
        const reload = s.schedule(Promise.resolve(), 'reload').then(() => {
          alive = false;
          stored = storage.attempt;
        });
        await s.waitFor(Promise.race([reload, firstRun.then(() => reload)]));
        const postsBeforeReload = before.portal.posts.length;
        const polledBeforeReload = before.portal.polls.length > 0;

        // The new page: a new store object over the same localStorage, the same portal.
        const after = { ...before.deps, attempts: memoryAttempts(storage) };
        const resumed = await resumePurchase(after);

        const keys = new Set(before.portal.posts.map((post) => post.key));
        expect(keys.size).toBeLessThanOrEqual(1);
        if (outcomeBefore !== null) {
          expect(outcomeBefore).toEqual(SUCCESS);
          expect(resumed).toBeNull();
        } else if (stored === null) {
          // Reloaded before the card's payment method existed: nothing was sent.
          expect(postsBeforeReload).toBe(0);
          expect(resumed).toBeNull();
        } else {
          expect(resumed).toEqual(SUCCESS);
          // Reloaded mid-poll: the new page reads the same polling id and posts nothing.
          if (polledBeforeReload) expect(before.portal.posts).toHaveLength(1);
        }
        expect(storage.attempt).toBeNull();
      }),
      { numRuns: 150 },
    );
  });

  it('3-D Secure closed mid-challenge, with Pay pressed at any moment: failed, no repeat POST, nothing kept', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const {
          deps: plain,
          portal,
          attempts,
        } = world({
          script: {
            poll: async () =>
              final({ status: 'requires_action', payment_intent_secret: 'pi_secret' }),
          },
          provider: {
            confirmCardPayment: async () => {
              throw new ProviderError('The authentication window was closed.');
            },
          },
        });
        const presses = twoPresses(s, scheduled(plain, s));
        const closed = { kind: 'failed', text: { text: 'The authentication window was closed.' } };
        expect(await presses.outcomes).toEqual([closed, closed]);
        // A repeat POST would carry the derived `:3ds` key; none was sent.
        expect(portal.posts.every((post) => !post.key.endsWith(':3ds'))).toBe(true);
        expect(portal.posts).toHaveLength(presses.secondWhileFirstRan() ? 1 : 2);
        expect(attempts.storage.attempt).toBeNull();
      }),
      { numRuns: 100 },
    );
  });
});
