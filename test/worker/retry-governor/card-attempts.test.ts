import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import {
  type CardAttempts,
  durableCardAttempts,
} from '../../../worker/retry-governor/card-attempts';
import type { ProposedAttempt } from '../../../worker/retry-governor/governor';

const DAY = 24 * 60 * 60 * 1000;
/** Now, so the object's alarm (30 days after the newest attempt) stays in the future. */
const NOW = Date.now();
const store = durableCardAttempts(env.CARD_ATTEMPTS);
const declined = { result: 'declined', responseCode: '05', adviceCode: null } as const;

function mastercard(at: number): ProposedAttempt {
  return { at, network: 'mastercard', initiator: 'merchant', provider: 'stripe' };
}

function cardObject(cardKey: string): DurableObjectStub<CardAttempts> {
  return env.CARD_ATTEMPTS.get(env.CARD_ATTEMPTS.idFromName(`card:${cardKey}`));
}

/** Admits and declines `count` attempts of the card, a minute apart from `from`. */
async function declineMany(cardKey: string, count: number, from: number) {
  for (let i = 0; i < count; i++) {
    const id = `${cardKey}-${from}-${i}`;
    expect(await store.admit(cardKey, id, mastercard(from + i * 60_000))).toEqual({
      allowed: true,
    });
    expect(await store.settle(cardKey, id, declined)).toBe(true);
  }
}

describe('the card attempts store (CardAttempts Durable Object)', () => {
  it('keeps its count across a new instance of the object', async () => {
    await declineMany('fp_restart', 10, NOW);
    const object = cardObject('fp_restart');
    await runInDurableObject(object, (instance) => {
      (instance as unknown as { marker?: string }).marker = 'first instance';
    });
    // Throws away the instance, as an eviction or a deploy does; the storage stays.
    await runInDurableObject(object, (_, state) => state.abort()).catch(() => {});
    const marker = await runInDurableObject(
      cardObject('fp_restart'),
      (instance) => (instance as unknown as { marker?: string }).marker,
    );
    expect(marker).toBeUndefined();
    expect(await store.admit('fp_restart', 'eleventh', mastercard(NOW + 3_600_000))).toEqual({
      allowed: false,
      rule: 'mastercard_24_hours',
      until: NOW + DAY,
    });
    expect(await store.recent('fp_restart')).toHaveLength(10);
  });

  it('counts an attempt asked again once, and lets only one of two at once take the last place', async () => {
    await declineMany('fp_race', 8, NOW);
    expect(await store.admit('fp_race', 'same', mastercard(NOW + 600_000))).toEqual({
      allowed: true,
    });
    expect(await store.admit('fp_race', 'same', mastercard(NOW + 610_000))).toEqual({
      allowed: true,
    });
    expect(await store.recent('fp_race')).toHaveLength(9);
    const both = await Promise.all([
      store.admit('fp_race', 'left', mastercard(NOW + 620_000)),
      store.admit('fp_race', 'right', mastercard(NOW + 620_000)),
    ]);
    expect(both.filter((decision) => decision.allowed)).toHaveLength(1);
  });

  it('prunes on write what no rule counts again: older than 30 days, or before an approval', async () => {
    await declineMany('fp_prune', 3, NOW - 29 * DAY);
    expect(await store.recent('fp_prune')).toHaveLength(3);
    await declineMany('fp_prune', 1, NOW + 2 * DAY);
    const kept = await store.recent('fp_prune');
    expect(kept.map((attempt) => attempt.at)).toEqual([NOW + 2 * DAY]);

    await store.admit('fp_prune', 'paid', mastercard(NOW + 2 * DAY + 60_000));
    await store.settle('fp_prune', 'paid', { result: 'approved' });
    expect((await store.recent('fp_prune')).map((attempt) => attempt.id)).toEqual(['paid']);
  });

  it('forgets the card at its alarm, 30 days after its newest attempt', async () => {
    await declineMany('fp_alarm', 2, NOW);
    const object = cardObject('fp_alarm');
    const alarm = await runInDurableObject(object, (_, state) => state.storage.getAlarm());
    expect(alarm).toBe(NOW + 60_000 + 30 * DAY);
    expect(await runDurableObjectAlarm(object)).toBe(true);
    expect(await store.recent('fp_alarm')).toEqual([]);
  });

  it('refuses a card key or attempt id that names nothing, and says so for an unknown attempt', async () => {
    expect(() => store.recent('  ')).toThrow('card key must be a non-empty string');
    expect(() => store.admit('fp_bad', '', mastercard(NOW))).toThrow(
      'attempt id must be a non-empty string',
    );
    expect(() => store.admit('fp_bad', 'a', mastercard(Number.NaN))).toThrow('is no time');
    expect(await store.settle('fp_bad', 'never-admitted', declined)).toBe(false);
  });
});
