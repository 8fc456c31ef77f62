import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { archiveDayPrefix } from '../../../worker/collector/archive-layout';
import { type ArchiveLine, archiveLine } from '../../../worker/collector/archive-line';
import { listArchiveObjects, readArchiveObject } from '../../../worker/collector/event-archive';
import { latestEvents } from '../../../worker/collector/event-log';
import type { QueuedEvent } from '../../../worker/collector/queued-event';
import { asDeliveries, consumer } from './consume';
import { allAccept, fakeEndpoint, json, META_HOST } from './fake-endpoint';
import {
  aMessage,
  anEvent,
  aPurchase,
  aServerMessage,
  countRows,
  freshEventsDbPerTest,
  NOW,
} from './fixtures';

const logs = freshEventsDbPerTest();

/**
 * Files share a workerd, and another file's events sent through the real queue with the same
 * fixed clock can be archived under the fixtures' day after its own reset: each test here starts
 * from an empty day, so it counts only the objects it wrote.
 */
beforeEach(async () => {
  const leftovers = await archive().list({ prefix: archiveDayPrefix('2026-11-22') });
  if (leftovers.objects.length > 0) await archive().delete(leftovers.objects.map(({ key }) => key));
});

/** A deployed worker as wrangler.toml's top level makes it: no AMPLITUDE_API_KEY. */
const PRODUCTION = { ENVIRONMENT: 'production' };
const HOUR = 3_600_000;
const KEY = /^events\/dt=2026-11-22\/hour=08\/\d{13}-[0-9a-f]{8}\.ndjson\.gz$/;

/**
 * What the archive holds for the fixtures' day (NOW): each object's key and its lines, in key
 * order. Only that day: a queue message another file left behind may still be consumed while
 * this file runs, and it lands under the day it was really received.
 */
async function archived(): Promise<{ key: string; records: ArchiveLine[] }[]> {
  const objects = await listArchiveObjects(archive(), archiveDayPrefix('2026-11-22'));
  return Promise.all(
    objects.map(async ({ key }) => ({
      key,
      records: (await readArchiveObject(archive(), key)) ?? [],
    })),
  );
}

function archive(): R2Bucket {
  if (!env.EVENTS_ARCHIVE) throw new Error('wrangler.toml [env.development] binds EVENTS_ARCHIVE');
  return env.EVENTS_ARCHIVE;
}

function insertIds(messages: readonly QueuedEvent[]): string[] {
  return messages.map((message) => message.event.insert_id);
}

/** The bucket, but `put` fails for keys that `fails` picks (R2 unavailable, say). */
function failingBucket(fails: (key: string) => boolean = () => true): R2Bucket {
  const bucket = archive();
  return {
    put: (key: string, ...rest: unknown[]) =>
      fails(key)
        ? Promise.reject(new Error('R2 is unavailable'))
        : bucket.put(key, ...(rest as [ArrayBuffer, R2PutOptions])),
    get: (key: string) => bucket.get(key),
    head: (key: string) => bucket.head(key),
    list: (options?: R2ListOptions) => bucket.list(options),
  } as unknown as R2Bucket;
}

describe('a deployed worker without an Amplitude key', () => {
  it.each([
    ['production', PRODUCTION],
    ['staging', { ENVIRONMENT: 'staging' }],
    ['an unset ENVIRONMENT', { ENVIRONMENT: undefined }],
  ])(
    '%s writes one gzip object under the received hour, and no event row to D1',
    async (_, vars) => {
      const messages = [
        aMessage(anEvent({ event_properties: { screen_name: 'one_pager', source: 'server' } })),
        aServerMessage(aPurchase()),
      ];
      const result = await consumer(vars).run(asDeliveries(messages));

      expect(result.acked).toHaveLength(2);
      const objects = await archived();
      expect(objects).toHaveLength(1);
      expect(objects[0]?.key).toMatch(KEY);
      expect(objects[0]?.records).toEqual(messages.map(archiveLine));
      // Who vouches for an event is the message's word, never a property the browser sent; only
      // the verified purchase carries revenue.
      expect(
        objects[0]?.records.map((record) => [record.v, record.source, record.revenue]),
      ).toEqual([
        [2, 'browser', null],
        [2, 'server', 6.99],
      ]);
      expect(objects[0]?.records[0]?.received_at).toBe(new Date(NOW).toISOString());
      expect(await countRows('events')).toBe(0);
      expect(await countRows('dead_letters')).toBe(0);
      expect(logs.lines()).toContainEqual(expect.objectContaining({ delivered_archive: 2 }));
    },
  );

  it('stores gzip bytes as they are: no Content-Encoding for a store to transcode', async () => {
    await consumer(PRODUCTION).run(asDeliveries([aMessage(anEvent())]));
    const [object] = await listArchiveObjects(archive(), archiveDayPrefix('2026-11-22'));
    const stored = await archive().get(object?.key ?? '');
    expect(stored?.httpMetadata).toEqual({ contentType: 'application/gzip' });
    expect(stored?.customMetadata).toEqual({ events: '1' });
    const bytes = new Uint8Array((await stored?.arrayBuffer()) ?? new ArrayBuffer(0));
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
  });

  it('puts events received in different hours into their own partitions', async () => {
    const late = aMessage(anEvent(), { received_at: NOW - HOUR + 1 });
    const now = aMessage(anEvent());
    await consumer(PRODUCTION).run(asDeliveries([late, now]));
    const objects = await archived();
    expect(objects.map((object) => object.key.split('/').slice(1, 3).join('/'))).toEqual([
      'dt=2026-11-22/hour=07',
      'dt=2026-11-22/hour=08',
    ]);
    expect(objects.map((object) => object.records.map((record) => record.insert_id))).toEqual([
      insertIds([late]),
      insertIds([now]),
    ]);
  });

  it('a failed write retries its events later, and they arrive once the bucket answers', async () => {
    const messages = [aMessage(anEvent()), aMessage(anEvent())];
    const failed = await consumer({ ...PRODUCTION, EVENTS_ARCHIVE: failingBucket() }).run(
      asDeliveries(messages),
    );
    expect(failed.acked).toEqual([]);
    expect(failed.retried).toEqual(
      messages.map(({ event }) => ({ id: `msg-${event.insert_id}`, delaySeconds: 30 })),
    );
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'archive_write_failed', events: 2 }),
    );
    expect(await archived()).toEqual([]);

    const again = await consumer(PRODUCTION).run(asDeliveries(messages, 2));
    expect(again.acked).toHaveLength(2);
    const objects = await archived();
    expect(objects.map((object) => object.records.map((record) => record.insert_id))).toEqual([
      insertIds(messages),
    ]);
    expect(await countRows('events')).toBe(0);
  });

  it('retries only the events of the object that failed', async () => {
    const earlier = aMessage(anEvent(), { received_at: NOW - HOUR });
    const current = aMessage(anEvent());
    const bucket = failingBucket((key) => key.includes('/hour=07/'));
    const result = await consumer({ ...PRODUCTION, EVENTS_ARCHIVE: bucket }).run(
      asDeliveries([earlier, current]),
    );
    expect(result.acked).toEqual([`msg-${current.event.insert_id}`]);
    expect(result.retried).toEqual([{ id: `msg-${earlier.event.insert_id}`, delaySeconds: 30 }]);
  });

  it('a message retried for another destination is not archived again', async () => {
    let metaUp = false;
    const endpoint = fakeEndpoint((request) =>
      new URL(request.url).host === META_HOST && !metaUp ? json(503, {}) : allAccept(request),
    );
    const bindings = { ...PRODUCTION, META_PIXEL_ID: '1234567890', META_ACCESS_TOKEN: 'token' };
    const messages = [aServerMessage(aPurchase())];
    expect((await consumer(bindings, endpoint).run(asDeliveries(messages))).retried).toHaveLength(
      1,
    );
    metaUp = true;
    const again = await consumer(bindings, endpoint).run(asDeliveries(messages, 2));
    expect(again.acked).toHaveLength(1);
    expect(await archived()).toHaveLength(1);
  });

  it('an acked message the queue hands over again lands in a second object: readers take each insert_id once', async () => {
    const messages = [aMessage(anEvent()), aMessage(anEvent())];
    await consumer(PRODUCTION).run(asDeliveries(messages));
    // Acked on its first try, nothing was written down (deliveries): the queue's rare second
    // hand-over writes the events again.
    const again = await consumer(PRODUCTION).run(asDeliveries(messages, 2));
    expect(again.acked).toHaveLength(2);
    const lines = (await archived()).flatMap((object) => object.records);
    expect(lines).toHaveLength(4);
    expect([...new Set(lines.map((line) => line.insert_id))]).toEqual(insertIds(messages));
  });

  it('without the EVENTS_ARCHIVE binding: says so on every batch and retries, never falls back to D1', async () => {
    const messages = [aMessage(anEvent()), aMessage(anEvent())];
    const result = await consumer({ ...PRODUCTION, EVENTS_ARCHIVE: undefined }).run(
      asDeliveries(messages),
    );
    expect(result.acked).toEqual([]);
    expect(result.retried).toHaveLength(2);
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'archive_not_configured', events: 2 }),
    );
    expect(await countRows('events')).toBe(0);
  });
});

describe('other deployments', () => {
  it('with an Amplitude key, every event goes to Amplitude and is archived too: the archive is the record', async () => {
    const { run, endpoint } = consumer(
      { ...PRODUCTION, AMPLITUDE_API_KEY: 'amp-key' },
      fakeEndpoint(() => json(200, { code: 200 })),
    );
    const messages = [aMessage(anEvent()), aServerMessage(aPurchase())];
    expect((await run(asDeliveries(messages))).acked).toHaveLength(2);
    expect(endpoint.seen).toHaveLength(1);
    const sent = endpoint.seen[0]?.body.events as { insert_id: string }[];
    expect(sent.map((event) => event.insert_id)).toEqual(insertIds(messages));
    const objects = await archived();
    expect(objects.flatMap((object) => object.records)).toEqual(messages.map(archiveLine));
    expect(await countRows('events')).toBe(0);
    expect(logs.lines()).toContainEqual(
      expect.objectContaining({ delivered_amplitude: 2, delivered_archive: 2 }),
    );
  });

  it('Amplitude down does not hold the archive: only Amplitude hears of the events again', async () => {
    let amplitudeUp = false;
    const endpoint = fakeEndpoint(() => (amplitudeUp ? json(200, { code: 200 }) : json(503, {})));
    const bindings = { ...PRODUCTION, AMPLITUDE_API_KEY: 'amp-key' };
    const messages = [aMessage(anEvent())];
    expect((await consumer(bindings, endpoint).run(asDeliveries(messages))).retried).toHaveLength(
      1,
    );
    expect((await archived()).flatMap((object) => object.records)).toHaveLength(1);
    amplitudeUp = true;
    expect((await consumer(bindings, endpoint).run(asDeliveries(messages, 2))).acked).toHaveLength(
      1,
    );
    expect(endpoint.seen).toHaveLength(2);
    // Written once: the retry went to Amplitude alone.
    expect((await archived()).flatMap((object) => object.records)).toHaveLength(1);
  });

  it('with an Amplitude key but no EVENTS_ARCHIVE binding: Amplitude gets the events, the record is retried and alerted', async () => {
    const endpoint = fakeEndpoint(() => json(200, { code: 200 }));
    const result = await consumer(
      { ...PRODUCTION, AMPLITUDE_API_KEY: 'amp-key', EVENTS_ARCHIVE: undefined },
      endpoint,
    ).run(asDeliveries([aMessage(anEvent())]));
    expect(endpoint.seen).toHaveLength(1);
    expect(result.retried).toHaveLength(1);
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'archive_not_configured', events: 1 }),
    );
  });

  it('in development (npm start), events go to the local store and to the archive', async () => {
    const messages = [aMessage(anEvent()), aMessage(anEvent())];
    await consumer({ ENVIRONMENT: 'development' }).run(asDeliveries(messages));
    const stored = await latestEvents(env.EVENTS_DB, 10);
    expect(stored.map((row) => row.insert_id)).toEqual(insertIds(messages));
    const objects = await archived();
    expect(objects.map((object) => object.records.map((record) => record.insert_id))).toEqual([
      insertIds(messages),
    ]);
  });
});
