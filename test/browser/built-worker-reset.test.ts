import { describe, expect, it } from 'vitest';
import { loadEvents } from '../../islands/analytics/page-events';
import { openPage } from '../../scripts/load/journey';
import { type BrowserSession, startBrowserSession } from './harness';
import { httpVisitor, pageTracker } from './http-visitors';

/**
 * The files of a test process take turns in one built worker, emptied before each next file
 * (harness.ts, keptWorker; scripts/built-worker.ts, reset()): what a file left behind, written
 * or still on its way, in objects still running or ended, must be gone for the next, as if its
 * worker had just started. A first session here leaves all of it, and a second, as the next
 * file's would, looks.
 */

/** Looks a number up as the searching screen's script does, from the worker's own origin. */
function lookUp(session: BrowserSession, phone: string): Promise<Response> {
  const { url } = session.worker;
  return fetch(new URL(`/api/phone-number-info/${encodeURIComponent(phone)}`, url), {
    headers: { origin: url.origin, 'sec-fetch-site': 'same-origin' },
  });
}

/** The split variant the worker logged for a visit to the landing. */
async function variantOfAVisit(session: BrowserSession): Promise<unknown> {
  await (await fetch(session.worker.url)).text();
  return session.worker.logs.findLast((line) => line.path === '/')?.variant;
}

/**
 * A visitor (the `n`th address) who opens the landing and leaves it, by their visitor id: the
 * page's tracker posts its load events to the collector, whose queue stores them a batch later.
 * By HTTP, as the page sends them (http-visitors.ts): the events only need to be on their way.
 */
async function landingVisitor(session: BrowserSession, n: number): Promise<string> {
  const visitor = httpVisitor(session, n);
  const path = '/?skip_split=true';
  const { html } = await openPage(visitor.fetch, path);
  const { tracker, answered } = pageTracker(visitor, { html, path });
  for (const name of loadEvents('one_pager')) tracker.track(name);
  await tracker.flush();
  expect(answered).toEqual([200]);
  return visitor.visitorId();
}

/** How many events the collector stored: the visitor's, or everyone's. */
async function storedEvents(session: BrowserSession, device?: string): Promise<number> {
  const { results } = await session.worker.eventsDb
    .prepare('SELECT COUNT(*) AS n FROM events WHERE ?1 IS NULL OR device_id = ?1')
    .bind(device ?? null)
    .all<{ n: number }>();
  return results[0]?.n ?? 0;
}

describe('the worker the next browser file of a process gets', () => {
  // slow: two sessions of the built worker, visitors' events waited through the queue on both
  it('holds nothing the file before left: config, rows, events, pictures, counters or logs', async () => {
    const first = await startBrowserSession();
    // The lookup limit of one number block (five an hour), reached; each lookup a portal row.
    const statuses: number[] = [];
    for (let n = 1; n <= 6; n += 1) statuses.push((await lookUp(first, `+1202555010${n}`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    await first.worker.putConfig('split', {
      version: 'left-behind',
      defaultVariant: 'leftover',
      variants: { leftover: { weight: 1, flow: 'default' } },
    });
    expect(await variantOfAVisit(first)).toBe('leftover');
    await (await first.worker.bucket('PICTURES')).put('left-behind.png', new Uint8Array([1]));
    // The objects holding these end, as workerd ends one left idle for a minute: the next
    // file must not find what they stored either.
    await first.worker.endObjects();
    const stored = await landingVisitor(first, 1);
    await expect.poll(() => storedEvents(first, stored)).toBeGreaterThan(0);
    // A last visitor's events still queued for the collector as the file ends.
    const leaving = await landingVisitor(first, 2);
    await first.stop();

    const next = await startBrowserSession();
    try {
      // The same workerd, not a new one.
      expect(next.worker.url.href).toBe(first.worker.url.href);
      expect(next.worker.logs).toEqual([]);
      const lookups = next.worker.portalDb.prepare('SELECT COUNT(*) AS n FROM phone_lookups');
      expect((await lookups.first<{ n: number }>())?.n).toBe(0);
      expect((await (await next.worker.bucket('PICTURES')).list()).objects).toEqual([]);
      expect(await variantOfAVisit(next)).toBe('default');
      expect((await lookUp(next, '+12025550107')).status).toBe(200);
      // Once a new visitor's events are stored, the batch queued before the reset would have
      // been too: none of it, nor the stored events, came through.
      const fresh = await landingVisitor(next, 3);
      await expect.poll(() => storedEvents(next, fresh)).toBeGreaterThan(0);
      expect(await storedEvents(next, leaving)).toBe(0);
      expect(await storedEvents(next, stored)).toBe(0);
      expect(await storedEvents(next)).toBe(await storedEvents(next, fresh));
    } finally {
      await next.stop();
    }
  });

  it('gives a second session of one file a worker of its own, stopped with it', async () => {
    const held = await startBrowserSession();
    const second = await startBrowserSession();
    try {
      expect(second.worker.url.href).not.toBe(held.worker.url.href);
      expect((await fetch(second.worker.url)).status).toBe(200);
    } finally {
      await second.stop();
      await held.stop();
    }
    await expect(fetch(second.worker.url)).rejects.toThrow();
  });
});

describe('the browser the next visitor of a file gets', () => {
  it('runs on the real clock after a visitor whose context faked the time', async () => {
    const session = await startBrowserSession();
    try {
      const year = async (page: import('playwright-core').Page) => {
        await page.goto('/robots.txt');
        return page.evaluate(() => new Date().getFullYear());
      };
      const faked = await session.newVisitor();
      await faked.page.clock.setFixedTime(new Date('2001-02-03T04:05:06Z'));
      expect(await year(faked.page)).toBe(2001);
      await faked.context.close();
      const next = await session.newVisitor();
      expect(await year(next.page)).toBe(new Date().getFullYear());
      await next.context.close();
    } finally {
      await session.stop();
    }
  });
});

describe('the databases a browser file reads and writes from Node', () => {
  it('answers each of many calls at once with its own rows, runs a batch whole or not at all, and says why a statement failed', async () => {
    const session = await startBrowserSession();
    try {
      const db = session.worker.portalDb;
      await db.prepare('CREATE TABLE scratch (n INTEGER PRIMARY KEY, word TEXT NOT NULL)').run();
      const insert = db.prepare('INSERT INTO scratch (n, word) VALUES (?, ?)');
      await db.batch(Array.from({ length: 40 }, (_, n) => insert.bind(n, `word ${n}`)));
      // Forty reads at once, each answered with its own row: Miniflare's synchronous proxy,
      // which these calls no longer go through, once gave a call another's answer.
      const read = db.prepare('SELECT word FROM scratch WHERE n = ?');
      const words = await Promise.all(
        Array.from({ length: 40 }, (_, n) => read.bind(n).first<string>('word')),
      );
      expect(words).toEqual(Array.from({ length: 40 }, (_, n) => `word ${n}`));
      // The second statement breaks the key: the first is rolled back with it.
      await expect(
        db.batch([insert.bind(40, 'kept?'), insert.bind(0, 'a second row 0')]),
      ).rejects.toThrow(/UNIQUE constraint failed: scratch\.n/);
      const count = await db.prepare('SELECT COUNT(*) AS n FROM scratch').first<number>('n');
      expect(count).toBe(40);
      await expect(db.prepare('SELECT * FROM no_such_table').all()).rejects.toThrow(
        /no such table: no_such_table/,
      );
      const { results } = await db
        .prepare('SELECT n, word FROM scratch WHERE n < 2 ORDER BY n')
        .all<{ n: number; word: string }>();
      expect(results).toEqual([
        { n: 0, word: 'word 0' },
        { n: 1, word: 'word 1' },
      ]);
    } finally {
      await session.stop();
    }
  });
});
