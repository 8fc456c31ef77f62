import { env, exports } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { latestEvents } from '../../../worker/collector/event-log';
import { ORIGIN } from '../fetch-app';
import { anEvent, freshEventsDbPerTest } from './fixtures';

freshEventsDbPerTest();

/** worker/index.ts's default export, as the runtime calls it (Cloudflare.Exports is untyped here). */
const worker = (exports as unknown as { default: { fetch(request: Request): Promise<Response> } })
  .default;

async function storedIds(): Promise<string[]> {
  return (await latestEvents(env.EVENTS_DB, 100)).map((row) => row.insert_id);
}

// Slow by design: the consumer gets the batch after wrangler.toml's max_batch_timeout (5 s).
it('a batch posted to /e reaches the local store through the real queue and consumer, once', async () => {
  const events = [anEvent({ time: Date.now() - 1000 }), anEvent({ time: Date.now() - 500 })];
  const post = () =>
    worker.fetch(
      new Request(`${ORIGIN}/e`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
        body: JSON.stringify({ events }),
      }),
    );
  expect(await (await post()).json()).toEqual({ accepted: 2, duplicates: 0 });
  expect(await (await post()).json()).toEqual({ accepted: 0, duplicates: 2 });
  const expected = events.map((event) => event.insert_id);
  await expect.poll(storedIds, { timeout: 15_000, interval: 250 }).toEqual(expected);
}, 20_000);
