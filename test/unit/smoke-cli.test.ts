import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltWorker, startBuiltWorker } from '../../scripts/built-worker';
import { parseSmokeArgs } from '../../scripts/smoke/arguments';
import { runSmoke } from '../../scripts/smoke/checks';

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
  it('passes every check against npm start’s worker, writing nothing the collector keeps', async () => {
    const results = await runSmoke({ origin: worker.url.origin, development: true });
    expect(results.map((result) => [result.name, result.ok])).toEqual([
      ['landing: GET /', true],
      ['product API: GET /api/cf-country', true],
      ['collector: POST /e', true],
      ['console: GET /console/api/state without signing in', true],
    ]);
    expect(results[3]?.detail).toContain('open, as npm start leaves it');
    // The beacon's one event was past the window: answered, and no row of it anywhere.
    const line = worker.logs.find((entry) => entry.path === '/e');
    expect(line).toMatchObject({ status: 200, events: 1, clock_dropped: 1 });
  });

  it('fails a console that lets a stranger in where Cloudflare Access must guard it', async () => {
    const [, , , console] = await runSmoke({ origin: worker.url.origin, development: false });
    expect(console).toMatchObject({ ok: false });
    expect(console?.detail).toContain('answers without Cloudflare Access: anyone can publish');
  });

  it('says no answer for each check when nothing listens, and exits 1', async () => {
    const run = promisify(execFile);
    const failed = await run('npx', ['tsx', 'scripts/smoke.ts', '--url', 'http://127.0.0.1:9'], {
      encoding: 'utf8',
    }).catch((error: { code: number; stdout: string }) => error);
    expect('code' in failed ? failed.code : 0).toBe(1);
    const lines = failed.stdout.trim().split('\n');
    expect(
      lines.slice(0, 4).every((line) => line.startsWith('✗') && line.includes('no answer')),
    ).toBe(true);
    expect(lines.at(-1)).toBe('4 of 4 checks failed on http://127.0.0.1:9.');
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
    expect(parseSmokeArgs(['--port', '1'])).toMatchObject({ kind: 'usage-error' });
  });
});
