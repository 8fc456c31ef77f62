import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltWorker, startBuiltWorker } from '../../scripts/built-worker';
import { parseSmokeArgs } from '../../scripts/smoke/arguments';
import { runSmoke } from '../../scripts/smoke/checks';
import { TSX } from './script-process';

/**
 * `npm run smoke -- --url <origin>` (docs/operate.md, "After a deploy") against the built
 * development worker, as npm start serves it: every check passes there, holds a deployed
 * worker's console to Cloudflare Access, and names what is wrong when nothing answers.
 */

let worker: BuiltWorker;
beforeAll(async () => {
  worker = await startBuiltWorker({ quiet: true });
}, 60_000);
afterAll(() => worker?.stop());

describe('npm run smoke', () => {
  it('passes every check against npm start’s worker, its events in the archive and in no result', async () => {
    const results = await runSmoke({
      origin: worker.url.origin,
      development: true,
      pollDelayMs: 200,
    });
    expect(results.map((result) => [result.name, result.ok])).toEqual([
      ['landing: GET /', true],
      ['product API: GET /api/cf-country', true],
      ['collector: POST /e', true],
      ['purchase: sign up and pay in test mode', true],
      ['archive: GET /e/smoke', true],
      ['console: GET /console/api/state without signing in', true],
    ]);
    expect(results[3]?.detail).toMatch(
      /^charged monthly_7d_intro_usd \(6\.99 USD\) through gateway test \(polling route\): subscription \S+$/,
    );
    const subscriptionId = results[3]?.detail.split(' ').at(-1);
    const bought = await worker.portalDb
      .prepare(
        'SELECT s.plan_id, s.gateway, s.status, u.email FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE s.id = ?',
      )
      .bind(subscriptionId)
      .first();
    expect(bought).toMatchObject({ plan_id: 'monthly_7d_intro_usd', status: 'active' });
    expect(String(bought?.email)).toMatch(/^smoke-[0-9a-f-]{36}@example\.com$/);
    expect(results[4]?.detail).toBe('the beacon and the purchase in the event archive');
    expect(results[5]?.detail).toContain('open, as npm start leaves it');
    // Its landing, its beacon, its purchase and its questions, each with the smoke's agent (a
    // known bot's, so no result counts it: exposures.test.ts).
    expect(worker.logs.filter((entry) => entry.path === '/e/smoke').length).toBeGreaterThan(0);
  });

  // slow: starts a second built worker (a workerd) and waits 2 s for an archive that never fills
  it('fails the archive check of a worker whose events queue has no consumer', async () => {
    const broken = await startBuiltWorker({ quiet: true, queueConsumers: false });
    try {
      const results = await runSmoke({
        origin: broken.url.origin,
        development: true,
        archiveWaitMs: 2_000,
        pollDelayMs: 200,
      });
      const verdicts = Object.fromEntries(results.map((result) => [result.name, result]));
      // The collector still answers 200: only the archive shows nothing got through.
      expect(verdicts['collector: POST /e']?.ok).toBe(true);
      expect(verdicts['archive: GET /e/smoke']).toEqual({
        name: 'archive: GET /e/smoke',
        ok: false,
        detail:
          'the beacon and the purchase not in the event archive after 2 s: the events queue, its consumer or the EVENTS_ARCHIVE bucket is broken (wrangler tail, docs/operate.md)',
      });
    } finally {
      await broken.stop();
    }
  });

  it('fails a console that lets a stranger in where Cloudflare Access must guard it', async () => {
    const results = await runSmoke({
      origin: worker.url.origin,
      development: false,
      pollDelayMs: 200,
    });
    const console = results.at(-1);
    expect(console).toMatchObject({ ok: false });
    expect(console?.detail).toContain('answers without Cloudflare Access: anyone can publish');
  });

  it('says no answer for each check when nothing listens, and exits 1', async () => {
    const run = promisify(execFile);
    const failed = await run(TSX, ['scripts/smoke.ts', '--url', 'http://127.0.0.1:9'], {
      encoding: 'utf8',
    }).catch((error: { code: number; stdout: string }) => error);
    expect('code' in failed ? failed.code : 0).toBe(1);
    const lines = failed.stdout.trim().split('\n');
    expect(lines.slice(0, 6).every((line) => line.startsWith('✗'))).toBe(true);
    expect(lines.at(-1)).toBe('6 of 6 checks failed on http://127.0.0.1:9.');
  });

  it('reads --url, holds any address but this machine’s to the deployed rules, refuses the rest', () => {
    expect(parseSmokeArgs([])).toEqual({
      kind: 'run',
      target: { origin: 'http://127.0.0.1:8787', development: true },
    });
    expect(parseSmokeArgs(['--url', 'https://funnel.example.com/path'])).toEqual({
      kind: 'run',
      target: { origin: 'https://funnel.example.com', development: false },
    });
    expect(parseSmokeArgs(['--url', 'http://localhost:8787', '--deployed'])).toMatchObject({
      target: { development: false },
    });
    expect(parseSmokeArgs(['--url', 'ftp://x'])).toEqual({
      kind: 'usage-error',
      error: '--url takes an http(s) origin, not "ftp://x"',
    });
    expect(parseSmokeArgs(['--plan', 'quarterly_eur'])).toMatchObject({
      target: { planId: 'quarterly_eur' },
    });
    expect(parseSmokeArgs(['--plan', 'free_lunch'])).toEqual({
      kind: 'usage-error',
      error: '--plan takes a plan id of the catalogue, not "free_lunch"',
    });
    expect(parseSmokeArgs(['--port', '1'])).toMatchObject({ kind: 'usage-error' });
  });
});
