import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { SPLIT_EXPERIMENT_ID } from '../../../shared/experiments';
import { readExperimentRows } from '../../../worker/experiments/store/experiment-stores';
import { failNext, migratePortalBeforeEach } from '../api/embedded-portal-fixture';
import { anEvent } from '../collector/fixtures';
import { freshApp, ORIGIN } from '../fetch-app';
import {
  aBrowser,
  CHROME,
  funnel,
  SAME_ORIGIN,
  startEachTestAfresh,
  stores,
} from './experiment-fixtures';

/**
 * The errors exposed visitors met (worker/experiments/store/error-statements.ts), which a guarded
 * ramp's `server_errors` and `client_errors` watch: a 5xx the worker answered, recorded by the
 * worker itself (worker/middleware/server-errors.ts), and the errors a visitor's own browser
 * reports, each visitor once per kind.
 */

startEachTestAfresh();
migratePortalBeforeEach();

/** The portal answers every call again. */
const mendPortal = () => env.PORTAL_DB.prepare('DELETE FROM emulator_faults').run();
beforeEach(mendPortal);

async function errorRows() {
  return (await readExperimentRows(stores, SPLIT_EXPERIMENT_ID, 1)).rows.errors;
}

const LOOKUP = `/api/phone-number-info/${encodeURIComponent('+14155550123')}`;

describe('server errors', () => {
  it('a 5xx the worker answers counts its exposed visitor once, whatever they retry', async () => {
    const { exposedVisitor } = funnel();
    const visitor = await exposedVisitor();
    const calm = await exposedVisitor();
    await failNext('phone-number-info', 1_000);
    for (let tries = 0; tries < 2; tries += 1) {
      expect((await visitor.get(LOOKUP)).status).toBeGreaterThanOrEqual(500);
    }
    await mendPortal();
    expect((await calm.get(LOOKUP)).status).toBeLessThan(500);
    expect(await errorRows()).toEqual([{ variant: 'default', kind: 'server_error', visitors: 1 }]);
  });

  it('leaves out a known bot, a prefetch, a visitor never exposed and a 4xx', async () => {
    const { fetchApp, exposedVisitor } = funnel();
    await failNext('phone-number-info', 20);
    const exposed = await exposedVisitor();
    // The same exposed visitor's 5xx asked as a prefetch, and as a crawler: neither counts.
    expect(
      (await exposed.get(LOOKUP, { 'sec-purpose': 'prefetch;prerender' })).status,
    ).toBeGreaterThanOrEqual(500);
    expect(
      (await exposed.get(LOOKUP, { 'user-agent': 'Googlebot/2.1' })).status,
    ).toBeGreaterThanOrEqual(500);
    // A visitor who never loaded a page: no exposure to count it in.
    expect((await aBrowser(fetchApp).get(LOOKUP)).status).toBeGreaterThanOrEqual(500);
    // A malformed number is the visitor's 4xx, no error of ours.
    expect((await exposed.get('/api/phone-number-info/not-a-number')).status).toBeLessThan(500);
    // A setting the deployment lacks answers everyone alike: no variant's error.
    const unconfigured = aBrowser(freshApp({}, { EVENTS_ARCHIVE: undefined }), exposed.cookies);
    const smoke = await unconfigured.get('/e/smoke', {
      origin: ORIGIN,
      'sec-fetch-site': 'same-origin',
    });
    expect(smoke.status).toBe(503);
    expect(smoke.body).toContain('archive_not_configured');
    expect(await errorRows()).toEqual([]);
  });
});

describe('client errors', () => {
  it('count from the visitor’s own browser only: a chunk that failed, a script that threw, a payment that failed', async () => {
    const { fetchApp, exposedVisitor, track, consume } = funnel();
    const chunk = await exposedVisitor();
    const payer = await exposedVisitor();
    const decliner = await exposedVisitor();
    const victim = await exposedVisitor();
    const chunkId = chunk.visitorId() ?? '';
    await track(chunk, [
      anEvent({ event_type: 'chunk_load_failed', device_id: chunkId }),
      anEvent({ event_type: 'chunk_load_failed', device_id: chunkId }),
      anEvent({
        event_type: 'script_error',
        device_id: chunkId,
        event_properties: { screen_name: 'one_pager', kind: 'error', message: 'Uncaught Error' },
      }),
    ]);
    await track(payer, [
      anEvent({
        event_type: 'subs_purchase_failed',
        device_id: payer.visitorId() ?? '',
        event_properties: { screen_name: 'checkout_v3_tr', error: 'Unknown error' },
      }),
    ]);
    // A decline is the worker's to count (declines), not an error of the page.
    await track(decliner, [
      anEvent({
        event_type: 'subs_purchase_failed',
        device_id: decliner.visitorId() ?? '',
        event_properties: { screen_name: 'checkout_v3_tr', decline_code: 'card_declined' },
      }),
    ]);
    // A script naming another visitor, with no cookie: stored under its own ids, never theirs.
    const forged = await fetchApp('/e', {
      method: 'POST',
      headers: { ...SAME_ORIGIN, 'user-agent': CHROME },
      body: JSON.stringify({
        events: [anEvent({ event_type: 'chunk_load_failed', device_id: victim.visitorId() ?? '' })],
      }),
    });
    expect(forged.status).toBe(200);
    await consume();
    expect(await errorRows()).toEqual([{ variant: 'default', kind: 'client_error', visitors: 2 }]);
  });
});
