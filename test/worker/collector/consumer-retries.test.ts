import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import {
  DEAD_LETTER_MAX_RETRIES,
  deadLetterRetryDelaySeconds,
  EVENTS_MAX_RETRIES,
  retryDelaySeconds,
} from '../../../worker/collector/consumer/outcome';
import { asDeliveries, consumer } from './consume';
import { aBatchMessage, aMessage, anEvent, countRows, freshEventsDbPerTest } from './fixtures';

/**
 * Nothing is deleted for failing: every consumer, the dead letter queues' included, answers a
 * failure by retrying the message later with a growing delay, never by acking it, and what the
 * dead letter queue holds reaches EVENTS_DB dead_letters however long EVENTS_DB is down.
 */

const logs = freshEventsDbPerTest();

/** EVENTS_DB in an outage: every statement fails. */
const downDb = {
  prepare() {
    throw new Error('D1_ERROR: database unavailable');
  },
  batch() {
    throw new Error('D1_ERROR: database unavailable');
  },
} as unknown as D1Database;

const DLQS = ['geofunnel-events-dlq', 'geofunnel-events-staging-dlq'];

describe('the dead letter queue, while EVENTS_DB is down', () => {
  it.each(DLQS)('%s retries each message with a growing delay, never acks it', async (queue) => {
    const messages = [aMessage(anEvent()), aBatchMessage([anEvent(), anEvent()])];
    const delays: number[] = [];
    for (const attempts of [1, 2, 5, 10, DEAD_LETTER_MAX_RETRIES]) {
      const result = await consumer({ EVENTS_DB: downDb }).run(
        asDeliveries(messages, attempts),
        queue,
      );
      expect(result.acked).toEqual([]);
      expect(result.retried).toHaveLength(2);
      const [first] = result.retried;
      expect(
        result.retried.every(
          (retry: { delaySeconds?: number }) => retry.delaySeconds === first?.delaySeconds,
        ),
      ).toBe(true);
      delays.push(first?.delaySeconds ?? 0);
    }
    // 30 s, doubling, at most 4 hours.
    expect(delays).toEqual([30, 60, 480, 14_400, 14_400]);
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'collector_db_failed', queue }),
    );
    expect(logs.errors()).not.toContainEqual(
      expect.objectContaining({ error: 'collector_dead_letter' }),
    );
  });

  it('keeps the message once EVENTS_DB is back, and only then acks it', async () => {
    const message = aMessage(anEvent());
    const down = await consumer({ EVENTS_DB: downDb }).run(asDeliveries([message], 3), DLQS[0]);
    expect(down.acked).toEqual([]);
    expect(await countRows('dead_letters')).toBe(0);
    const back = await consumer().run(asDeliveries([message], 4), DLQS[0]);
    expect(back.acked).toHaveLength(1);
    const row = await env.EVENTS_DB.prepare('SELECT insert_id, body FROM dead_letters').first();
    expect(row).toEqual({ insert_id: message.event.insert_id, body: JSON.stringify(message) });
  });

  it('its retries outlast the longest retention a queue can have (14 days)', () => {
    let waited = 0;
    for (let attempts = 1; attempts <= DEAD_LETTER_MAX_RETRIES; attempts++)
      waited += deadLetterRetryDelaySeconds(attempts);
    expect(waited).toBeGreaterThan(14 * 24 * 3600);
  });
});

describe('the events queue', () => {
  it('retries with a growing delay, at most an hour, for about 4 hours before the dead letters', () => {
    const delays = Array.from({ length: EVENTS_MAX_RETRIES }, (_, index) =>
      retryDelaySeconds(index + 1),
    );
    expect(delays.slice(0, 8)).toEqual([30, 60, 120, 240, 480, 960, 1920, 3600]);
    expect(Math.max(...delays)).toBe(3600);
    const waited = delays.reduce((sum, delay) => sum + delay, 0);
    // The subscription ledger waits a day for a purchase; an archive hour is loaded 6 hours on.
    expect(waited).toBeGreaterThan(3 * 3600);
    expect(waited).toBeLessThan(5 * 3600);
  });

  it('a message it cannot read, while EVENTS_DB is down, is retried with a delay, not acked', async () => {
    const result = await consumer({ EVENTS_DB: downDb }).run([
      { id: 'junk', body: { v: 99 }, attempts: 2 },
    ]);
    expect(result).toEqual({ acked: [], retried: [{ id: 'junk', delaySeconds: 60 }] });
  });

  it('an event whose local store write fails (EVENTS_DB down) is retried with a delay, not acked', async () => {
    const result = await consumer({ EVENTS_DB: downDb }).run(asDeliveries([aMessage(anEvent())]));
    expect(result.acked).toEqual([]);
    expect(result.retried).toEqual([{ id: expect.any(String), delaySeconds: 30 }]);
  });
});
