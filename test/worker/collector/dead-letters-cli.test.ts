import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import {
  deadLetter,
  formatDeadLetter,
  latestDeadLetters,
  requestRedrive,
} from '../../../scripts/events/dead-letters';
import { latestEvents } from '../../../worker/collector/event-log';
import type { QueuedMessage } from '../../../worker/collector/queued-event';
import { redriveDeadLetters } from '../../../worker/collector/redrive';
import { d1Runner } from '../../../worker/config/versions';
import developmentWorker from '../../../worker/dev';
import { REDRIVE_PATH } from '../../../worker/dev/redrive-route';
import { ALERTS_CRON, scheduled } from '../../../worker/scheduled';
import { faultyD1 } from '../faulty-d1';
import { ORIGIN } from '../fetch-app';
import { asDeliveries, consumer } from './consume';
import { aBatchMessage, aMessage, anEvent, freshEventsDbPerTest, NOW } from './fixtures';
import { recordingQueue } from './recording-queue';

/**
 * `npm run events -- dead-letters list | show | redrive`: what the queue gave up on can be read
 * and sent back to the events queue, each row once however often the command runs, and reaches
 * the destinations from there.
 */

const logs = freshEventsDbPerTest();
const sql = () => d1Runner(env.EVENTS_DB);
const DLQ = 'geofunnel-events-dlq';
const HOUR = 3600_000;

/** Parks `messages` as the dead letter queue's consumer does, failing at `at`. */
async function park(messages: readonly QueuedMessage[], at = NOW) {
  const run = consumer({}, undefined).run;
  for (const message of messages) {
    const result = await run(asDeliveries([message]), DLQ);
    expect(result.acked).toHaveLength(1);
  }
  await env.EVENTS_DB.prepare('UPDATE dead_letters SET failed_at = ?1 WHERE failed_at = ?2')
    .bind(at, NOW)
    .run();
}

describe('list and show', () => {
  it('list shows each row: id, events, the first event type, insert_id, whether redriven', async () => {
    const one = aMessage(anEvent({ event_type: 'lead' }));
    const batch = aBatchMessage([anEvent({ event_type: 'click' }), anEvent()]);
    await park([one, batch]);
    await consumer().run([{ id: 'junk', body: { v: 99 } }]);
    const rows = await latestDeadLetters(sql(), 10);
    expect(rows.map((row) => [row.events, row.event_type, row.insert_id])).toEqual([
      [1, 'lead', one.event.insert_id],
      [2, 'click', null],
      [0, null, null],
    ]);
    expect(formatDeadLetter(rows[0]!)).toMatch(
      new RegExp(`^\\s+1  2026-11-22 08:00:00.000\\s+1  lead\\s+${one.event.insert_id}\\s+-$`),
    );
    expect((await latestDeadLetters(sql(), 1)).map((row) => row.seq)).toEqual([3]);
  });

  it('show gives the stored message whole; an unknown id is null', async () => {
    const message = aMessage(anEvent());
    await park([message]);
    const [row] = await latestDeadLetters(sql(), 1);
    const shown = await deadLetter(sql(), row!.seq);
    expect(JSON.parse(shown?.body ?? '')).toEqual(message);
    expect(await deadLetter(sql(), 999)).toBeNull();
  });
});

describe('redrive', () => {
  it('sends each row back to the events queue once, however often it is asked, and marks it', async () => {
    const messages = [aMessage(anEvent()), aBatchMessage([anEvent(), anEvent()])];
    await park(messages);
    const queue = recordingQueue();
    expect(await requestRedrive(sql(), { id: null, since: null }, NOW)).toEqual({
      requested: 2,
      waiting: 2,
    });
    expect(await redriveDeadLetters(env.EVENTS_DB, queue.queue, NOW + 1)).toBe(2);
    // Asked again, and the worker run again: nothing is sent twice.
    expect(await requestRedrive(sql(), { id: null, since: null }, NOW + 2)).toEqual({
      requested: 0,
      waiting: 0,
    });
    expect(await redriveDeadLetters(env.EVENTS_DB, queue.queue, NOW + 3)).toBe(0);
    expect(queue.sent).toEqual(messages);
    const rows = await latestDeadLetters(sql(), 10);
    expect(rows.map((row) => row.redriven_at)).toEqual([NOW + 1, NOW + 1]);
    expect(formatDeadLetter(rows[0]!)).toContain('2026-11-22 08:00:00.001');
  });

  it('--since picks the rows that failed from then on; an id picks one', async () => {
    const old = aMessage(anEvent());
    const recent = [aMessage(anEvent()), aMessage(anEvent())];
    await park([old], NOW - 48 * HOUR);
    await park(recent, NOW);
    expect(await requestRedrive(sql(), { id: null, since: NOW - HOUR }, NOW)).toMatchObject({
      requested: 2,
    });
    const queue = recordingQueue();
    await redriveDeadLetters(env.EVENTS_DB, queue.queue, NOW);
    expect(queue.sent).toEqual(recent);

    expect(await requestRedrive(sql(), { id: 1, since: null }, NOW)).toMatchObject({
      requested: 1,
    });
    await redriveDeadLetters(env.EVENTS_DB, queue.queue, NOW);
    expect(queue.sent).toEqual([...recent, old]);
  });

  it('a worker that dies after sending, before marking, sends the same message again next run', async () => {
    const message = aMessage(anEvent());
    await park([message]);
    await requestRedrive(sql(), { id: null, since: null }, NOW);
    const queue = recordingQueue();
    const dying = faultyD1(env.EVENTS_DB, { match: /SET redriven_at/, when: 'before' });
    await expect(redriveDeadLetters(dying.db, queue.queue, NOW)).rejects.toThrow();
    expect(await redriveDeadLetters(env.EVENTS_DB, queue.queue, NOW)).toBe(1);
    // The same insert id both times: the destinations keep it once.
    expect(queue.sent).toEqual([message, message]);
    expect(await redriveDeadLetters(env.EVENTS_DB, queue.queue, NOW)).toBe(0);
  });

  it('a queue that refuses leaves the rows asked for, for the next run', async () => {
    await park([aMessage(anEvent())]);
    await requestRedrive(sql(), { id: null, since: null }, NOW);
    const queue = recordingQueue({ failCalls: [0] });
    await expect(redriveDeadLetters(env.EVENTS_DB, queue.queue, NOW)).rejects.toThrow();
    expect(await redriveDeadLetters(env.EVENTS_DB, queue.queue, NOW)).toBe(1);
  });

  it('sends large rows in batches within the queue limits (100 messages, 256 KB)', async () => {
    const big = (n: number) =>
      aBatchMessage(
        Array.from({ length: 3 }, () =>
          anEvent({ event_properties: { pad: 'x'.repeat(30_000 + n) } }),
        ),
      );
    const messages = Array.from({ length: 6 }, (_, n) => big(n));
    await park(messages);
    await requestRedrive(sql(), { id: null, since: null }, NOW);
    const queue = recordingQueue();
    expect(await redriveDeadLetters(env.EVENTS_DB, queue.queue, NOW)).toBe(6);
    expect(queue.calls.length).toBeGreaterThan(1);
    expect(queue.sent).toEqual(messages);
  });

  it('the cron sends what was asked for, and the consumer delivers it', async () => {
    const message = aMessage(anEvent());
    await park([message]);
    await requestRedrive(sql(), { id: null, since: null }, NOW);
    const queue = recordingQueue();
    const ctx = createExecutionContext();
    await scheduled(
      createScheduledController({ scheduledTime: NOW, cron: ALERTS_CRON }),
      { ...env, EVENTS_QUEUE: queue.queue },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(queue.sent).toEqual([message]);
    expect(logs.lines()).toContainEqual(
      expect.objectContaining({ task: 'dead_letter_redrive', redriven: 1 }),
    );
    await consumer().run(asDeliveries(queue.sent));
    expect((await latestEvents(env.EVENTS_DB, 10)).map((row) => row.insert_id)).toEqual([
      message.event.insert_id,
    ]);
  });
});

describe('the development route the command calls under npm start', () => {
  async function post(bindings: Partial<Cloudflare.Env>, method = 'POST') {
    const ctx = createExecutionContext();
    const response = await developmentWorker.fetch(
      new Request(`${ORIGIN}${REDRIVE_PATH}`, { method }),
      { ...env, ...bindings },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return response;
  }

  it('sends what is asked for, at once', async () => {
    const message = aMessage(anEvent());
    await park([message]);
    await requestRedrive(sql(), { id: null, since: null }, NOW);
    const queue = recordingQueue();
    const response = await post({ EVENTS_QUEUE: queue.queue });
    expect(await response.json()).toEqual({ sent: 1 });
    expect(queue.sent).toEqual([message]);
  });

  it('is not there outside development, nor for a GET', async () => {
    await park([aMessage(anEvent())]);
    await requestRedrive(sql(), { id: null, since: null }, NOW);
    const queue = recordingQueue();
    expect((await post({ EVENTS_QUEUE: queue.queue, ENVIRONMENT: 'production' })).status).toBe(404);
    expect((await post({ EVENTS_QUEUE: queue.queue }, 'GET')).status).toBe(404);
    expect(queue.sent).toEqual([]);
  });
});
