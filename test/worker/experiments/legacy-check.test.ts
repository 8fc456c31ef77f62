import { env } from 'cloudflare:workers';
import { beforeEach, expect, it } from 'vitest';
import {
  forgetLegacyCheck,
  holdsLegacyVisitors,
} from '../../../worker/experiments/store/experiment-stores';

/**
 * The isolate's answer to "does EVENTS_DB still hold visitors from before the shards", asked by
 * each returning visitor's exposure and each consumer batch with a step or a purchase. workerd
 * never settles a query whose request ended before it answered: the isolate must not hand such
 * a question to later callers, or each of them hangs with it.
 */

beforeEach(() => forgetLegacyCheck());

const MINUTE = 60 * 1000;

/** EVENTS_DB as a request that ended sees its query: asked, never answered nor failed. */
const databaseOfAnEndedRequest = {
  prepare: () => ({ first: () => new Promise<never>(() => {}) }),
} as unknown as D1Database;

/** A database that must not be asked: the answer kept should do. */
const databaseNotToAsk = {
  prepare() {
    throw new Error('asked again within the recheck');
  },
} as unknown as D1Database;

/** The check, or 'still waiting' if it has not answered within a second. */
function answerWithin(check: Promise<boolean>): Promise<boolean | 'still waiting'> {
  const waiting = new Promise<'still waiting'>((resolve) =>
    setTimeout(() => resolve('still waiting'), 1_000),
  );
  return Promise.race([check, waiting]);
}

it('answers a later caller while an earlier check never comes back', async () => {
  const never = holdsLegacyVisitors(databaseOfAnEndedRequest, 0);
  expect(await answerWithin(holdsLegacyVisitors(env.EVENTS_DB, 1_000))).toBe(false);
  expect(await answerWithin(never)).toBe('still waiting');
});

it('keeps an answer five minutes, then asks again', async () => {
  await env.EVENTS_DB.prepare(
    `INSERT INTO exposures (visitor_id, phase, variant, config_version, exposed_at)
     VALUES ('00000000-0000-4000-8000-000000000001', 1, 'default', 'v1+v1', 0)`,
  ).run();
  expect(await holdsLegacyVisitors(env.EVENTS_DB, 0)).toBe(true);
  expect(await holdsLegacyVisitors(databaseNotToAsk, 5 * MINUTE - 1)).toBe(true);
  await env.EVENTS_DB.prepare('DELETE FROM exposures').run();
  expect(await holdsLegacyVisitors(env.EVENTS_DB, 5 * MINUTE)).toBe(false);
});
