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
import { allAccept, fakeEndpoint, json, META_HOST, TIKTOK_HOST } from './fake-endpoint';
import {
  aBatchMessage,
  aMessage,
  anEvent,
  aPurchase,
  aServerMessage,
  EVERY_DESTINATION,
  freshEventsDbPerTest,
  NOW,
} from './fixtures';
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
/** A redrive as typed without --destination or --force: each row to where it never arrived. */
const OWN_DESTINATIONS = { destinations: null, force: false };

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
      // Parked straight into the dead letters: where it never arrived is not known ("-").
      new RegExp(`^\\s+1  2026-11-22 08:00:00.000\\s+1  lead\\s+${one.event.insert_id}\\s+-\\s+-$`),
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
    expect(
      await requestRedrive(sql(), { id: null, since: null, ...OWN_DESTINATIONS }, NOW),
    ).toEqual({
      requested: 2,
      waiting: 2,
      pastWindows: [],
    });
    expect(await redriveDeadLetters(env.EVENTS_DB, queue.queue, NOW + 1)).toBe(2);
    // Asked again, and the worker run again: nothing is sent twice.
    expect(
      await requestRedrive(sql(), { id: null, since: null, ...OWN_DESTINATIONS }, NOW + 2),
    ).toEqual({
      requested: 0,
      waiting: 0,
      pastWindows: [],
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
    expect(
      await requestRedrive(sql(), { id: null, since: NOW - HOUR, ...OWN_DESTINATIONS }, NOW),
    ).toMatchObject({
      requested: 2,
    });
    const queue = recordingQueue();
    await redriveDeadLetters(env.EVENTS_DB, queue.queue, NOW);
    expect(queue.sent).toEqual(recent);

    expect(
      await requestRedrive(sql(), { id: 1, since: null, ...OWN_DESTINATIONS }, NOW),
    ).toMatchObject({
      requested: 1,
    });
    await redriveDeadLetters(env.EVENTS_DB, queue.queue, NOW);
    expect(queue.sent).toEqual([...recent, old]);
  });

  it('a worker that dies after sending, before marking, sends the same message again next run', async () => {
    const message = aMessage(anEvent());
    await park([message]);
    await requestRedrive(sql(), { id: null, since: null, ...OWN_DESTINATIONS }, NOW);
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
    await requestRedrive(sql(), { id: null, since: null, ...OWN_DESTINATIONS }, NOW);
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
    await requestRedrive(sql(), { id: null, since: null, ...OWN_DESTINATIONS }, NOW);
    const queue = recordingQueue();
    expect(await redriveDeadLetters(env.EVENTS_DB, queue.queue, NOW)).toBe(6);
    expect(queue.calls.length).toBeGreaterThan(1);
    expect(queue.sent).toEqual(messages);
  });

  it('the cron sends what was asked for, and the consumer delivers it', async () => {
    const message = aMessage(anEvent());
    await park([message]);
    await requestRedrive(sql(), { id: null, since: null, ...OWN_DESTINATIONS }, NOW);
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

describe('a redrive goes where the dead letter never arrived', () => {
  const AMPLITUDE_HOST = 'api2.amplitude.com';
  const amplitudeDown = (request: { url: string }) =>
    new URL(request.url).host === AMPLITUDE_HOST ? json(503, {}) : allAccept(request as never);

  async function archived(): Promise<number> {
    return (await env.EVENTS_ARCHIVE!.list()).objects.length;
  }

  /** A verified purchase tried by every destination while Amplitude is down, until the queue gives up. */
  async function deadAfterAmplitudeOutage() {
    const purchase = aServerMessage(aPurchase());
    const endpoint = fakeEndpoint(amplitudeDown);
    const run = consumer(EVERY_DESTINATION, endpoint).run;
    const delivery = asDeliveries([purchase])[0]!;
    expect((await run([{ ...delivery, attempts: 1 }])).retried).toHaveLength(1);
    expect((await run([{ ...delivery, attempts: 11 }])).retried).toHaveLength(1);
    // The queue hands it to the dead letter queue's consumer.
    await consumer(EVERY_DESTINATION, endpoint).run([delivery], DLQ);
    return { purchase, endpoint };
  }

  it('records which destination it never reached, why, and how often it was tried', async () => {
    const { purchase, endpoint } = await deadAfterAmplitudeOutage();
    expect(endpoint.to(META_HOST)).toHaveLength(1);
    expect(endpoint.to(TIKTOK_HOST)).toHaveLength(1);
    const [row] = await latestDeadLetters(sql(), 1);
    expect(row).toMatchObject({
      insert_id: purchase.event.insert_id,
      destinations: '["amplitude"]',
      attempts: 11,
      error: '{"amplitude":"amplitude_unavailable"}',
    });
    expect(formatDeadLetter(row!)).toContain('amplitude');
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'collector_dead_letter', destinations: '["amplitude"]' }),
    );
  });

  it('after an Amplitude outage: only Amplitude hears of it again; nothing more in the archive, Meta or TikTok', async () => {
    await deadAfterAmplitudeOutage();
    const archivedBefore = await archived();
    expect(archivedBefore).toBeGreaterThan(0);
    await requestRedrive(sql(), { id: null, since: null, ...OWN_DESTINATIONS }, NOW);
    const queue = recordingQueue();
    expect(await redriveDeadLetters(env.EVENTS_DB, queue.queue, NOW)).toBe(1);
    expect(queue.sent).toEqual([expect.objectContaining({ only: ['amplitude'] })]);

    const after = fakeEndpoint(allAccept);
    const result = await consumer(EVERY_DESTINATION, after).run(asDeliveries(queue.sent));
    expect(result.retried).toEqual([]);
    expect(after.to(AMPLITUDE_HOST)).toHaveLength(1);
    expect(after.to(META_HOST)).toEqual([]);
    expect(after.to(TIKTOK_HOST)).toEqual([]);
    expect(await archived()).toBe(archivedBefore);
  });

  it('--destination sends where the operator says instead', async () => {
    await deadAfterAmplitudeOutage();
    await requestRedrive(
      sql(),
      { id: null, since: null, destinations: ['amplitude', 'archive'], force: false },
      NOW,
    );
    const queue = recordingQueue();
    await redriveDeadLetters(env.EVENTS_DB, queue.queue, NOW);
    expect(queue.sent).toEqual([expect.objectContaining({ only: ['amplitude', 'archive'] })]);
    const [row] = await latestDeadLetters(sql(), 1);
    expect(formatDeadLetter(row!)).toContain('to amplitude, archive');
  });

  it('refuses, asking nothing, past a destination’s de-duplication window unless forced', async () => {
    const old = aServerMessage(aPurchase({}, { time: NOW - 3 * 24 * HOUR }));
    await park([old]);
    const toMeta = { id: null, since: null, destinations: ['meta' as const], force: false };
    expect(await requestRedrive(sql(), toMeta, NOW)).toEqual({
      requested: 0,
      waiting: 0,
      pastWindows: [{ seq: 1, destination: 'meta', ageHours: 72 }],
    });
    // Amplitude keeps a repeat out for 7 days: three days on, it may go there.
    expect(
      await requestRedrive(sql(), { ...toMeta, destinations: ['amplitude'] }, NOW),
    ).toMatchObject({ requested: 1, pastWindows: [] });
    await park([aServerMessage(aPurchase({}, { time: NOW - 3 * 24 * HOUR }))]);
    // A row whose destinations are not known goes everywhere: Meta and TikTok among them.
    expect(
      (await requestRedrive(sql(), { id: 2, since: null, ...OWN_DESTINATIONS }, NOW)).pastWindows,
    ).toEqual([
      { seq: 2, destination: 'meta', ageHours: 72 },
      { seq: 2, destination: 'tiktok', ageHours: 72 },
    ]);
    expect(
      await requestRedrive(sql(), { id: 2, since: null, destinations: null, force: true }, NOW),
    ).toMatchObject({ requested: 1, waiting: 2 });
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
    await requestRedrive(sql(), { id: null, since: null, ...OWN_DESTINATIONS }, NOW);
    const queue = recordingQueue();
    const response = await post({ EVENTS_QUEUE: queue.queue });
    expect(await response.json()).toEqual({ sent: 1 });
    expect(queue.sent).toEqual([message]);
  });

  it('is not there outside development, nor for a GET', async () => {
    await park([aMessage(anEvent())]);
    await requestRedrive(sql(), { id: null, since: null, ...OWN_DESTINATIONS }, NOW);
    const queue = recordingQueue();
    expect((await post({ EVENTS_QUEUE: queue.queue, ENVIRONMENT: 'production' })).status).toBe(404);
    expect((await post({ EVENTS_QUEUE: queue.queue }, 'GET')).status).toBe(404);
    expect(queue.sent).toEqual([]);
  });
});
