import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, startBrowserSession } from './harness';

/**
 * The files of a test process share one built worker, emptied before each (harness.ts): what one
 * file leaves behind (config, database rows, pictures, rate-limit counters, log lines) must be
 * gone for the next, as if its worker had just started. This file leaves all of them behind,
 * empties the worker as the next file's start would, and looks.
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

/** Looks a number up as the searching screen's script does, from the worker's own origin. */
function lookUp(phone: string): Promise<Response> {
  const { worker } = session;
  return fetch(new URL(`/api/phone-number-info/${encodeURIComponent(phone)}`, worker.url), {
    headers: { origin: worker.url.origin, 'sec-fetch-site': 'same-origin' },
  });
}

/** The split variant the worker logged for a visit to the landing. */
async function variantOfAVisit(): Promise<unknown> {
  const { worker } = session;
  await (await fetch(worker.url)).text();
  return worker.logs.findLast((line) => line.path === '/')?.variant;
}

describe('the worker a file shares with the files before it', () => {
  it('holds nothing an earlier file left: config, rows, pictures, counters or logs', async () => {
    const { worker } = session;
    // The lookup limit of one number block (five an hour), reached; each lookup a portal row.
    const statuses: number[] = [];
    for (let n = 1; n <= 6; n += 1) statuses.push((await lookUp(`+1202555010${n}`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const lookups = worker.portalDb.prepare('SELECT COUNT(*) AS n FROM phone_lookups');
    expect((await lookups.first<{ n: number }>())?.n).toBeGreaterThan(0);
    await worker.putConfig('split', {
      version: 'left-behind',
      defaultVariant: 'leftover',
      variants: { leftover: { weight: 1, flow: 'default' } },
    });
    expect(await variantOfAVisit()).toBe('leftover');
    await (await worker.bucket('PICTURES')).put('left-behind.png', new Uint8Array([1]));

    await worker.reset();

    expect(worker.logs).toEqual([]);
    expect((await lookups.first<{ n: number }>())?.n).toBe(0);
    expect((await (await worker.bucket('PICTURES')).list()).objects).toEqual([]);
    expect(await variantOfAVisit()).toBe('default');
    expect((await lookUp('+12025550107')).status).toBe(200);
  });
});
