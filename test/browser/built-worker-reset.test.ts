import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltWorker, startBuiltWorker } from '../../scripts/built-worker';

/**
 * A built worker emptied with `reset()` (scripts/built-worker.ts) holds nothing of what it held
 * (config, database rows, pictures, rate-limit counters, log lines), as if it had just started:
 * what would let the browser files share one worker per process instead of starting one each.
 * This file leaves all of them behind, empties the worker and looks.
 */

let worker: BuiltWorker;
beforeAll(async () => {
  worker = await startBuiltWorker({
    quiet: true,
    resettable: true,
    bindings: { RATE_LIMITS: 'production' },
  });
});
afterAll(() => worker?.stop());

/** Looks a number up as the searching screen's script does, from the worker's own origin. */
function lookUp(phone: string): Promise<Response> {
  return fetch(new URL(`/api/phone-number-info/${encodeURIComponent(phone)}`, worker.url), {
    headers: { origin: worker.url.origin, 'sec-fetch-site': 'same-origin' },
  });
}

/** The split variant the worker logged for a visit to the landing. */
async function variantOfAVisit(): Promise<unknown> {
  await (await fetch(worker.url)).text();
  return worker.logs.findLast((line) => line.path === '/')?.variant;
}

describe('a built worker after reset()', () => {
  it('holds nothing it held: config, rows, pictures, counters or logs', async () => {
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
