import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { archivedObjects, followArchive } from '../../../scripts/events/archive';
import { followEvents, PAGE_SIZE, POLL_INTERVAL_MS } from '../../../scripts/events/follow';
import { archiveDestination } from '../../../worker/collector/consumer/archive';
import { readArchiveText } from '../../../worker/collector/event-archive';
import { latestEvents, storeEvents } from '../../../worker/collector/event-log';
import type { QueuedEvent } from '../../../worker/collector/queued-event';
import { aMessage, anEvent, freshEventsDbPerTest, NOW } from './fixtures';

freshEventsDbPerTest();

/** The insert_id at the end of each printed line. */
function insertIds(lines: readonly string[]): string[] {
  return lines.map((line) => line.split('  ').at(-1) ?? '');
}

it('tail prints the stored events, then each new one in arrival order, until stopped', async () => {
  const first = [aMessage(anEvent()), aMessage(anEvent())];
  await storeEvents(env.EVENTS_DB, first);
  // Arrives later but happened earlier by the visitor's clock: printed after, once.
  const late = aMessage(anEvent({ time: NOW - 60_000 }));
  const printed: string[] = [];
  const sleeps: number[] = [];
  let polls = 0;
  const count = await followEvents(env.EVENTS_DB, {
    print: (line) => printed.push(line),
    sleep: async (ms) => {
      sleeps.push(ms);
      polls += 1;
      if (polls === 1) await storeEvents(env.EVENTS_DB, [late]);
    },
    stopped: () => polls >= 3,
  });
  expect(insertIds(printed)).toEqual([...first, late].map((m) => m.event.insert_id));
  expect(count).toBe(3);
  expect(sleeps).toEqual([POLL_INTERVAL_MS, POLL_INTERVAL_MS, POLL_INTERVAL_MS]);
});

it('tail reads a large store in pages without waiting between full pages', async () => {
  const messages = Array.from({ length: PAGE_SIZE + 3 }, () => aMessage(anEvent()));
  for (let at = 0; at < messages.length; at += 100) {
    await storeEvents(env.EVENTS_DB, messages.slice(at, at + 100));
  }
  const printed: string[] = [];
  let sleeps = 0;
  await followEvents(env.EVENTS_DB, {
    print: (line) => printed.push(line),
    sleep: async () => {
      sleeps += 1;
    },
    stopped: () => sleeps > 0,
  });
  expect(insertIds(printed)).toEqual(messages.map((m) => m.event.insert_id));
  expect(sleeps).toBe(1);
});

it('list reads the last n events, oldest first', async () => {
  const messages = Array.from({ length: 5 }, () => aMessage(anEvent()));
  await storeEvents(env.EVENTS_DB, messages);
  const last = await latestEvents(env.EVENTS_DB, 2);
  expect(last.map((row) => row.insert_id)).toEqual(messages.slice(3).map((m) => m.event.insert_id));
});

function archive(): R2Bucket {
  if (!env.EVENTS_ARCHIVE) throw new Error('wrangler.toml [env.development] binds EVENTS_ARCHIVE');
  return env.EVENTS_ARCHIVE;
}

/** Archives the messages as the consumer does, its clock at `writtenAt`. */
async function archived(messages: readonly QueuedEvent[], writtenAt = NOW): Promise<void> {
  await archiveDestination(archive(), { now: () => writtenAt }).deliver(messages);
}

const DAY = 86_400_000;

/**
 * The objects this file wrote, named by its clock (archive-layout.ts: an object is named by when
 * it was written). Files share a workerd, and another file's events sent through the real queue
 * with the fixtures' clock can be archived under the same day while this one runs, named by the
 * real time (two such objects of 30 and 2 events joined this day once).
 */
const writtenHere = <Listed extends { key: string }>(objects: Listed[]) =>
  objects.filter(({ key }) => [NOW, NOW + 1].some((at) => key.includes(`/${at}-`)));

it('archive list names every object, or those of one UTC day, with its event count', async () => {
  await archived([aMessage(anEvent()), aMessage(anEvent())]);
  await archived([aMessage(anEvent(), { received_at: NOW - DAY })], NOW + 1);
  const yesterday = writtenHere(await archivedObjects(archive(), '2026-11-21'));
  const today = writtenHere(await archivedObjects(archive(), '2026-11-22'));
  expect(yesterday.map((object) => [object.key.split('/')[2], object.events])).toEqual([
    ['hour=08', 1],
  ]);
  expect(today.map((object) => object.events)).toEqual([2]);
  // All days: a queue message another file left behind may add an object of its own day.
  const all = await archivedObjects(archive(), null);
  expect(all.map((object) => object.key)).toEqual(
    expect.arrayContaining([...yesterday, ...today].map((object) => object.key)),
  );
  expect(await archivedObjects(archive(), '2026-11-23')).toEqual([]);
});

it('archive read prints an object decompressed, one JSON line per event', async () => {
  const messages = [aMessage(anEvent()), aMessage(anEvent())];
  await archived(messages);
  const [object] = writtenHere(await archivedObjects(archive(), null));
  const text = await readArchiveText(archive(), object?.key ?? '');
  const lines = text?.split('\n') ?? [];
  expect(lines.at(-1)).toBe('');
  expect(lines.slice(0, -1).map((line) => JSON.parse(line).insert_id)).toEqual(
    messages.map((message) => message.event.insert_id),
  );
  expect(await readArchiveText(archive(), 'events/none.ndjson.gz')).toBeNull();
});

it('archive tail prints every archived event, then those of each new object, once each', async () => {
  const first = [aMessage(anEvent()), aMessage(anEvent())];
  await archived(first);
  // Written later into an older partition (a retried message keeps its received hour).
  const retried = aMessage(anEvent(), { received_at: NOW - DAY });
  const printed: string[] = [];
  let polls = 0;
  const count = await followArchive(archive(), {
    print: (line) => printed.push(line),
    sleep: async () => {
      polls += 1;
      if (polls === 1) await archived([retried], NOW + 1000);
    },
    stopped: () => polls >= 3,
  });
  const ours = [...first, retried].map((m) => m.event.insert_id);
  // Only ours: a queue message another file left behind may be archived meanwhile.
  expect(insertIds(printed).filter((id) => ours.includes(id))).toEqual(ours);
  expect(count).toBe(printed.length);
});
