import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { followEvents, PAGE_SIZE, POLL_INTERVAL_MS } from '../../../scripts/events/follow';
import { latestEvents, storeEvents } from '../../../worker/collector/event-log';
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
